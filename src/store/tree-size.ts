import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { HookpmError } from '../errors.js';
import { readingUserFile } from '../io/fs-error.js';
import { isInside } from '../text/path-inside.js';
import { TREE_LIMITS, type TarballLimits } from './tar/tarball-rules.js';

/** What a plugin tree holds, counted as `hookpm pack` would pack it. */
export interface TreeSize {
  files: number;
  bytes: number;
}

/** Version-control metadata is never part of a plugin (copy-tree.ts, pack-files.ts). */
const SKIPPED_NAMES: ReadonlySet<string> = new Set(['.git']);

/**
 * Measures the plugin tree `root` (regular files, and symlinks by what they name) against `limits`
 * without reading any file: E_ARCHIVE_TOO_LARGE naming `shown` and the limit at the first file,
 * byte or level past one. Used before a marketplace entry's tree is copied and by `hookpm
 * validate`, so `registry add`, `validate` and `install` refuse it with one message
 * (docs/design/decisions.md#plugins-and-marketplaces). Links are not checked here (copy-tree.ts
 * refuses escaping ones), but one that resolves outside `root` is never followed: nothing outside
 * the tree is listed or named. A link to a directory that contains it ends at the depth limit, and
 * every entry visited (a file, a directory, a link, each time a link leads to it) counts against
 * `maxEntries`, as copy-tree.ts counts them, so links fanning out to the same directories end
 * there too instead of walking for ever.
 */
export async function measureTree(
  root: string,
  shown: string,
  limits: TarballLimits = TREE_LIMITS,
): Promise<TreeSize> {
  const size: TreeSize = { files: 0, bytes: 0 };
  const realRoot = await realpath(root);
  await walk({ size, limits, shown, realRoot, visited: 0 }, realRoot, '');
  return size;
}

interface Walk {
  size: TreeSize;
  limits: TarballLimits;
  shown: string;
  realRoot: string;
  /** Entries read so far, whatever they are. */
  visited: number;
}

async function walk(run: Walk, dir: string, rel: string): Promise<void> {
  if (rel.split('/').length > run.limits.maxDepth)
    throw overLimit(run, `${rel} is more than ${run.limits.maxDepth} directories deep`);
  for (const name of await readingUserFile(dir, () => readdir(dir))) {
    if (SKIPPED_NAMES.has(name)) continue;
    const full = join(dir, name);
    const path = rel === '' ? name : `${rel}/${name}`;
    run.visited += 1;
    let info = await readingUserFile(full, () => lstat(full));
    if (info.isSymbolicLink()) {
      const real = await realpath(full).catch(() => null);
      if (real === null || !isInside(run.realRoot, real)) continue;
      const target = await stat(real).catch(() => null);
      if (target === null) continue;
      info = target;
    }
    if (info.isFile()) count(run, path, info.size);
    else if (run.visited > run.limits.maxEntries)
      throw overLimit(run, `it holds more than ${run.limits.maxEntries} entries`);
    else if (info.isDirectory()) await walk(run, full, path);
  }
}

function count(run: Walk, path: string, bytes: number): void {
  const { limits, size } = run;
  size.files += 1;
  size.bytes += bytes;
  if (size.files > limits.maxEntries)
    throw overLimit(run, `it holds more than ${limits.maxEntries} files`);
  if (bytes > limits.maxFileBytes)
    throw overLimit(run, `${path} is ${bytes} bytes (limit ${limits.maxFileBytes} a file)`);
  if (size.bytes > limits.maxTotalBytes)
    throw overLimit(run, `it holds more than ${limits.maxTotalBytes} bytes in all`);
}

function overLimit(run: Walk, why: string): HookpmError {
  const { maxEntries, maxFileBytes, maxTotalBytes } = run.limits;
  const mib = (bytes: number): string => `${bytes / (1024 * 1024)} MiB`;
  return new HookpmError(
    'E_ARCHIVE_TOO_LARGE',
    `the plugin directory ${run.shown} is over a size limit: ${why}`,
    {
      file: run.shown,
      hint: `A plugin tree is limited to ${maxEntries} files, ${mib(maxFileBytes)} a file and ${mib(maxTotalBytes)} in all, ${run.limits.maxDepth} directories deep; leave build output and caches out of it.`,
    },
  );
}
