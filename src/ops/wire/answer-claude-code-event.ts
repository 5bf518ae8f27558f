import { basename } from 'node:path';
import { LINK_TIMEOUT_SEC, type WireAnswer } from '../../agents/agent.js';
import { answerClaudeCodeEvent } from '../../agents/claude-code-answer.js';
import { mapBounded } from '../../engine/bounded-map.js';
import { MAX_DEPTH, nestsDeeperThan } from '../../json/nesting-depth.js';
import { filterEnvironment } from '../../engine/environment.js';
import { runHandler } from '../../engine/run-handler.js';
import { HANDLERS_AT_ONCE } from '../../engine/run-matched.js';
import type { ClaudeCodeEventName } from '../../hooks/events.js';
import { matchHandlers } from '../../hooks/snapshot/snapshot-match.js';
import { buildSnapshot } from '../../hooks/snapshot/snapshot.js';
import { CLAUDE_PROJECT_DIR } from '../../plugin/path-variables.js';
import { readUserSettings } from '../../store/user-settings.js';
import { findProjectRoot } from '../../workspace/find-project-root.js';
import { dispatchLogger } from '../steps/decision-log/dispatch-logger.js';
import { handlersDeadline } from './agent-deadline.js';
import type { StorePaths } from '../../store/store-paths.js';
import { eventCwd } from '../steps/host/event-cwd.js';
import { pinnedSources } from './pinned-sources.js';
import { pinUnderPolicy } from './policy-pin.js';
import { sessionPin } from './session-pin.js';

/** What answer-event.ts's WireOptions give this event (the same fields, the same meaning). */
export interface ClaudeCodeWireOptions {
  store: StorePaths;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  home: string;
  deadline?: { seconds: number | null; startedAt: number };
}

/**
 * plugins.md G2: `hookpm wire claude` for one of Claude Code's own events. The plugins of the
 * session's pin whose handlers hook the event and match it (the matcher against the field Claude
 * Code matches; FileChanged's file name) run with Claude Code's payload as it is, in the payload's
 * `cwd`, all at once (X1's bound), each within its timeout and the agent's deadline; a plugin
 * whose tree changed since consent (Q6) does not run. The runs become one answer
 * (agents/claude-code-answer.ts) and one decision log line.
 */
export async function answerClaudeCodeWireEvent(
  options: ClaudeCodeWireOptions,
  event: ClaudeCodeEventName,
  payload: Record<string, unknown>,
): Promise<WireAnswer> {
  // engine.md B5: refused before the pin or the matchers walk it; a non-blocking error there.
  if (nestsDeeperThan(payload))
    return {
      exitCode: 1,
      stdout: '',
      stderr: `hookpm: hookpm refused the ${event} payload: it is nested deeper than ${MAX_DEPTH} levels, so no handler ran\n`,
    };
  const where = eventCwd(payload['cwd'], options.cwd, options.home);
  const { pin: pinned } = await sessionPin({
    paths: options.store,
    agent: 'claude',
    event,
    payload,
    cwd: where.forPin,
  });
  // docs/reference/rules/policy.md#a13: what the policy stops now runs on none of Claude Code's events.
  const pin = pinUnderPolicy(pinned, options.env);
  const { cwd, notes } = where.resolve(pin.sessionId === '' ? undefined : pin.projectRoot);
  const projectDir = options.env[CLAUDE_PROJECT_DIR] || (await findProjectRoot(cwd));
  const matchInput = matchingInput(event, payload);
  let snapshot = buildSnapshot({ projectDir, sources: pin.sources, id: pin.snapshotId });
  let matched = matchHandlers(snapshot, event, matchInput, 'claude');
  const running = new Set(matched.flatMap((h) => (h.plugin === null ? [] : [h.plugin])));
  const checked = await pinnedSources(options.store, pin, running);
  if (checked.sources !== pin.sources) {
    snapshot = buildSnapshot({ projectDir, sources: checked.sources, diagnostics: [] });
    matched = matchHandlers(snapshot, event, matchInput, 'claude');
  }
  const settings = readUserSettings(options.store);
  const startedAt = Date.now();
  const seconds = options.deadline?.seconds ?? LINK_TIMEOUT_SEC;
  const runs = await mapBounded(matched, HANDLERS_AT_ONCE, (handler) =>
    runHandler(handler, {
      stdin: JSON.stringify(payload),
      cwd,
      projectDir,
      env: filterEnvironment(options.env, settings.passEnv),
      passEnv: settings.passEnv,
      ...(options.deadline === undefined
        ? {}
        : { deadline: handlersDeadline(options.deadline.startedAt, seconds) }),
    }),
  );
  const told = [...(notes ?? []), ...checked.diagnostics];
  const { answer, result } = answerClaudeCodeEvent(event, runs, snapshot.id, told);
  const log = dispatchLogger(options.store, settings, 'wire:claude');
  try {
    log?.({
      event,
      startedAt,
      sessionId: pin.sessionId === '' ? null : pin.sessionId,
      payload,
      runs,
      decisions: runs.map(() => null),
      result,
      ...(notes === undefined ? {} : { notes }),
    });
  } catch {
    // The log never fails an event (docs/guides/decision-log.md).
  }
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
