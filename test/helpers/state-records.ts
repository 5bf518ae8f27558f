import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { installDir } from '../../src/store/layout.js';
import { lazyEntriesOf } from '../../src/store/state/lazy-records.js';
import type { PluginRecord, State } from '../../src/store/state/state-schema.js';
import type { StorePaths } from '../../src/store/store-paths.js';

export { makePlugin } from '../fixtures/store/plugin-record.mjs';

/** A state holding `plugins`. */
export function makeState(plugins: PluginRecord[]): State {
  return { version: 1, registries: {}, plugins: Object.fromEntries(plugins.map((p) => [p.id, p])) };
}

/** An installed tree of `id` at `version` in the store at `paths`, holding one file; its path. */
export async function installedTree(
  paths: StorePaths,
  id: string,
  version: string,
  integrity = `sha512-${Buffer.alloc(64, 0xab).toString('base64')}`,
): Promise<string> {
  const dir = installDir(paths, { id, version, integrity });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'plugin.json'), '{}');
  return dir;
}

/**
 * How many entries of `state` were read or set (parsed from its bytes, when nothing was set); all
 * of them for a state read whole (registry.md S42).
 */
export function parsedEntries(state: State): number {
  const count = (record: Record<string, unknown> | undefined): number => {
    if (record === undefined) return 0;
    return lazyEntriesOf(record)?.values.size ?? Object.keys(record).length;
  };
  return count(state.plugins) + count(state.knownIntegrity);
}
