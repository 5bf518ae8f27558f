/**
 * The handler runner (engine.md section 7, X2-X8): one handler, one process group, one HandlerRun.
 *
 * Built on node:child_process rather than execa 9: execa's per-spawn machinery (stream wrappers,
 * promises per stdio, result assembly) measured 30-80% slower than a bare spawn for a `true`
 * handler, against a budget of 15% (issue 3 bench), and its settle-on-pipe-EOF would need undoing
 * anyway to settle while a grandchild holds the pipes (X6). What execa would add (no shell, no
 * string splitting, `detached`) is one spawn option each here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { SnapshotHandler } from '../hooks/types.js';
import { argvVariables, handlerEnvironment, substituteArgv } from './environment.js';
import { createOutputCapture } from './output-capture.js';
import { registerGroup, signalGroup, unregisterGroup } from './process-groups.js';
import type { HandlerRun } from './types.js';

export interface RunHandlerOptions {
  /** The payload (X2): written to stdin, then stdin is closed. Ignored for a legacy handler (C4). */
  stdin: string;
  /** The invocation's working directory (X4). */
  cwd: string;
  /** The project root, given to every handler as CLAUDE_PROJECT_DIR (X5). */
  projectDir: string;
  /** The parent environment; secrets are removed before the handler sees it (X5). */
  env: Readonly<Record<string, string | undefined>>;
  /** Aborting kills the handler's group like a deadline does (session shutdown). */
  signal?: AbortSignal;
}

/** X6: time between SIGTERM and SIGKILL to the group, and the most the runner waits after SIGKILL. */
export const KILL_GRACE_MS = 500;
/** setTimeout fires at once past this; longer timeouts are clamped (about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;
const IS_WINDOWS = process.platform === 'win32';

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
  const { file, args } = commandLine(handler, opts.projectDir);
  let child: ChildProcess;
  try {
    child = spawn(file, args, {
      cwd: opts.cwd,
      env: handlerEnvironment(opts.env, handler, opts.projectDir),
      // X4: a POSIX child becomes the leader of a new process group, so -pid reaches all of it.
      detached: !IS_WINDOWS,
      shell: IS_WINDOWS && handler.argv === null,
      stdio: 'pipe',
      windowsHide: true,
    });
  } catch (error) {
    // Synchronous refusals, such as a NUL byte in argv, the command or the environment.
    const failure: Failure = {
      kind: 'launch_failed',
      message: launchMessage(file, opts.cwd, error),
    };
    return Promise.resolve(neverRan(handler, started, failure));
  }
  const stdin = handler.legacyStdin !== null ? JSON.stringify(handler.legacyStdin) : opts.stdin;
  return supervise({ child, handler, opts, stdin, file, started });
}

/** X8: the reason a handler cannot be launched at all, or null. */
function invalidCommand(handler: SnapshotHandler): string | null {
  if (handler.argv !== null) {
    if (handler.argv.length === 0) return 'argv is empty';
    if ((handler.argv[0] ?? '').trim() === '') return 'the program (argv[0]) is blank';
    return null;
  }
  return handler.command.trim() === '' ? 'the command is blank' : null;
}

/** X3: argv runs directly with `${VAR}` substituted; a command runs under `/bin/sh -c`. */
function commandLine(
  handler: SnapshotHandler,
  projectDir: string,
): { file: string; args: string[] } {
  if (handler.argv !== null) {
    const [file = '', ...args] = substituteArgv(handler.argv, argvVariables(handler, projectDir));
    return { file, args };
  }
  // On Windows, `shell: true` hands the command to the platform shell (cmd.exe) instead.
  return IS_WINDOWS
    ? { file: handler.command, args: [] }
    : { file: '/bin/sh', args: ['-c', handler.command] };
}

function launchMessage(file: string, cwd: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT' && !existsSync(cwd)) return `the working directory ${cwd} does not exist`;
  if (code === 'ENOENT') return `${file}: program not found`;
  if (code === 'EACCES') return `${file}: permission denied (not executable?)`;
  return `${file}: ${error instanceof Error ? error.message : String(error)}`;
}

function neverRan(handler: SnapshotHandler, started: number, failure: Failure): HandlerRun {
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
}

/**
 * Feeds stdin, captures output under the X7 caps, enforces the X6 deadline and the abort signal,
 * and settles on 'close' (exit plus both pipes shut) or, after a kill, without waiting for pipes
 * that a surviving grandchild may hold.
 */
function supervise({
  child,
  handler,
  opts,
  stdin,
  file,
  started,
}: Supervised): Promise<HandlerRun> {
  return new Promise((resolve) => {
    const pid = child.pid;
    const out = createOutputCapture();
    const err = createOutputCapture();
    let exit: { code: number | null; signal: string | null } = { code: null, signal: null };
    let launchError: unknown = null;
    let timedOut = false;
    let killing = false;
    let settled = false;
    let deadline: NodeJS.Timeout | undefined;
    let fallback: NodeJS.Timeout | undefined;

    const ignore = (): void => {};
    child.stdin?.on('error', ignore); // EPIPE: the handler need not read its stdin
    child.stdout?.on('error', ignore).on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('error', ignore).on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      if (pid === undefined) launchError = error; // later errors are failed kills: the deadline covers them
    });
    child.on('exit', (code, signal) => (exit = { code, signal }));
    child.on('close', settle);
    if (pid === undefined) return; // the launch failed: 'error' then 'close' follow
    registerGroup(pid);
    child.stdin?.end(stdin);

    const timeoutMs = Math.min(handler.timeoutSec * 1000, MAX_TIMER_MS);
    deadline = setTimeout(() => {
      timedOut = true;
      terminate();
    }, timeoutMs);
    opts.signal?.addEventListener('abort', terminate, { once: true });

    /** X6: SIGTERM to the group; after the grace, SIGKILL to the group and stop waiting for pipes. */
    function terminate(): void {
      if (killing || pid === undefined) return;
      killing = true;
      killGroup(child, pid, 'SIGTERM');
      setTimeout(() => {
        killGroup(child, pid, 'SIGKILL');
        unregisterGroup(pid);
        if (settled) return;
        for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
        fallback = setTimeout(settle, KILL_GRACE_MS);
      }, KILL_GRACE_MS);
    }

    function settle(): void {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(fallback);
      opts.signal?.removeEventListener('abort', terminate);
      // After a normal exit the group is left alone (a handler may detach a helper on purpose);
      // after a kill it stays registered until the SIGKILL above has been sent.
      if (!killing && pid !== undefined) unregisterGroup(pid);
      const stdout = out.finish();
      const stderr = err.finish();
      const failure: Failure | null =
        launchError === null
          ? null
          : { kind: 'launch_failed', message: launchMessage(file, opts.cwd, launchError) };
      resolve({
        handler,
        exitCode: timedOut || failure !== null ? null : exit.code,
        signal: failure !== null ? null : exit.signal,
        stdout: stdout.text,
        stderr: stderr.text,
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
        timedOut,
        failure,
        durationMs: Math.round(performance.now() - started),
      });
    }
  });
}

function killGroup(child: ChildProcess, pid: number, signal: NodeJS.Signals): void {
  if (IS_WINDOWS || !signalGroup(pid, signal)) child.kill(signal);
}
