import { rmSync } from 'node:fs';

/**
 * Temporary paths this process created and has not finished with (a download's `.part` file, a
 * staging directory): the ones an interrupted command removes before it exits, so Ctrl+C during a
 * download leaves no temporary file behind. A path is tracked from its creation until it is
 * renamed or removed; removing one that is already gone is harmless.
 */
const temporaries = new Set<string>();

/** Tracks `path`; the function returned stops tracking it. */
export function trackTemporary(path: string): () => void {
  temporaries.add(path);
  return () => {
    temporaries.delete(path);
  };
}

/** Removes every tracked path, synchronously (it runs in a signal handler, before exit). */
export function removeTemporaries(): void {
  for (const path of temporaries) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Nothing more can be done on the way out; collection removes it later.
    }
  }
  temporaries.clear();
}
