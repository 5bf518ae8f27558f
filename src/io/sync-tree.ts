import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Flushes every file and directory of `root` to disk (fsync), so that a tree is complete on disk
 * before anything durable (a rename into place, then the state file) refers to it: after a power
 * loss the state never names a tree whose files are empty. Files are flushed concurrently.
 */
export async function syncTree(root: string): Promise<void> {
  const entries = await readdir(root, { withFileTypes: true });
  await Promise.all(
    entries.map((entry) => {
      const path = join(root, entry.name);
      if (entry.isDirectory()) return syncTree(path);
      return entry.isFile() ? syncPath(path) : Promise.resolve();
    }),
  );
  await syncPath(root);
}

/** fsync of one file or directory, opened read-only. */
export async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
