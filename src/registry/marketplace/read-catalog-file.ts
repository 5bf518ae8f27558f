import { statSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG_FILES } from './catalog-files.js';

/**
 * The catalog file of a marketplace root (CATALOG_FILES order), or null when it holds none. A
 * FIFO, a device or a socket at a catalog's path is that catalog too (stat never opens it), so the
 * reader refuses it by its name (read-regular-file.ts) instead of looking for another file.
 */
export function findCatalogFile(root: string): string | null {
  for (const relative of CATALOG_FILES) {
    const file = join(root, ...relative.split('/'));
    try {
      if (!statSync(file).isDirectory()) return file;
    } catch {
      // absent or unreadable: the next one
    }
  }
  return null;
}
