import type { ListKey } from '../../src/ops/plugins/list-cache.js';
import { writeKeptDocument } from '../../src/ops/plugins/list-cache.js';
import type { StorePaths } from '../../src/store/store-paths.js';

/** The document `list --json` kept under `key` (registry.md S33), as it prints it, or null. */
export function keptDocument(paths: StorePaths, key: ListKey): string | null {
  const out: Buffer[] = [];
  if (!writeKeptDocument(paths, key, (bytes) => out.push(Buffer.from(bytes)))) return null;
  return Buffer.concat(out).toString('utf8');
}
