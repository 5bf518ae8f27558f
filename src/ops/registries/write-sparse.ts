import { mkdir, readdir, rmdir, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { HookpmError } from '../../errors.js';
import { anyDurableTempWriter, writeFileDurable } from '../../io/durable-write.js';
import { readRegularText } from '../../io/read-regular-file.js';
import { INDEX_MAX_BYTES } from '../../registry/http/fetch-options.js';
import type { RegistryIndex } from '../../registry/indexes/index-schema.js';
import { ROOT_FILE, shardOf } from '../../registry/sparse/sparse-format.js';
import { isValidPluginName } from '../../plugin/name.js';
import {
  PLUGINS_DIR,
  SEARCH_DIR,
  sparseDocuments,
} from '../../registry/sparse/sparse-documents.js';

export interface SparseWriteResult {
  /** Files (relative to the registry directory) whose bytes changed, or that were new. */
  written: string[];
  /** Files kept as they were: their bytes are what this build would write. */
  unchanged: number;
  /** Plugin documents and search shards of plugins no longer built. */
  removed: string[];
}

/**
 * The files of the sparse layout of `index` (sparseDocuments), each within the cap a client reads a
 * document under (registry.md N1, N11). A larger one (a plugin with a description of megabytes) is
 * E_REGISTRY_TOO_LARGE naming it, thrown before the build writes anything: written, clients would
 * refuse that plugin, and the search page holding it would end the search of the whole registry.
 */
export function sparseLayoutOf(index: RegistryIndex): Map<string, string> {
  const files = sparseDocuments(index);
  for (const [path, body] of files) {
    const bytes = Buffer.byteLength(body);
    if (bytes <= INDEX_MAX_BYTES) continue;
    const plugin = /^plugins\/[^/]+\/(.+)\.json$/.exec(path)?.[1];
    throw new HookpmError(
      'E_REGISTRY_TOO_LARGE',
      `the registry document ${path}${plugin === undefined ? '' : ` of the plugin ${plugin}`} would be ${bytes} bytes, over the ${INDEX_MAX_BYTES} bytes a client reads`,
      {
        ...(plugin === undefined ? {} : { plugin }),
        hint: "Shorten the plugin's description and keywords (every client reads its document whole), then build again.",
      },
    );
  }
  return files;
}

/**
 * Writes the sparse layout `files` (sparseLayoutOf) into `outDir` (registry.md N9): incrementally,
 * so a file whose bytes would not change is not touched (its mtime, and so `registry serve`'s ETag,
 * stay), and in an order a reader can rely on: plugin documents and search shards first, then the
 * search manifest, the root document last, then stale documents are removed.
 */
export async function writeSparseLayout(
  outDir: string,
  files: ReadonlyMap<string, string>,
): Promise<SparseWriteResult> {
  const result: SparseWriteResult = { written: [], unchanged: 0, removed: [] };
  const made = new Set<string>();
  for (const [path, body] of files) {
    const file = join(outDir, path);
    const old = readOld(file);
    if (old === body) {
      result.unchanged += 1;
      continue;
    }
    const dir = dirname(file);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true });
      made.add(dir);
    }
    // The registry directory is the user's: a file that cannot be written there is E_IO naming it.
    await writeFileDurable(file, body, { owner: 'user' });
    result.written.push(path);
  }
  for (const top of [PLUGINS_DIR, SEARCH_DIR])
    result.removed.push(...(await removeOthers(outDir, top, files)));
  if (!files.has(ROOT_FILE)) throw new Error('Assertion failed: a sparse layout without its root');
  return result;
}

/**
 * A document's bytes as an earlier build left them, or null: for a missing file, and for anything
 * but a regular file of at most a document's cap (a FIFO, a device, a symlink: registry.md D7),
 * which is never read and is replaced like a changed file.
 */
function readOld(file: string): string | null {
  try {
    return readRegularText(file, { maxBytes: INDEX_MAX_BYTES });
  } catch {
    return null;
  }
}

/** A search page a build writes: `search/<shard key>.json`, or `-<n>.json` for a later page. */
const SEARCH_PAGE = /^search\/[a-z0-9_]{2}(?:-\d+)?\.json$/;
/** A plugin document's folder a build makes: `plugins/<shard key>`. */
const SHARD_DIR = /^plugins\/[a-z0-9_]{2}$/;

/**
 * Whether `path` (relative to the registry directory) has the shape of a file a build writes under
 * plugins/ or search/ (sparseDocuments): `plugins/<shard>/<name>.json` for a valid plugin name in
 * its own shard, or a search page. No other file was written by a build, so none is removed.
 */
function isBuildFile(path: string): boolean {
  if (SEARCH_PAGE.test(path)) return true;
  const match = /^plugins\/([^/]+)\/([^/]+)\.json$/.exec(path);
  const [, shard, name] = match ?? [];
  return isValidPluginName(name) && shardOf(name) === shard;
}

/**
 * Removes the files under `outDir/top` that a build writes (isBuildFile) and `keep` does not name:
 * those of plugins no longer built, and the temporary files of a build killed midway (D2's
 * `.<name>.tmp-<pid>-<hex>`: the build lock is held, so no running build owns one); then the shard
 * folders left empty. A file or folder a build does not make (a README, a folder of the user's)
 * is left as it is.
 */
async function removeOthers(
  outDir: string,
  top: string,
  keep: ReadonlyMap<string, string>,
): Promise<string[]> {
  const removed: string[] = [];
  const walk = async (rel: string, depth: number): Promise<void> => {
    const entries = await readdir(join(outDir, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = `${rel}${entry.name}`;
      if (entry.isDirectory() && depth > 0 && SHARD_DIR.test(path)) {
        await walk(`${path}/`, depth - 1);
        await rmdir(join(outDir, path)).catch(() => undefined);
      } else if (entry.isFile() && isBuildFile(path) && !keep.has(path)) {
        await unlink(join(outDir, path));
        removed.push(path);
      } else if (entry.isFile() && anyDurableTempWriter(entry.name) !== null) {
        await unlink(join(outDir, path)).catch(() => undefined);
      }
    }
  };
  await walk(top, 1);
  return removed.sort();
}
