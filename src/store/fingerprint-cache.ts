import { fingerprintTree } from './fingerprint.js';
import type { StorePaths } from './store-paths.js';

/** Q6 fingerprints of several trees (null: missing or unreadable). */
export async function fingerprintTreesCached(
  _paths: StorePaths,
  roots: readonly string[],
): Promise<Map<string, string | null>> {
  const found = await Promise.all(roots.map((root) => fingerprintTree(root).catch(() => null)));
  return new Map(roots.map((root, i) => [root, found[i] ?? null]));
}
