import { LINK_TIMEOUT_SEC, type WireAnswer } from '../../agents/agent.js';
import { mapBounded } from '../../engine/bounded-map.js';
import { filterEnvironment } from '../../engine/environment.js';
import { failClosedOn, refusedPayloadReason } from '../../engine/fail-closed.js';
import { runHandler } from '../../engine/run-handler.js';
import { HANDLERS_AT_ONCE } from '../../engine/run-matched.js';
import type { DispatchResult, HandlerRun, ResultDiagnostic } from '../../engine/types.js';
import type { HookEventName } from '../../hooks/events.js';
import type { FailClosed } from '../../hooks/fail-closed-entry.js';
import type { HandlerSet } from '../../hooks/snapshot/snapshot-match.js';
import { nestsDeeperThan } from '../../json/nesting-depth.js';
import type { StorePaths } from '../../store/store-paths.js';
import { readUserSettings } from '../../store/user-settings.js';
import { dispatchLogger } from '../steps/decision-log/dispatch-logger.js';
import { withFailOpen } from '../steps/host/fail-open.js';
import { handlersDeadline } from './agent-deadline.js';
import { planPinnedEvent } from './event-plan.js';

/** What answer-event.ts's WireOptions give this event (the same fields, the same meaning). */
export interface ClaudeCodeWireOptions {
  store: StorePaths;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  home: string;
  deadline?: { seconds: number | null; startedAt: number };
  notUtf8?: boolean;
}

/** One event's runs of pinned handlers, and what the decision log line needs of them. */
export interface PinnedRuns {
  runs: HandlerRun[];
  snapshotId: string;
  /** The `cwd_unusable` note (W2), if any, then the plugins left out as tampered (Q6). */
  told: ResultDiagnostic[];
  /**
   * What fails closed on the event (docs/reference/rules/engine.md#fail-closed): the pin's entries
   * for it (an unreadable state, plugins that could not be pinned, the policy's) and the plugins
   * about to run left out as tampered (Q6); those settings.json's `failOpen` names marked `open`.
   */
  failClosed: readonly FailClosed[];
  /**
   * Logs the event's result as one decision log line when `source` is logged, with `told` among
   * the line's notes after the event's own; never throws.
   */
  log(result: DispatchResult, told?: readonly ResultDiagnostic[]): void;
}

/**
 * engine.md B5 for an event whose handlers hookpm runs itself inside Claude Code (its own events,
 * and the background entry): the answer to a payload that is not UTF-8 (`options.notUtf8`) or
 * nests too deep, a non-blocking error before the pin or the matchers walk it; null for any other
 * payload.
 */
export function refusePayload(
  event: HookEventName,
  payload: Record<string, unknown>,
  options: ClaudeCodeWireOptions,
): WireAnswer | null {
  const refusal =
    options.notUtf8 === true ? 'not_utf8' : nestsDeeperThan(payload) ? 'too_deep' : null;
  if (refusal === null) return null;
  return {
    exitCode: 1,
    stdout: '',
    stderr: `hookpm: ${refusedPayloadReason(event, refusal)}\n`,
  };
}

/**
 * Runs, for Claude Code, the `which` handlers of the session's pin that match `matchInput` on
 * `event`, with Claude Code's `payload` as it is: the pin less what the administrator's policy
 * stops now (policy.md A13), in the payload's `cwd` (W2), the plugins about to run checked (Q6), all
 * at once within X1's bound, each within its timeout and the agent's deadline. What cannot run as
 * consented is returned for the answer to fail closed on (engine.md B2, B3, B6).
 */
export async function runPinnedHandlers(
  options: ClaudeCodeWireOptions,
  event: HookEventName,
  payload: Record<string, unknown>,
  matchInput: Record<string, unknown>,
  which: HandlerSet,
): Promise<PinnedRuns> {
  const seconds = options.deadline?.seconds ?? LINK_TIMEOUT_SEC;
  const by =
    options.deadline === undefined
      ? undefined
      : handlersDeadline(options.deadline.startedAt, seconds);
  const { pin, cwd, notes, projectDir, snapshot, matched, checked } = await planPinnedEvent(
    options,
    {
      agent: 'claude',
      event,
      payload,
      input: matchInput,
      which,
      by,
    },
  );
  const settings = readUserSettings(options.store);
  const failing = failClosedOn([...(pin.failClosed ?? []), ...checked.failClosed], event);
  const startedAt = Date.now();
  // The payload and X5's filtered environment once per event, as run-matched.ts has them.
  const runOptions = {
    stdin: JSON.stringify(payload),
    cwd,
    projectDir,
    env: filterEnvironment(options.env, settings.passEnv),
    passEnv: settings.passEnv,
    ...(by === undefined ? {} : { deadline: by }),
  };
  const runs = await mapBounded(matched, HANDLERS_AT_ONCE, (handler) =>
    runHandler(handler, runOptions),
  );
  const source = which === 'background' ? 'wire:claude:background' : 'wire:claude';
  return {
    runs,
    snapshotId: snapshot.id,
    told: [...(notes ?? []), ...checked.diagnostics],
    failClosed: withFailOpen(failing, settings),
    log(result, told = []) {
      const logged = [...(notes ?? []), ...told];
      try {
        dispatchLogger(
          options.store,
          settings,
          source,
        )?.({
          event,
          startedAt,
          sessionId: pin.sessionId === '' ? null : pin.sessionId,
          payload,
          runs,
          decisions: runs.map(() => null),
          result,
          ...(logged.length === 0 ? {} : { notes: logged }),
        });
      } catch {
        // The log never fails an event (docs/guides/decision-log.md).
      }
    },
  };
}
