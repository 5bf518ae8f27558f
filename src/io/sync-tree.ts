import { closeSync, fsyncSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Flushes every file and directory of `root` to disk (fsync), so that a tree is complete on disk
 * before anything durable (a rename into place, then the state file) refers to it: after a power
 * loss the state never names a tree whose files are empty. The calls are synchronous, one after
 * another: a plugin tree is small, and a thread-pool round trip per call costs more than the
 * flushes it would overlap (bench/install.bench.mjs).
 */
export async function syncTree(root: string): Promise<void> {
  syncTreeNow(root);
}

function syncTreeNow(root: string): void {
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) syncTreeNow(path);
    else if (entry.isFile()) syncPathNow(path);
  }
  syncPathNow(root);
}

/** fsync of one file or directory, opened read-only. */
export async function syncPath(path: string): Promise<void> {
  syncPathNow(path);
}

function syncPathNow(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
