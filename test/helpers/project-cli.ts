import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { resolveStorePaths } from '../../src/store/paths.js';
import { runBin, type BinRun } from './built-bin.js';
import { hashStore } from './store-snapshot.js';
import type { TempHome } from './temp-home.js';

/** hookpm.lock as the project tests read it (docs/guides/projects.md). */
export type LockDoc = { plugins: Record<string, Record<string, string>> };

/** The built binary run inside one project by several homes (an author, a teammate). */
export interface ProjectCli {
  hookpm: (home: TempHome, args: string[], stdin?: string) => Promise<BinRun>;
  /** Runs and expects exit 0. */
  ok: (home: TempHome, ...args: string[]) => Promise<BinRun>;
  /** Runs and expects the error `code`, never E_INTERNAL. */
  refused: (home: TempHome, code: string, ...args: string[]) => Promise<BinRun>;
  /** The hashes of a home's store, to show a refusal changed nothing. */
  store: (home: TempHome) => Promise<Record<string, string>>;
  readLock: () => Promise<LockDoc>;
  /** The reason the installed plugins deny `rm -rf x` with, through `hookpm run`, or null. */
  denyReason: (home: TempHome) => Promise<string | null>;
}

/** `project()` is the project directory of the current test (read at each call). */
export function projectCli(project: () => string): ProjectCli {
  const hookpm: ProjectCli['hookpm'] = (home, args, stdin) =>
    runBin(args, { env: home.env, cwd: project(), ...(stdin === undefined ? {} : { stdin }) });
  return {
    hookpm,
    async ok(home, ...args) {
      const run = await hookpm(home, args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      return run;
    },
    async refused(home, code, ...args) {
      const run = await hookpm(home, args);
      expect(run.code, run.stdout).not.toBe(0);
      expect(run.stderr).toContain(`error[${code}]`);
      expect(run.stderr).not.toContain('E_INTERNAL');
      return run;
    },
    store: (home) => hashStore(resolveStorePaths({ HOOKPM_HOME: home.env.HOOKPM_HOME })),
    readLock: async () =>
      JSON.parse(await readFile(join(project(), 'hookpm.lock'), 'utf8')) as LockDoc,
    async denyReason(home) {
      const payload = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'rm -rf x' } });
      const run = await hookpm(home, ['run', 'PreToolUse', '--payload', '-', '--json'], payload);
      expect(run.code, run.stderr).toBe(0);
      const out = JSON.parse(run.stdout) as { permission: { reason: string } | null };
      return out.permission?.reason ?? null;
    },
  };
}
