import { mkdtemp } from 'node:fs/promises';
import { expect } from 'vitest';
import { resolveStorePaths } from '../../src/store/paths.js';
import { runBin } from './built-bin.js';
import { hashStore } from './store-snapshot.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { marketplaceCatalog } from './claude-plugin.js';
import { writeFiles } from './git-repo.js';

/** A marketplace directory on disk, in a temporary root that is also the commands' HOME. */
export interface LocalMarketplace {
  /** The temporary root: HOME, and the parent of `market` and of the store (`home/`). */
  root: string;
  /** The marketplace directory, `registry add`'s location. */
  market: string;
  /** What the commands run with: HOME is `root`, HOOKPM_HOME `root/home`. */
  env: Record<string, string>;
}

/**
 * Writes `.claude-plugin/marketplace.json` listing `plugins` (marketplaceCatalog) and `files`
 * (paths relative to the marketplace) into a fresh temporary directory; the caller removes `root`.
 */
export async function localMarketplace(
  prefix: string,
  plugins: Array<Record<string, unknown>>,
  files: Record<string, string> = {},
): Promise<LocalMarketplace> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const market = join(root, 'market');
  await writeFiles(market, {
    '.claude-plugin/marketplace.json': JSON.stringify(marketplaceCatalog('Market', plugins)),
    ...files,
  });
  const env = {
    ...(process.env as Record<string, string>),
    HOME: root,
    HOOKPM_HOME: join(root, 'home'),
  };
  return { root, market, env };
}

/**
 * `hookpm install <name>@mkt --yes` of an entry `m` refuses: checks that it exits 1 and leaves the
 * store byte-identical (security.md), and returns the run for the caller's checks of its message.
 */
export async function refusedInstall(
  m: Pick<LocalMarketplace, 'root' | 'env'>,
  name: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const paths = resolveStorePaths(m.env);
  const before = await hashStore(paths);
  const run = await runBin(['install', `${name}@mkt`, '--yes'], { env: m.env, cwd: m.root });
  expect(run.code).toBe(1);
  expect(await hashStore(paths)).toEqual(before);
  return run;
}
