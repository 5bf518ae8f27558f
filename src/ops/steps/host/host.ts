import { dispatchEvent } from '../../../engine/dispatch.js';
import type { DispatchOptions } from '../../../engine/dispatch-options.js';
import type { FailClosed } from '../../../hooks/fail-closed-entry.js';
import type { DispatchResult } from '../../../engine/types.js';
import type { EventName } from '../../../hooks/events.js';
import type { Snapshot } from '../../../hooks/snapshot/snapshot.js';
import type { StorePaths } from '../../../store/store-paths.js';
import { readUserSettings, type UserSettings } from '../../../store/user-settings.js';
import { dispatchLogger } from '../decision-log/dispatch-logger.js';
import { withFailOpen } from './fail-open.js';

export interface HostOptions {
  /** The configuration every dispatch of this host uses (R1). */
  snapshot: Snapshot;
  /** The store whose settings.json applies; absent: no settings (no `env.pass`) and no log. */
  store?: StorePaths;
  /**
   * The decision log's `source` of this host's dispatches (`run`, `session`, `wire:<agent>`);
   * null: nothing is logged whatever the settings say (`hookpm test`).
   */
  source: string | null;
  /**
   * What cannot run as consented (docs/reference/rules/engine.md#fail-closed): every dispatch
   * fails closed on it, unless settings.json's `failOpen` names it (then it is only told).
   */
  failClosed?: readonly FailClosed[];
}

/**
 * A host of the hook engine (`run`, `session`, `wire`, `test`): one snapshot, the user settings
 * read with it, the decision log's sink those settings ask for, and a dispatch over all three.
 */
export interface Host {
  readonly snapshot: Snapshot;
  /** null without a store; a settings.json that could not be used gives the defaults. */
  readonly settings: UserSettings | null;
  /** What the settings file said about itself (unreadable, unknown keys); empty without one. */
  readonly settingsDiagnostics: UserSettings['diagnostics'];
  /** The host's fail-closed entries, those the settings open marked `open`. */
  readonly failClosed: readonly FailClosed[];
  /**
   * dispatchEvent on the host's snapshot, with X5's pass-through (`env.pass`) and the log's sink
   * of the settings; `opts` adds the invocation's own fields, and `opts.log` is called as well as
   * (after) the decision log, never instead of it.
   */
  dispatch(
    event: EventName,
    input: Readonly<Record<string, unknown>>,
    opts?: DispatchOptions,
  ): Promise<DispatchResult>;
}

/**
 * Composes a host (docs/reference/rules/engine.md#running-handlers and the sections after it, the
 * decision log of settings.json). Reads the user settings once: a host made again (a session's
 * reload) picks up an edit. Never throws for a settings file (readUserSettings reports it instead).
 * Every dispatch gets the host's fail-closed entries (those the settings open marked `open`).
 */
export function openHost(options: HostOptions): Host {
  const { snapshot, store, source } = options;
  const settings = store === undefined ? null : readUserSettings(store);
  const logged =
    store === undefined || settings === null || source === null
      ? undefined
      : dispatchLogger(store, settings, source);
  const passEnv = settings?.passEnv ?? [];
  const failClosed = withFailOpen(options.failClosed ?? [], settings);
  return {
    snapshot,
    settings,
    settingsDiagnostics: settings?.diagnostics ?? [],
    failClosed,
    dispatch(event, input, opts = {}) {
      const log = bothSinks(logged, opts.log);
      return dispatchEvent(snapshot, event, input, {
        passEnv,
        ...(failClosed.length === 0 ? {} : { failClosed }),
        ...opts,
        ...(log === undefined ? {} : { log }),
      });
    },
  };
}

type Sink = NonNullable<DispatchOptions['log']>;

function bothSinks(first: Sink | undefined, second: Sink | undefined): Sink | undefined {
  if (first === undefined || second === undefined) return first ?? second;
  return (record) => {
    first(record);
    second(record);
  };
}
