import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary directory used as HOME and HOOKPM_HOME; `env` is what child processes get. */
export interface TempHome {
  dir: string;
  env: Record<string, string>;
  cleanup: () => Promise<void>;
}

export async function makeTempHome(prefix = 'hookpm-home-'): Promise<TempHome> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  // FORCE_COLOR (set by some CI systems) would colour the text output the tests read.
  const { FORCE_COLOR: _colour, ...inherited } = process.env as Record<string, string>;
  const env = {
    ...inherited,
    HOME: dir,
    HOOKPM_HOME: join(dir, 'hookpm'),
  };
  return { dir, env, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
