/**
 * Child processes in tests run the real modules: those `npm run build` compiled from src/ into
 * dist/ (the ones bin/hookpm.js runs), compiled again first when src/ is newer (ensureBuilt),
 * rather than a copy transpiled for each test file (about 12 s of CPU each).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { ensureBuilt } from './built-bin.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface CompiledSrc {
  /** The directory holding the compiled src/ tree (`<dir>/io/lock.js`, ...). */
  dir: string;
  /** Nothing to remove: dist/ is the build's. */
  cleanup: () => Promise<void>;
}

/** Builds dist/ if src/ is newer (tsc, up to a minute on a busy machine: give the hook 120 s). */
export async function compileSrc(): Promise<CompiledSrc> {
  ensureBuilt();
  return { dir: join(repo, 'dist'), cleanup: async () => {} };
}

/**
 * For a test file whose child processes run the compiled sources: before its tests, compiles
 * them and makes a temporary directory (`dir`, the children's HOME and HOOKPM_HOME, in `env`);
 * after them, removes both. The fields are set once the tests run.
 */
export function compiledSandbox(prefix: string): { dir: string; env: Record<string, string> } {
  const sandbox = { dir: '', env: {} as Record<string, string> };
  let compiled: CompiledSrc | undefined;
  beforeAll(async () => {
    compiled = await compileSrc();
    sandbox.dir = await mkdtemp(join(tmpdir(), prefix));
    sandbox.env = {
      ...(process.env as Record<string, string>),
      HOME: sandbox.dir,
      HOOKPM_HOME: sandbox.dir,
      HOOKPM_TEST_SRC: compiled.dir,
    };
  }, 120_000);
  afterAll(async () => {
    await compiled?.cleanup();
    if (sandbox.dir !== '') await rm(sandbox.dir, { recursive: true, force: true });
  });
  return sandbox;
}
