import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { DispatchResult } from '../../engine/types.js';
import { HookpmError } from '../../errors.js';
import type { Diagnostic } from '../../hooks/diagnostic.js';
import type { EventName } from '../../hooks/events.js';
import { checkDispatchCall, unreadableInput } from '../../engine/dispatch-call.js';
import { SESSION_CLOSED } from '../../engine/fail-closed.js';
import type { Snapshot, SnapshotPlugin } from '../../hooks/snapshot/snapshot.js';
import { resolveStorePaths } from '../../store/paths.js';
import type { StorePaths } from '../../store/store-paths.js';
import { sessionEventCwd } from '../steps/host/event-cwd.js';
import { openHost, type Host } from '../steps/host/host.js';
import type { DispatchOptions } from '../../engine/dispatch-options.js';
import { describeSnapshot, type HookListing } from './list-hooks.js';
import { loadTrustedSnapshot, type TrustedSnapshot } from './load-trusted-snapshot.js';
import type { AskTrust } from './resolve-trust.js';
import { createSessionGate } from './session-gate.js';
import { sessionTrees, type SessionTrees } from './session-trees.js';

export interface SessionOptions {
  /** The session's working directory: its project root is the workspace (engine.md S2, T2). */
  cwd: string;
  /** The user's home directory (user hooks file, trust store); default `env.HOME`, else the OS's. */
  home?: string;
  /** `--trust-project-hooks`: load the project file without asking (T4, T5). */
  trustProjectHooks?: boolean;
  /** Present only when a person can answer (T4); absent means headless (T5). Asked again on reload. */
  askTrust?: AskTrust;
  /** The environment handlers inherit, less secrets (X5); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where the enabled plugins live; default from `env.HOOKPM_HOME`, else the platform directories. */
  store?: StorePaths;
}

/** A snapshot as a session reports it at start and on reload (docs/reference/rules/cli.md#session, engine.md R4). */
export interface SessionReport {
  snapshotId: string;
  handlers: number;
  plugins: SnapshotPlugin[];
  /**
   * The snapshot's diagnostics (trust notes, rejected matchers, unreadable plugin state, R4), then
   * a settings.json that could not be used.
   */
  diagnostics: Diagnostic[];
}

export interface SessionDispatchOptions {
  /** Consecutive Stop continuations so far (O3); absent on Stop: the session's own count. */
  continuationCount?: number;
  /**
   * Stops this dispatch (engine.md B8), as the session's close stops every one: its running
   * handlers are killed, and each one killed before it decided fails closed.
   */
  signal?: AbortSignal;
}

/** A long-running host of the hook engine: the library form of `hookpm session`. */
export interface Session {
  /** The current snapshot (R1): the one dispatches started now use. */
  readonly snapshot: Snapshot;
  /** The report of the current snapshot; right after createSession, the start report. */
  readonly report: SessionReport;
  /**
   * Dispatches one event (docs/reference/rules/cli.md#json-shapes result). Several may run at once.
   * On Stop without `continuationCount`, the session passes its count of consecutive continuations,
   * which grows by one with each Stop that continued and resets to 0 with each Stop that did not
   * (O3); an explicit count is used as given and the session's count follows that Stop's outcome
   * all the same. Rejects with E_USAGE (unknown event, payload not an object, bad count) or
   * E_SESSION_CLOSED.
   */
  dispatch(
    event: EventName,
    payload: Readonly<Record<string, unknown>>,
    opts?: SessionDispatchOptions,
  ): Promise<DispatchResult>;
  /**
   * R4: waits for the dispatches in flight, re-reads the configuration (trust re-resolved, with an
   * earlier Allow once still honoured while the file is unchanged; enabled plugins re-discovered),
   * and makes the new snapshot current for every later dispatch. On failure (E_CANCELLED at the
   * trust prompt, E_USAGE for a vanished directory) the previous snapshot stays current.
   */
  reload(): Promise<SessionReport>;
  /** The effective hooks of the current snapshot, as `hookpm hooks --json` (after a queued reload). */
  hooks(): Promise<HookListing>;
  /**
   * Kills the process group of every running handler (their dispatches settle failing closed on
   * each handler killed before it decided, engine.md B8) and resolves once every dispatch has
   * settled. Idempotent; afterwards every call rejects with E_SESSION_CLOSED.
   */
  close(): Promise<void>;
}

/**
 * Starts a session for `cwd` (docs/reference/rules/cli.md#session): resolves workspace trust and
 * loads the snapshot once (R1). Errors: those of loadTrustedSnapshot (E_USAGE for a cwd that is not
 * a directory, E_CANCELLED at the trust prompt).
 */
export async function createSession(options: SessionOptions): Promise<Session> {
  const env = options.env ?? process.env;
  const cwd = resolve(options.cwd);
  const home = options.home ?? (env.HOME || homedir());
  const load = snapshotLoader(options, env, cwd, home);
  let current = await load(null);
  let report = reportOf(current);
  const sessionId = randomUUID();
  const gate = createSessionGate();
  const controller = new AbortController();
  setMaxListeners(0, controller.signal); // one listener per running handler
  let closing: Promise<void> | null = null;
  let stopCount = 0;

  const start = (
    event: EventName,
    payload: Readonly<Record<string, unknown>>,
    given: SessionDispatchOptions,
  ): Promise<DispatchResult> => {
    if (closing !== null) return Promise.reject(closedError('dispatch'));
    const continuationCount = given.continuationCount ?? (event === 'Stop' ? stopCount : 0);
    const signal =
      given.signal === undefined
        ? controller.signal
        : AbortSignal.any([controller.signal, given.signal]);
    const opts: DispatchOptions = { continuationCount, signal, env, home };
    // A payload's own session_id and cwd win (dispatchEvent's defaults); else the session's.
    if (typeof payload['session_id'] !== 'string') opts.sessionId = sessionId;
    const where = sessionEventCwd(payload['cwd'], cwd, home);
    if (where.cwd !== null) opts.cwd = where.cwd;
    if (where.notes !== undefined) opts.notes = where.notes;
    // The trees checked are those of the plugins dispatch matches, at the cwd it matches with.
    // A plugin whose tree went while its handler ran, and so failed, fails closed after all (B2),
    // before the decision log records the result.
    const result = current.trees.hostFor(event, payload, opts.cwd).then((checked) => {
      opts.settle = checked.recheck;
      return checked.host.dispatch(event, payload, opts).then((r) => {
        if (checked.diagnostics.length > 0) r.diagnostics.unshift(...checked.diagnostics);
        return r;
      });
    });
    if (event !== 'Stop') return result;
    return result.then((r) => {
      stopCount = r.continueLoop ? continuationCount + 1 : 0;
      return r;
    });
  };

  return {
    get snapshot() {
      return current.snapshot;
    },
    get report() {
      return report;
    },
    dispatch(event, payload, opts = {}) {
      if (closing !== null) return Promise.reject(closedError('dispatch'));
      let bad: HookpmError | null;
      try {
        bad = checkDispatchCall(event, payload, opts);
      } catch (error) {
        // A proxy trap or a getter of the caller's payload or options that throws: it rejects.
        return Promise.reject(unreadableInput(event, error));
      }
      if (bad !== null) return Promise.reject(bad);
      // The gate's task must not throw: a getter of the payload that throws rejects instead.
      return gate.run(() => {
        try {
          return start(event, payload, opts);
        } catch (error) {
          return Promise.reject(unreadableInput(event, error));
        }
      });
    },
    reload() {
      if (closing !== null) return Promise.reject(closedError('reload'));
      return gate.exclusive(async () => {
        if (closing !== null) throw closedError('reload');
        current = await load(current.trust.onceSha256);
        report = reportOf(current);
        return report;
      });
    },
    hooks() {
      if (closing !== null) return Promise.reject(closedError('hooks'));
      return gate.run(() => Promise.resolve(describeSnapshot(current.snapshot)));
    },
    close() {
      if (closing !== null) return closing;
      closing = gate.idle();
      controller.abort(SESSION_CLOSED);
      return closing;
    },
  };
}

/**
 * A session's configuration: the snapshot (R1), its host (the user settings read with it), and its
 * plugins' trees, checked again before their handlers run (B2).
 */
interface SessionConfig extends TrustedSnapshot {
  host: Host;
  trees: SessionTrees;
}

/**
 * Loads the session's configuration; `onceSha256` carries an Allow once over to a reload (R4).
 * The user settings (`env.pass`, X5) are read with each snapshot, so a reload picks up an edit.
 */
function snapshotLoader(
  options: SessionOptions,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  home: string,
): (onceSha256: string | null) => Promise<SessionConfig> {
  const store = options.store ?? resolveStorePaths(env);
  return async (onceSha256) => {
    const trusted = await loadTrustedSnapshot({
      cwd,
      home,
      flag: options.trustProjectHooks === true,
      store,
      onceSha256,
      ...(options.askTrust === undefined ? {} : { askTrust: options.askTrust }),
    });
    const host = openHost({
      snapshot: trusted.snapshot,
      store,
      source: 'session',
      failClosed: trusted.failClosed,
    });
    return { ...trusted, host, trees: sessionTrees(trusted, host, store, home) };
  };
}

function reportOf({ snapshot, host }: SessionConfig): SessionReport {
  return {
    snapshotId: snapshot.id,
    handlers: snapshot.handlers.length,
    plugins: snapshot.plugins.map((p) => ({ id: p.id, events: [...p.events] })),
    diagnostics: [...snapshot.diagnostics, ...host.settingsDiagnostics],
  };
}

function closedError(what: string): HookpmError {
  return new HookpmError('E_SESSION_CLOSED', `${what}: the session is closed`, {
    hint: 'Start a new session (createSession, or `hookpm session`).',
  });
}
