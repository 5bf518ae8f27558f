import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SnapshotHandler } from '../../src/hooks/types.js';

/** Absolute path of a fixture script in test/fixtures/handlers. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/handlers/${name}`, import.meta.url));
}

/** A user handler for PreToolUse with a 10 s timeout, `over` applied. */
export function handlerOf(over: Partial<SnapshotHandler>): SnapshotHandler {
  return {
    id: 'PreToolUse:0:0',
    event: 'PreToolUse',
    groupIndex: 0,
    handlerIndex: 0,
    origin: 'user',
    plugin: null,
    source: 'test',
    matcher: null,
    if: null,
    command: '',
    argv: null,
    timeoutSec: 10,
    statusMessage: null,
    pluginEnv: {},
    legacyStdin: null,
    ...over,
  };
}

/** A handler that runs `argv` directly. */
export function argvHandler(argv: string[], over: Partial<SnapshotHandler> = {}): SnapshotHandler {
  return handlerOf({ command: argv.join(' '), argv, ...over });
}

/** A fresh real directory (realpath, so it compares equal to what `pwd` prints). */
export function makeTempDir(label: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `hookpm-${label}-`)));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Whether `pid` is a running process. A zombie counts as dead: it runs nothing, and in containers
 * whose init does not reap orphans, killed grandchildren stay zombies indefinitely.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false; // vanished between the two checks
  }
}

/** Polls until `check` returns true, failing after `ms`. */
export async function waitUntil(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The pid written to `file` by a fixture, once it is there. */
export async function readPid(file: string): Promise<number> {
  let pid = NaN;
  await waitUntil(
    () => {
      try {
        pid = Number(readFileSync(file, 'utf8').trim());
      } catch {
        return false;
      }
      return Number.isInteger(pid) && pid > 0;
    },
    5000,
    `a pid in ${file}`,
  );
  return pid;
}

/** The pid of the watchdog (engine/group-watchdog.ts) of host `hostPid`, found by its argv. */
export function watchdogOf(hostPid: number): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    if (
      argv.includes('hookpm-watchdog') &&
      argv.includes(String(hostPid)) &&
      isAlive(Number(entry))
    )
      return Number(entry);
  }
  return null;
}

/**
 * A pause before SIGKILLing a host whose handler has written its pid: on a busy machine the handler
 * may run before its host has the CPU back to record the group, the one instant in which a SIGKILL
 * beats the watchdog (engine/group-watchdog.ts).
 */
export function whileRunning(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 200));
}

/**
 * Once `host`'s handler has written its pid to `pidFile` and run a moment, sends `signal` to the
 * host; resolves with the host's exit code once the host is gone and, within `ms`, the handler too.
 * Call it right after spawning the host.
 */
export async function killHostWhileHandlerRuns(
  host: ChildProcess,
  pidFile: string,
  signal: NodeJS.Signals,
  ms = 2000,
): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => host.on('close', resolve));
  const handler = await readPid(pidFile);
  if (!isAlive(handler)) throw new Error(`handler ${handler} is not running`);
  await whileRunning();
  host.kill(signal);
  const code = await exited;
  await waitUntil(() => !isAlive(handler), ms, `handler ${handler} to die`);
  return code;
}
