import type { AgentId, WireAnswer } from '../../agents/agent.js';
import { AGENTS } from '../../agents/agents.js';
import { applyFailClosed } from '../../engine/fail-closed.js';
import { noDecision } from '../../engine/no-decision.js';
import { isHookpmError, redact } from '../../errors.js';
import { isClaudeCodeEvent } from '../../hooks/events.js';
import { blocksOnFailure, type FailClosed } from '../../hooks/fail-closed-entry.js';
import { isPlainObject } from '../../json/describe-value.js';
import type { StorePaths } from '../../store/store-paths.js';
import { readUserSettings } from '../../store/user-settings.js';
import { withFailOpen } from '../steps/host/fail-open.js';

/**
 * engine.md B7: the answer to a linked event hookpm itself failed on (an error it did not expect,
 * a file of its own it could not load), after it read the payload: no guard could decide, so the
 * event fails closed as B2 says, every plugin at once, the reason naming hookpm's error and the
 * fix. On a blocking event that is its blocking answer; on Claude Code's own events where exit 2
 * blocks, exit 2 with the reason; elsewhere a `systemMessage`. settings.json's `"failOpen": true`
 * opens it, when settings.json can still be read (`store`; null: hookpm's home itself was refused,
 * E_CONFIG, and nothing opens it). Null when the payload does not tell an event this agent's link
 * answers: the error is then reported as any other. Claude Code's answer is written here, not by
 * agents/claude-code-answer.ts: that module is in the bundle's runner chunk, and this answer must
 * not need the code whose failure it reports.
 */
export function crashAnswer(
  agentId: AgentId,
  stdin: string | null,
  store: StorePaths | null,
  error: unknown,
): WireAnswer | null {
  let payload: unknown;
  try {
    payload = stdin === null ? null : JSON.parse(stdin);
  } catch {
    return null;
  }
  if (!isPlainObject(payload)) return null;
  const entry: FailClosed = { plugin: null, events: null, reason: reasonOf(error) };
  const [failing] = withFailOpen([entry], store === null ? null : settingsOf(store));
  const agent = AGENTS[agentId];
  const named = payload['hook_event_name'];
  if (agent.id === 'claude' && typeof named === 'string' && isClaudeCodeEvent(named)) {
    const told = `hookpm: error failed_closed: ${failing!.reason}\n`;
    if (failing!.open !== true && blocksOnFailure(named))
      return { exitCode: 2, stdout: '', stderr: `${failing!.reason}\n` };
    const stdout = `${JSON.stringify({ systemMessage: failing!.reason })}\n`;
    return { exitCode: 0, stdout, stderr: told };
  }
  const decoded = agent.decode(payload);
  if (decoded === null) return null;
  const result = applyFailClosed(noDecision(decoded.event, ''), [failing!], {
    continuationCount: 0,
    stopHookActive: payload['stop_hook_active'] === true,
  });
  return agent.encode(result);
}

/**
 * The fail-closed reason: hookpm's configuration it refuses (E_CONFIG: a relative HOOKPM_HOME) with
 * its own fix, else hookpm's own failure with `hookpm doctor` and a reinstall.
 */
function reasonOf(error: unknown): string {
  if (isHookpmError(error, 'E_CONFIG'))
    return `hookpm fails closed: ${error.message}, so no plugin's guard could decide; ${lowerFirst(error.hint ?? '')}`;
  const why = redact(error instanceof Error ? error.message : String(error));
  return `hookpm fails closed: hookpm itself failed while answering this event (${why}), so no plugin's guard could decide; run \`hookpm doctor\`, and reinstall hookpm if one of its own files is damaged`;
}

/** A hint as the second half of a sentence. */
function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** settings.json, or none when it cannot be read either. */
function settingsOf(store: StorePaths): ReturnType<typeof readUserSettings> | null {
  try {
    return readUserSettings(store);
  } catch {
    return null;
  }
}
