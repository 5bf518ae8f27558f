import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { HookpmError } from '../errors.js';
import { CATALOG_FILES, catalogRootOf, isCatalogFileName } from './marketplace/catalog-files.js';
import { findCatalogFile } from './marketplace/read-catalog-file.js';
import { clip } from '../text/clip.js';
import { showTypedLocation } from './registry-location.js';
import { ROOT_FILE } from './sparse/sparse-format.js';

/** The files a path may name an index registry by: index.json, a sparse root (registry.md N6). */
const INDEX_FILES = ['index.json', ROOT_FILE];

/** What a local registry location holds (docs/reference/rules/registry.md#registry-kinds). */
export interface LocalRegistryKind {
  kind: 'index' | 'marketplace';
  /** The directory that holds `index.json`, or the marketplace root (above the catalog's folder). */
  dir: string;
}

/**
 * Looks at a local location: a directory holding `index.json` is an index registry (it wins over a
 * marketplace file beside it); one holding a catalog file (catalog-files.ts: Claude Code's, Codex's
 * or Cursor's) is a marketplace; one holding neither but a sparse layout's `registry.json`
 * (registry.md N6, read in that layout) is an index registry, so a marketplace repository with a
 * `registry.json` of some other tool's stays one. A path to an `index.json`, a `registry.json` or
 * a catalog file names its directory.
 * Anything else is E_NOT_FOUND naming what was looked for: `typed`, the location as the user
 * typed it when it was no URL (redacted, N5), else `path`.
 */
export async function readLocationKind(path: string, typed?: string): Promise<LocalRegistryKind> {
  const info = await stat(path).catch(() => null);
  if (info === null && typed !== undefined) {
    const shown = showTypedLocation(typed);
    throw new HookpmError(
      'E_NOT_FOUND',
      `the registry location ${JSON.stringify(shown)} is not a URL, and no file or directory of that path exists`,
      {
        location: shown,
        hint: `Give an https:// URL, an http:// URL on a loopback address, a file:// URL, an existing directory holding index.json or a marketplace catalog (${CATALOG_FILES.join(', ')}), a git repository or \`npm\`.`,
      },
    );
  }
  if (info === null) {
    throw new HookpmError('E_NOT_FOUND', `the registry location ${clip(path)} does not exist`, {
      file: path,
      hint: `Give an existing directory holding index.json or a marketplace catalog (${CATALOG_FILES.join(', ')}).`,
    });
  }
  if (info.isFile()) {
    if (INDEX_FILES.includes(basename(path))) return { kind: 'index', dir: dirname(path) };
    if (isCatalogFileName(path)) return { kind: 'marketplace', dir: catalogRootOf(path) };
  } else if (info.isDirectory()) {
    if (await isFile(join(path, 'index.json'))) return { kind: 'index', dir: path };
    if (findCatalogFile(path) !== null) return { kind: 'marketplace', dir: path };
    if (await isFile(join(path, ROOT_FILE))) return { kind: 'index', dir: path };
  }
  throw new HookpmError(
    'E_NOT_FOUND',
    `${path} holds neither index.json, registry.json nor a marketplace catalog (${CATALOG_FILES.join(', ')})`,
    {
      file: path,
      hint: 'Point at a registry directory (built with `hookpm registry build`) or a marketplace repository.',
    },
  );
}

async function isFile(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => null);
  return info !== null && info.isFile();
}
