import type { Agent } from './agent.js';
import { encodeCodexOutput } from './codex-output.js';
import { CODEX_EVENTS, CODEX_EVENTS_NOT_LINKED, decodeCodexPayload } from './codex-payload.js';

/**
 * Codex: `$CODEX_HOME/hooks.json` (default `~/.codex/hooks.json`), project
 * `<root>/.codex/hooks.json`, in the Claude format (`load_hooks_json` in
 * `codex-rs/hooks/src/engine/discovery.rs` of github:openai/codex reads `hooks.json` from each
 * config layer's folder: the user's CODEX_HOME and a project's `.codex`). Codex runs a hook that is
 * not managed only once its user trusted it (`hook_trust_status` there: the trust is the hash of
 * the event, matcher and handler, kept in Codex's config under the hook's position).
 */
export const CODEX: Agent = {
  id: 'codex',
  name: 'Codex',
  settingsFile: ['.codex', 'hooks.json'],
  homeEnv: { name: 'CODEX_HOME', file: ['hooks.json'] },
  events: CODEX_EVENTS,
  settingsEvents: CODEX_EVENTS,
  eventsNotLinked: CODEX_EVENTS_NOT_LINKED,
  hooksConfigKeys: [],
  timeoutPerSecond: 1,
  // Codex 0.171.0 cuts a SessionEnd hook to 3 s, with a warning on every run for a longer one.
  linkTimeoutCaps: { SessionEnd: 3 },
  trustNote: (scope) =>
    [
      'Codex runs new hooks only once you trust them: start `codex`, type `/hooks` and trust the',
      "hookpm handlers (once; linking the same hookpm again keeps that trust, a moved hookpm's",
      'handlers need it again).',
      ...(scope === 'project'
        ? ["Codex reads the project's .codex/ only when the project is trusted in Codex."]
        : []),
    ].join(' '),
  // Codex reads SubagentStop context back as a block (codex-output.ts), which continues a subagent.
  display: { subagentStopContext: 'continues' },
  decode: decodeCodexPayload,
  encode: encodeCodexOutput,
};
