import type { AgentId, WireAnswer } from '../../agents/agent.js';
import { answerBackground } from '../../agents/claude-code-answer.js';
import { isHookEventName } from '../../hooks/events.js';
import { refusePayload, runPinnedHandlers, type ClaudeCodeWireOptions } from './run-pinned.js';

/**
 * plugins.md G3: `hookpm wire claude --background`, the link entry Claude Code runs in the
 * background (`async: true`) for an event with background handlers. Runs only the plugins'
 * background handlers that match the event (on the session's pin, each tree checked, Q6), all at
 * once, each within its own timeout and the entry's deadline (`--deadline`, the longest of them);
 * logs them, and the plugins left out, as one decision log line; answers with the rewake of
 * agents/claude-code-answer.ts. An
 * agent other than Claude Code has no background entry: nothing runs.
 */
export async function answerBackgroundEvent(
  options: ClaudeCodeWireOptions,
  agent: AgentId,
  payload: Record<string, unknown>,
): Promise<WireAnswer> {
  const event = payload['hook_event_name'];
  if (agent !== 'claude' || typeof event !== 'string' || !isHookEventName(event))
    return { exitCode: 0, stdout: '', stderr: '' };
  const refused = refusePayload(event, payload, options);
  if (refused !== null) return refused;
  const pinned = await runPinnedHandlers(options, event, payload, payload, 'background');
  const { answer, result } = answerBackground(event, pinned.runs, {
    snapshotId: pinned.snapshotId,
    notes: pinned.told,
    failClosed: pinned.failClosed,
  });
  // A plugin left out (tampered, stopped by the policy) is logged, as a note, though nothing ran.
  const left = result.diagnostics.filter((d) => d.code === 'failed_closed');
  if (pinned.runs.length > 0 || left.length > 0) pinned.log(result, left);
  return answer;
}
