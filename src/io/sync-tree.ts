import { closeSync, fsync, fsyncSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { quietly } from './fs-error.js';

/** Flushes in flight at once (each holds a file descriptor until it ends). */
const IN_FLIGHT = 32;

/**
 * Flushes every file and directory of `root` to disk (fsync), so that a tree is complete on disk
 * before anything durable (a rename into place, then the state file) refers to it: after a power
 * loss the state never names a tree whose files are empty. The tree is listed, and each entry
 * opened, synchronously; the flushes themselves run on the thread pool, so they start at once and
 * a caller that has other work (validating the tree it staged) does it meanwhile
 * (bench/install.bench.mjs). Rejects with the first failure.
 */
export function syncTree(root: string): Promise<void> {
  let paths: string[];
  try {
    paths = listTree(root);
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise((resolve, reject) => {
    let next = 0;
    let running = 0;
    let failed = false;
    const start = (): void => {
      while (!failed && running < IN_FLIGHT && next < paths.length) {
        let fd: number;
        try {
          fd = openSync(paths[next++] as string, 'r');
        } catch (error) {
          failed = true;
          reject(error);
          return;
        }
        running += 1;
        fsync(fd, (error) => {
          // Flushed or not, the descriptor is released; a flush error is reported below.
          quietly(() => closeSync(fd));
          running -= 1;
          if (error !== null && !failed) {
            failed = true;
            reject(error);
          }
          start();
        });
      }
      if (!failed && running === 0 && next === paths.length) resolve();
    };
    start();
  });
}

/** Every regular file and directory of `root`, `root` itself last. */
function listTree(root: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) found.push(...listTree(path));
    else if (entry.isFile()) found.push(path);
  }
  found.push(root);
  return found;
}

/** fsync of one file or directory, opened read-only. */
export async function syncPath(path: string): Promise<void> {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
