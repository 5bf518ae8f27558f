import type { AgentId, WireAnswer } from '../../agents/agent.js';
import { LINK_TIMEOUT_SEC } from '../../agents/agent.js';
import { answerBackground } from '../../agents/claude-code-answer.js';
import { mapBounded } from '../../engine/bounded-map.js';
import { filterEnvironment } from '../../engine/environment.js';
import { runHandler } from '../../engine/run-handler.js';
import { HANDLERS_AT_ONCE } from '../../engine/run-matched.js';
import { isHookEventName } from '../../hooks/events.js';
import { matchHandlers } from '../../hooks/snapshot/snapshot-match.js';
import { buildSnapshot } from '../../hooks/snapshot/snapshot.js';
import { MAX_DEPTH, nestsDeeperThan } from '../../json/nesting-depth.js';
import { CLAUDE_PROJECT_DIR } from '../../plugin/path-variables.js';
import { readUserSettings } from '../../store/user-settings.js';
import { findProjectRoot } from '../../workspace/find-project-root.js';
import { dispatchLogger } from '../steps/decision-log/dispatch-logger.js';
import { handlersDeadline } from './agent-deadline.js';
import type { ClaudeCodeWireOptions } from './answer-claude-code-event.js';
import { eventCwd } from '../steps/host/event-cwd.js';
import { pinnedSources } from './pinned-sources.js';
import { pinUnderPolicy } from './policy-pin.js';
import { sessionPin } from './session-pin.js';

/**
 * plugins.md G3: `hookpm wire claude --background`, the link entry Claude Code runs in the
 * background (`async: true`) for an event with background handlers. Runs only the plugins'
 * background handlers that match the event (on the session's pin, each tree checked, Q6), all at
 * once, each within its own timeout and the entry's deadline (`--deadline`, the longest of them);
 * logs them as one decision log line; answers with the rewake of agents/claude-code-answer.ts. An
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
  let snapshot = buildSnapshot({ projectDir, sources: pin.sources, id: pin.snapshotId });
  let matched = matchHandlers(snapshot, event, payload, 'background');
  const running = new Set(matched.flatMap((h) => (h.plugin === null ? [] : [h.plugin])));
  const checked = await pinnedSources(options.store, pin, running);
  if (checked.sources !== pin.sources) {
    snapshot = buildSnapshot({ projectDir, sources: checked.sources, diagnostics: [] });
    matched = matchHandlers(snapshot, event, payload, 'background');
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
  const { answer, result } = answerBackground(event, runs, snapshot.id);
  result.diagnostics.unshift(...(notes ?? []), ...checked.diagnostics);
  if (runs.length > 0) {
    try {
      dispatchLogger(
        options.store,
        settings,
        'wire:claude:background',
      )?.({
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
  }
  return answer;
}
