import { basename, dirname } from 'node:path';

/**
 * The catalog files a marketplace root may hold (docs/reference/rules/plugins.md#g10), in the
 * order they are looked for: Claude Code's `.claude-plugin/marketplace.json`, then Codex's
 * `.agents/plugins/marketplace.json` (which Deep Agents Code reads too, after Claude Code's). The
 * first that is a regular file is the catalog; the other is never read.
 */
export const CATALOG_FILES = [
  '.claude-plugin/marketplace.json',
  '.agents/plugins/marketplace.json',
];

/** Which format a catalog file is read in: Claude Code's, or Codex's `.agents/plugins` one. */
export type CatalogLayout = 'claude' | 'agents';

/** The layout of a catalog file, by where it lies (a lone `marketplace.json` is Claude Code's). */
export function catalogLayoutOf(file: string): CatalogLayout {
  const parent = dirname(file);
  return basename(parent) === 'plugins' && basename(dirname(parent)) === '.agents'
    ? 'agents'
    : 'claude';
}

/**
 * The marketplace root of a catalog file, against which its relative sources resolve: the
 * directory holding `.claude-plugin/` or `.agents/`; for a lone `marketplace.json` elsewhere, its
 * own directory.
 */
export function catalogRootOf(file: string): string {
  const parent = dirname(file);
  if (catalogLayoutOf(file) === 'agents') return dirname(dirname(parent));
  return basename(parent) === '.claude-plugin' ? dirname(parent) : parent;
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
