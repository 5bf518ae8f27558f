import type { HookEventName } from '../../hooks/events.js';
import { matchHandlers, type HandlerSet } from '../../hooks/snapshot/snapshot-match.js';
import { buildSnapshot, type Snapshot } from '../../hooks/snapshot/snapshot.js';
import type { Diagnostic } from '../../hooks/diagnostic.js';
import type { SnapshotHandler } from '../../hooks/types.js';
import { CLAUDE_PROJECT_DIR } from '../../plugin/path-variables.js';
import type { SessionPin } from '../../store/session-pin-schema.js';
import type { StorePaths } from '../../store/store-paths.js';
import { findProjectRoot } from '../../workspace/find-project-root.js';
import { eventCwd } from '../steps/host/event-cwd.js';
import { pinnedSources, type PinnedSources } from './pinned-sources.js';
import { pinUnderPolicy } from './policy-pin.js';
import { sessionPin } from './session-pin.js';

/** What `hookpm wire` was given: the store, the environment, its own cwd and the user's home. */
export interface WireContext {
  store: StorePaths;
  env: Readonly<Record<string, string | undefined>>;
  /**
   * hookpm's own working directory, and the user's home: where handlers run when the payload's
   * `cwd` cannot be used (W2).
   */
  cwd: string;
  home: string;
}

/** What one linked event is planned from. */
export interface EventPlanInput {
  agent: string;
  event: HookEventName;
  /** The agent's payload as it came (its `session_id` picks the pin). */
  payload: Readonly<Record<string, unknown>>;
  /** The fields the matchers read (the payload decoded), `cwd` among them; they pick the table. */
  input: Readonly<Record<string, unknown>>;
  which: HandlerSet;
  /** cli.md W4: the agent's other names of the value matchers compare. */
  matcherAliases?: readonly string[];
  /** The handlers' deadline (a `performance.now()` value), which the tamper check ends at too. */
  by: number | undefined;
}

/** A linked event's pin, where its handlers run, and the handlers that run. */
export interface EventPlan {
  /** The session's pin less what the policy stops now (policy.md A13). */
  pin: SessionPin;
  /** Whether the pin is stored (an event with a session id, from a readable state). */
  stored: boolean;
  /** Where handlers run (W2), and the `cwd_unusable` note when it is not the payload's `cwd`. */
  cwd: string;
  notes: Diagnostic[] | undefined;
  projectDir: string;
  /** The snapshot less the plugins the check left out. */
  snapshot: Snapshot;
  /** The plugins whose handlers match, before the check. */
  running: ReadonlySet<string>;
  /** The handlers that run: those of `snapshot` that match. */
  matched: SnapshotHandler[];
  checked: PinnedSources;
}

/**
 * The plan of one linked event, for `wire`'s answers (answer-event.ts for the engine's events,
 * run-pinned.ts for Claude Code's own and the background entry): the session's pin (session-pin.ts)
 * under the policy of this moment, where handlers run (cli.md W2), the snapshot, the handlers that
 * match, and the check of the plugins about to run (plugins.md Q6), which ends at `by`. When that
 * check finds a pinned plugin restored since it was pinned (engine.md B4), the session is pinned
 * afresh and planned again, once.
 */
export async function planPinnedEvent(
  wire: WireContext,
  input: EventPlanInput,
): Promise<EventPlan> {
  const planned = await plan(wire, input, false);
  return planned.checked.restored === true ? plan(wire, input, true) : planned;
}

async function plan(wire: WireContext, input: EventPlanInput, afresh: boolean): Promise<EventPlan> {
  const { event, which } = input;
  const where = eventCwd(input.input['cwd'], wire.cwd, wire.home);
  const { pin: pinned, stored } = await sessionPin({
    paths: wire.store,
    agent: input.agent,
    event,
    payload: input.payload,
    input: input.input,
    ...(input.matcherAliases === undefined ? {} : { matcherAliases: input.matcherAliases }),
    cwd: where.forPin,
    ...(afresh ? { afresh } : {}),
  });
  const pin = await pinUnderPolicy(pinned, wire.store, wire.env);
  // An event without a session id has no session to fall back on, only the pin of the moment.
  const { cwd, notes } = where.resolve(pin.sessionId === '' ? undefined : pin.projectRoot);
  const projectDir = wire.env[CLAUDE_PROJECT_DIR] || (await findProjectRoot(cwd));
  let snapshot = buildSnapshot({ projectDir, sources: pin.sources, id: pin.snapshotId });
  // F2: `if` path rules read a relative path from `cwd`, where the handlers run (cli.md W2).
  const how = { which, aliases: input.matcherAliases, home: wire.home, cwd };
  let matched = matchHandlers(snapshot, event, input.input, how);
  const running = new Set(matched.flatMap((h) => (h.plugin === null ? [] : [h.plugin])));
  // Q6 for the plugins about to run; a tampered one is left out before anything runs.
  const checked = await pinnedSources(wire.store, pin, running, input.by);
  if (checked.sources !== pin.sources) {
    snapshot = buildSnapshot({ projectDir, sources: checked.sources, diagnostics: [] });
    matched = matchHandlers(snapshot, event, input.input, how);
  }
  return { pin, stored, cwd, notes, projectDir, snapshot, running, matched, checked };
}
