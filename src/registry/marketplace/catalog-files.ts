import { basename, dirname } from 'node:path';

/**
 * The catalog files a marketplace root may hold (docs/reference/rules/plugins.md#g10, #g13), in
 * the order they are looked for: Claude Code's `.claude-plugin/marketplace.json`, then Codex's
 * `.agents/plugins/marketplace.json` and `.agents/plugins/api_marketplace.json` (Deep Agents Code
 * reads the first of these after Claude Code's), then Cursor's `.cursor-plugin/marketplace.json`.
 * The first that is a regular file is the catalog; the others are never read.
 */
export const CATALOG_FILES = [
  '.claude-plugin/marketplace.json',
  '.agents/plugins/marketplace.json',
  '.agents/plugins/api_marketplace.json',
  '.cursor-plugin/marketplace.json',
];

/** The base names a catalog file may have (CATALOG_FILES), for a path given as the file itself. */
const CATALOG_NAMES = new Set(CATALOG_FILES.map((file) => file.slice(file.lastIndexOf('/') + 1)));

/**
 * Which format a catalog file is read in: Claude Code's, Codex's `.agents/plugins` one, or
 * Cursor's (Claude Code's entries, `owner` optional).
 */
export type CatalogLayout = 'claude' | 'agents' | 'cursor';

/** Whether a file given by path is named as a catalog (`marketplace.json`, `api_marketplace.json`). */
export function isCatalogFileName(file: string): boolean {
  return CATALOG_NAMES.has(basename(file));
}

/** The layout of a catalog file, by where it lies (a lone `marketplace.json` is Claude Code's). */
export function catalogLayoutOf(file: string): CatalogLayout {
  const parent = dirname(file);
  if (basename(parent) === 'plugins' && basename(dirname(parent)) === '.agents') return 'agents';
  return basename(parent) === '.cursor-plugin' ? 'cursor' : 'claude';
}

/**
 * The marketplace root of a catalog file, against which its relative sources resolve: the
 * directory holding `.claude-plugin/`, `.agents/` or `.cursor-plugin/`; for a lone
 * `marketplace.json` elsewhere, its own directory.
 */
export function catalogRootOf(file: string): string {
  const parent = dirname(file);
  if (catalogLayoutOf(file) === 'agents') return dirname(dirname(parent));
  const dir = basename(parent);
  return dir === '.claude-plugin' || dir === '.cursor-plugin' ? dirname(parent) : parent;
}

/** The path a catalog is shown under: its place below the root, or its base name. */
export function shownCatalogFile(file: string): string {
  const root = catalogRootOf(file);
  const rel = file
    .slice(root.length + 1)
    .split(/[\\/]/)
    .join('/');
  return CATALOG_FILES.includes(rel) ? rel : basename(file);
}
