import { basename } from 'node:path';
import type { WireAnswer } from '../../agents/agent.js';
import { answerClaudeCodeEvent } from '../../agents/claude-code-answer.js';
import type { ClaudeCodeEventName } from '../../hooks/events.js';
import { blocksOnFailure } from '../../hooks/fail-closed-entry.js';
import { refusePayload, runPinnedHandlers, type ClaudeCodeWireOptions } from './run-pinned.js';

export type { ClaudeCodeWireOptions } from './run-pinned.js';

/**
 * plugins.md G2: `hookpm wire claude` for one of Claude Code's own events. The plugins of the
 * session's pin whose handlers hook the event and match it (the matcher against the field Claude
 * Code matches; FileChanged's file name) run with Claude Code's payload as it is, in the payload's
 * `cwd`, all at once (X1's bound), each within its timeout and the agent's deadline; a plugin
 * whose tree changed since consent (Q6) does not run. The runs become one answer
 * (agents/claude-code-answer.ts) and one decision log line; what cannot run as consented fails
 * closed in it (docs/reference/rules/engine.md#fail-closed), as on the engine's events.
 */
export async function answerClaudeCodeWireEvent(
  options: ClaudeCodeWireOptions,
  event: ClaudeCodeEventName,
  payload: Record<string, unknown>,
): Promise<WireAnswer> {
  const refused = refusePayload(event, payload, options);
  // B5: where exit 2 blocks, the refusal is the blocking answer; elsewhere exit 1 tells it.
  if (refused !== null) return blocksOnFailure(event) ? { ...refused, exitCode: 2 } : refused;
  const match = matchingInput(event, payload);
  const pinned = await runPinnedHandlers(options, event, payload, match, 'claude');
  const { answer, result } = answerClaudeCodeEvent(event, pinned.runs, {
    snapshotId: pinned.snapshotId,
    notes: pinned.told,
    failClosed: pinned.failClosed,
  });
  pinned.log(result);
  return answer;
}

/** What the matchers read: the payload, and for FileChanged the base name of its `file_path`. */
function matchingInput(
  event: ClaudeCodeEventName,
  payload: Record<string, unknown>,
): Record<string, unknown> {
  const path = payload['file_path'];
  if (event !== 'FileChanged' || typeof path !== 'string') return payload;
  return { ...payload, file_name: basename(path) };
}
