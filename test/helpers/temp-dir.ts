import { afterAll, beforeAll } from 'vitest';
import { makeTempDir, removeDir } from '../ops/dispatch-helpers.js';

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
