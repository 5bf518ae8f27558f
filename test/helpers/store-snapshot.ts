import { createHash } from 'node:crypto';
import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StorePaths } from '../../src/store/store-paths.js';

/**
 * security.md invariant: the state file and every installed tree (and the plugin data directories)
 * as a map of relative path -> `<kind>:<mode>:<sha256>`, to compare before and after a failure.
 * The lock and the staging area are left out: leftovers may sit there (D4).
 */
export async function hashStore(paths: StorePaths): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  await walk(paths.data, '', out);
  return out;
}

const SKIPPED = new Set(['.staging', '.lock']);

async function walk(root: string, rel: string, out: Record<string, string>): Promise<void> {
  let names: string[];
  try {
    names = await readdir(join(root, rel));
  } catch {
    return;
  }
  for (const name of names.sort()) {
    if (
      rel === '' &&
      (SKIPPED.has(name) || name.startsWith('.lock') || name.startsWith('state.json.corrupt'))
    )
      continue;
    const path = rel === '' ? name : `${rel}/${name}`;
    const full = join(root, path);
    const info = await lstat(full);
    const mode = (info.mode & 0o7777).toString(8);
    if (info.isDirectory()) {
      out[path] = `dir:${mode}`;
      await walk(root, path, out);
    } else if (info.isSymbolicLink()) out[path] = `link:${await readlink(full)}`;
    else
      out[path] = `file:${mode}:${createHash('sha256')
        .update(await readFile(full))
        .digest('hex')}`;
  }
}

/**
 * security.md invariant, for the commands a test runs through the binary: the sha256 of the state
 * file under `home` (a bin workspace's HOME, whose store is `<home>/hookpm`), or `none` when there
 * is no state file yet. Equal before and after a refusal: nothing was written.
 */
export function stateFileHash(home: string): string {
  try {
    return createHash('sha256')
      .update(readFileSync(join(home, 'hookpm', 'data', 'state.json')))
      .digest('hex');
  } catch {
    return 'none';
  }
}
