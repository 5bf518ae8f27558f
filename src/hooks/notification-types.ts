/**
 * D10 (docs/reference/rules/engine.md#d10): the `notification_type` values the agents send on
 * Notification: Claude Code's and Deep Agents Code's (its wire vocabulary, `cold_cache_warning`
 * included), and those hookpm maps Gemini CLI's onto (gemini-names.ts). A Notification matcher
 * that can match none of them never fires; `hookpm validate` says so.
 */
export const KNOWN_NOTIFICATION_TYPES = [
  'permission_prompt',
  'idle_prompt',
  'auth_success',
  'elicitation_dialog',
  'elicitation_complete',
  'elicitation_response',
  'agent_needs_input',
  'agent_completed',
  'cold_cache_warning',
] as const;
