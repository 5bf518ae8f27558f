import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { makeTempDir, removeDir } from './hook-fixtures.js';

/** One real directory for a whole test file; `dir` is set before the first test. */
export interface TempDir {
  dir: string;
}

/** Registers the hooks that make `hookpm-<label>-...` before all tests and remove it after. */
export function useTempDir(label: string): TempDir {
  const tmp: TempDir = { dir: '' };
  beforeAll(() => {
    tmp.dir = makeTempDir(label);
  });
  afterAll(() => removeDir(tmp.dir));
  return tmp;
}

/**
 * Registers the hook that removes, after each test, the directories the returned function made:
 * each call makes a fresh `<prefix>...` directory under the system temp directory.
 */
export function useTempDirs(prefix: string): () => Promise<string> {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}
