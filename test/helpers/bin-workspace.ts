import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { makeTempDir, removeDir } from './hook-fixtures.js';
import { ensureBuilt, runBin, type BinRun } from './built-bin.js';

/**
 * One real directory per test file, and in it a fresh HOME (`home<n>`) and git repository
 * (`repo<n>`, a `.git` folder) per test, for running the built `bin/hookpm`. The fields change
 * before each test: read them inside tests and hooks, never at module load.
 */
export interface BinWorkspace {
  dir: string;
  home: string;
  repo: string;
  /** The number of the current test in this file, from 1. */
  n: number;
  /** What the child gets: PATH, HOME, HOOKPM_HOME under HOME, NO_COLOR, then `extra`. */
  env: (extra?: Record<string, string>) => Record<string, string>;
  /** Runs `hookpm ...args` in the repository with `env()`, unless told another cwd or env. */
  hookpm: (args: string[], opts?: BinOptions) => Promise<BinRun>;
}

export interface BinOptions {
  stdin?: string | Buffer;
  env?: Record<string, string>;
  cwd?: string;
}

/** The environment of a child hookpm with HOME at `home` (no colour, nothing else inherited). */
export function binEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    HOOKPM_HOME: join(home, 'hookpm'),
    NO_COLOR: '1',
    ...extra,
  };
}

/**
 * Registers the hooks that build dist/ once, make the file's directory (removed after all) and,
 * before each test, the next HOME and repository; `homeDir` (such as `.claude`) is made in HOME.
 */
export function useBinWorkspace(label: string, homeDir = ''): BinWorkspace {
  const ws: BinWorkspace = {
    dir: '',
    home: '',
    repo: '',
    n: 0,
    env: (extra = {}) => binEnv(ws.home, extra),
    hookpm: (args, opts = {}) =>
      runBin(args, {
        cwd: opts.cwd ?? ws.repo,
        env: opts.env ?? ws.env(),
        ...(opts.stdin === undefined ? {} : { stdin: opts.stdin }),
      }),
  };
  beforeAll(() => {
    ensureBuilt();
    ws.dir = makeTempDir(label);
  });
  afterAll(() => removeDir(ws.dir));
  beforeEach(async () => {
    ws.n += 1;
    ws.home = join(ws.dir, `home${ws.n}`);
    ws.repo = join(ws.dir, `repo${ws.n}`);
    await mkdir(join(ws.repo, '.git'), { recursive: true });
    await mkdir(join(ws.home, homeDir), { recursive: true });
  });
  return ws;
}

/** One directory for a whole test file, HOME and working directory of the built hookpm. */
export interface BinHome {
  dir: string;
  /** binEnv of `dir`. */
  env: Record<string, string>;
}

/** Registers the hooks that build dist/ and make the file's directory (removed after all). */
export function useBinHome(label: string): BinHome {
  const home: BinHome = { dir: '', env: {} };
  beforeAll(() => {
    ensureBuilt();
    home.dir = makeTempDir(label);
    home.env = binEnv(home.dir);
  });
  afterAll(() => removeDir(home.dir));
  return home;
}
