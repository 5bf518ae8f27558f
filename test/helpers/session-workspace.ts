/**
 * A throw-away workspace for session tests: a temporary HOME (user hooks under
 * `<home>/.deepagents/hooks.json`), HOOKPM_HOME below it, and a project directory with `.git`.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'vitest';
export { BIN, ensureBuilt } from './built-bin.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const HANDLERS = join(ROOT, 'test', 'fixtures', 'handlers');

export interface SessionWorkspace {
  dir: string;
  home: string;
  hookpmHome: string;
  repo: string;
  userHooksFile: string;
  /** The environment a hookpm child gets: PATH, HOME, HOOKPM_HOME, NO_COLOR. */
  env: Record<string, string>;
  writeUserHooks: (hooks: Record<string, unknown>) => Promise<void>;
  cleanup: () => Promise<void>;
}

export async function makeSessionWorkspace(): Promise<SessionWorkspace> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'hookpm-session-')));
  const home = join(dir, 'home');
  const repo = join(dir, 'repo');
  const hookpmHome = join(home, 'hookpm');
  const userHooksFile = join(home, '.deepagents', 'hooks.json');
  await mkdir(join(repo, '.git'), { recursive: true });
  await mkdir(join(home, '.deepagents'), { recursive: true });
  return {
    dir,
    home,
    hookpmHome,
    repo,
    userHooksFile,
    env: { PATH: process.env.PATH ?? '', HOME: home, HOOKPM_HOME: hookpmHome, NO_COLOR: '1' },
    writeUserHooks: (hooks) => writeFile(userHooksFile, JSON.stringify({ hooks }, null, 2)),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A hooks.json group list with one `command` handler and an optional matcher. */
export function group(command: string, matcher?: string, timeout?: number): unknown[] {
  const handler = { type: 'command', command, ...(timeout === undefined ? {} : { timeout }) };
  return [{ ...(matcher === undefined ? {} : { matcher }), hooks: [handler] }];
}

/** A handler that records its pid in `pidFile` and then sleeps 30 s as that same process. */
export function sleeperGroup(pidFile: string, matcher?: string): unknown[] {
  const handler = {
    type: 'command',
    command: `sh record-pid-and-sleep.sh ${pidFile}`,
    argv: ['/bin/sh', join(HANDLERS, 'record-pid-and-sleep.sh'), pidFile],
  };
  return [{ ...(matcher === undefined ? {} : { matcher }), hooks: [handler] }];
}

/**
 * Registers the hooks that make a fresh workspace before each test and remove it after; the
 * returned object takes each new workspace's fields. Hooks the caller registers later run after
 * the making, and (vitest runs after-hooks as a stack) before the removal.
 */
export function useSessionWorkspace(): SessionWorkspace {
  const ws = {} as SessionWorkspace;
  beforeEach(async () => {
    Object.assign(ws, await makeSessionWorkspace());
  });
  afterEach(() => ws.cleanup());
  return ws;
}
