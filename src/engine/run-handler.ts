/**
 * The handler runner (docs/reference/rules/engine.md#running-handlers, X2-X8): one handler, one
 * process group, one HandlerRun.
 *
 * Built on node:child_process rather than execa 9: execa's per-spawn machinery (stream wrappers,
 * promises per stdio, result assembly) measured 30-80% slower than a bare spawn for a `true`
 * handler, against a budget of 15% (docs/design/benchmarks.md), and its settle-on-pipe-EOF would
 * need undoing anyway to settle while a grandchild holds the pipes (X6). What execa would add (no
 * shell, no string splitting, `detached`) is one spawn option each here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { SnapshotHandler } from '../hooks/types.js';
import { forgetBwrap, sandboxFailure, watchSandboxStatus } from './confine-command.js';
import { confinedStdio, writeSeccomp } from './confined-stdio.js';
import type { Writable } from 'node:stream';
import {
  commandLine,
  invalidCommand,
  launchFailure,
  launchOf,
  type LaunchPlace,
} from './handler-launch.js';
import { createOutputCapture, type OutputCapture } from './output-capture.js';
import { letGoAfterExit } from '../io/after-exit-read.js';
import {
  IS_WINDOWS,
  KILL_GRACE_MS,
  prepareGroup,
  registerGroup,
  terminateGroup,
  unregisterGroup,
} from './process-groups.js';
import type { HandlerRun } from './types.js';

export interface RunHandlerOptions extends LaunchPlace {
  /** The payload (X2): written to stdin, then stdin is closed. Ignored for a legacy handler (C4). */
  stdin: string;
  /** Aborting kills the handler's group like a deadline does (session shutdown). */
  signal?: AbortSignal;
  /**
   * The host's deadline (X6), a `performance.now()` value: the handler's timer is the earlier of
   * its own timeout and this, and past it the handler is not started (a timeout, `deadlineCapped`).
   */
  deadline?: number;
}

/** setTimeout fires at once past this; longer timeouts are clamped (about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

type Failure = NonNullable<HandlerRun['failure']>;

/**
 * Runs one handler to completion. Never throws and never rejects for a handler fault: a blank
 * command, a launch failure, a timeout, a signal or an oversized output all become facts of the
 * returned HandlerRun, for reduction to interpret.
 */
export function runHandler(handler: SnapshotHandler, opts: RunHandlerOptions): Promise<HandlerRun> {
  const started = performance.now();
  const invalid = invalidCommand(handler);
  if (invalid !== null) {
    return Promise.resolve(
      neverRan(handler, started, { kind: 'invalid_command', message: invalid }),
    );
  }
  if (opts.signal?.aborted === true) {
    const failure: Failure = { kind: 'launch_failed', message: 'aborted before launch' };
    return Promise.resolve(neverRan(handler, started, failure));
  }
  if (opts.deadline !== undefined && started >= opts.deadline)
    return Promise.resolve({
      ...neverRan(handler, started, null),
      timedOut: true,
      deadlineCapped: 'not_started',
    });
  const command = commandLine(handler, opts.projectDir);
  const launch = launchOf(handler, opts, command);
  if (!launch.ok) {
    const failure: Failure = { kind: 'confinement_unavailable', message: launch.message };
    return Promise.resolve(neverRan(handler, started, failure));
  }
  const { file, args } = launch;
  prepareGroup();
  let child: ChildProcess;
  try {
    child = spawn(file, args, {
      cwd: opts.cwd,
      env: launch.env,
      // X4: a POSIX child becomes the leader of a new process group, so -pid reaches all of it.
      detached: !IS_WINDOWS,
      shell: IS_WINDOWS && handler.argv === null && handler.shell === undefined,
      // Z6: a confined run gets bwrap's status pipe as fd 3, and (Z4) nothing hookpm inherited.
      stdio: launch.cleanup === null ? 'pipe' : confinedStdio(launch.seccomp != null),
      windowsHide: true,
    });
  } catch (error) {
    launch.cleanup?.();
    // Synchronous refusals, such as a NUL byte in argv, the command or the environment.
    const failure = failedLaunch(file, opts.cwd, error, launch.cleanup !== null);
    return Promise.resolve(neverRan(handler, started, failure));
  }
  // At once: the watchdog must know the group before anything else can happen to this host.
  if (child.pid !== undefined) registerGroup(child.pid);
  const stdin = handler.legacyStdin !== null ? JSON.stringify(handler.legacyStdin) : opts.stdin;
  // A spawn that failed without throwing (ENOENT, EACCES, and X8's EMFILE, ENFILE, EAGAIN) has no
  // pid, and no bwrap status pipe to read (EMFILE, ENFILE: no pipes at all): its 'error' then
  // 'close' follow, and supervise reads them.
  const bwrap = launch.cleanup !== null;
  const bwrapStarted = bwrap && child.pid !== undefined;
  const confined = bwrapStarted ? watchSandboxStatus(child.stdio[3] as never) : null;
  if (bwrapStarted && launch.seccomp != null)
    writeSeccomp(child.stdio[4] as Writable | null, launch.seccomp);
  const run = supervise({ child, handler, opts, stdin, file, started, bwrap, confined });
  return launch.cleanup === null ? run : run.finally(launch.cleanup);
}

/** launchFailure; Z6: a bwrap that could not be started is looked for on PATH again next time. */
function failedLaunch(file: string, cwd: string, error: unknown, bwrap: boolean): Failure {
  const failure = launchFailure(file, cwd, error, bwrap);
  if (failure.kind === 'confinement_unavailable') forgetBwrap(file);
  return failure;
}

function neverRan(handler: SnapshotHandler, started: number, failure: Failure | null): HandlerRun {
  return {
    handler,
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    timedOut: false,
    failure,
    durationMs: Math.round(performance.now() - started),
  };
}

interface Supervised {
  child: ChildProcess;
  handler: SnapshotHandler;
  opts: RunHandlerOptions;
  stdin: string;
  file: string;
  started: number;
  /** Z4: `file` is bwrap, confining the handler. */
  bwrap: boolean;
  /**
   * Z6: for a confined run, whether bwrap reported the sandbox set up, given whether it exited with
   * a code of its own (watchSandboxStatus); null when unconfined or when bwrap did not start.
   */
  confined: ((exited: boolean) => boolean) | null;
}

/**
 * Feeds stdin, captures output under the X7 caps, enforces the X6 deadline and the abort signal,
 * and settles on 'close' (exit plus both pipes shut), or without waiting for pipes that a
 * process left behind may hold: a moment after the handler exits (letGoAfterExit), or after a kill.
 */
function supervise(s: Supervised): Promise<HandlerRun> {
  return new Promise((resolve) => {
    const { child, opts } = s;
    const pid = child.pid;
    const seen = observe(child);
    const state = {
      timedOut: false,
      capped: false,
      killing: false,
      settled: false,
      stopped: false,
    };
    let deadline: NodeJS.Timeout | undefined;
    let fallback: NodeJS.Timeout | undefined;
    let cancelLetGo = (): void => {};

    function settle(): void {
      if (state.settled) return;
      state.settled = true;
      clearTimeout(deadline);
      clearTimeout(fallback);
      cancelLetGo();
      opts.signal?.removeEventListener('abort', stop);
      // After a normal exit the group is left alone (a handler may detach a helper on purpose);
      // after a kill it stays registered until terminateGroup has sent SIGKILL.
      if (!state.killing && pid !== undefined) unregisterGroup(pid);
      let run = settledRun(s, seen, state.timedOut);
      if (state.timedOut && state.capped) run = { ...run, deadlineCapped: 'ended' };
      resolve(state.stopped ? { ...run, stopped: true } : run);
    }

    /** X6: SIGTERM to the group; after the grace, SIGKILL to the group and stop waiting for pipes. */
    function terminate(): void {
      if (state.killing || pid === undefined) return;
      state.killing = true;
      terminateGroup(child, pid, () => {
        if (!state.settled) fallback = abandonPipes(child, settle);
      });
    }

    /** B8: the host stops the dispatch; a handler that has not exited yet did not decide. */
    function stop(): void {
      if (state.settled) return;
      if (!seen.exited) state.stopped = true;
      terminate();
    }

    function expire(): void {
      if (state.settled) return;
      state.timedOut = true;
      terminate();
    }

    child.on('close', settle);
    if (pid === undefined) return; // the launch failed: 'error' then 'close' follow
    // A process the handler left holding its pipes is not waited for: they are let go and the run
    // settles on what the handler wrote, its group left alone as after any normal exit.
    cancelLetGo = letGoAfterExit(child, () => {
      if (!state.settled && !state.killing) fallback = abandonPipes(child, settle);
    });
    child.stdin?.end(s.stdin);
    const ms = timerMs(s.handler.timeoutSec, opts.deadline);
    state.capped = ms.capped;
    deadline = setTimeout(() => {
      // X6: timers run before the host reads pending I/O, so after a stall of the host (thousands
      // of spawns, a long synchronous task) the deadline could fire on a handler whose exit is
      // already waiting to be read. The check after that I/O counts only a handler still running;
      // one that has exited gets one more turn of the event loop, in which its pipes close.
      setImmediate(() => {
        if (seen.exited) setImmediate(expire);
        else expire();
      });
    }, ms.ms);
    opts.signal?.addEventListener('abort', stop, { once: true });
  });
}

/** What the runner has seen of a child: its output under the X7 caps, its exit, a launch error. */
interface Observed {
  out: OutputCapture;
  err: OutputCapture;
  exit: { code: number | null; signal: string | null };
  /** The 'exit' event was seen: the handler itself no longer runs. */
  exited: boolean;
  launchError: unknown;
}

/** Drains both pipes into their captures and records the exit and a failed launch. */
function observe(child: ChildProcess): Observed {
  const seen: Observed = {
    out: createOutputCapture(),
    err: createOutputCapture(),
    exit: { code: null, signal: null },
    exited: false,
    launchError: null,
  };
  const launched = child.pid !== undefined;
  const ignore = (): void => {};
  child.stdin?.on('error', ignore); // EPIPE: the handler need not read its stdin
  child.stdout?.on('error', ignore).on('data', (chunk: Buffer) => seen.out.push(chunk));
  child.stderr?.on('error', ignore).on('data', (chunk: Buffer) => seen.err.push(chunk));
  child.on('error', (error) => {
    if (!launched) seen.launchError = error; // later errors are failed kills: the deadline covers them
  });
  child.on('exit', (code, signal) => {
    seen.exit = { code, signal };
    seen.exited = true;
  });
  return seen;
}

/**
 * X6: the handler's timer from now, its timeout or the host's deadline when that comes first
 * (`capped`), clamped to what a timer can hold.
 */
function timerMs(
  timeoutSec: number,
  hostDeadline: number | undefined,
): { ms: number; capped: boolean } {
  const own = Math.min(timeoutSec * 1000, MAX_TIMER_MS);
  const left =
    hostDeadline === undefined ? Infinity : Math.max(0, hostDeadline - performance.now());
  return left < own ? { ms: left, capped: true } : { ms: own, capped: false };
}

/**
 * X6, once SIGKILL is sent: stops waiting for pipes that a surviving grandchild may hold open.
 * Destroying them lets 'close' follow; `settle` runs anyway if it has not within KILL_GRACE_MS.
 */
function abandonPipes(child: ChildProcess, settle: () => void): NodeJS.Timeout {
  for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
  return setTimeout(settle, KILL_GRACE_MS);
}

/** The HandlerRun of a spawned child, from what was observed up to settling. */
function settledRun(s: Supervised, seen: Observed, timedOut: boolean): HandlerRun {
  const stdout = seen.out.finish();
  const stderr = seen.err.finish();
  let failure: Failure | null =
    seen.launchError === null ? null : failedLaunch(s.file, s.opts.cwd, seen.launchError, s.bwrap);
  // Z6: a sandbox never reported set up is a confinement failure, also when bwrap hung until the
  // deadline: never a timeout, which would let the call through.
  const exited = !timedOut && seen.exit.code !== null;
  if (failure === null && s.confined !== null && !s.confined(exited))
    failure = { kind: 'confinement_unavailable', message: sandboxFailure(stderr.text, timedOut) };
  return {
    handler: s.handler,
    exitCode: timedOut || failure !== null ? null : seen.exit.code,
    signal: failure !== null ? null : seen.exit.signal,
    stdout: stdout.text,
    stderr: stderr.text,
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    timedOut,
    failure,
    durationMs: Math.round(performance.now() - s.started),
  };
}
