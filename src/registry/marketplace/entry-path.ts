import { join, resolve } from 'node:path';
import { isInside } from '../../text/path-inside.js';

/** Where a marketplace's relative sources resolve, and how far they may reach. */
export interface MarketplaceRoots {
  /** The marketplace root: the directory holding `.claude-plugin/marketplace.json`. */
  root: string;
  /**
   * The boundary no relative source may leave: the root of the git checkout holding the
   * marketplace (a clone hookpm made, or the work tree a local marketplace sits in), else the
   * marketplace root itself.
   */
  boundary: string;
}

/**
 * A `path` source's directory: the normalised relative path joined to the marketplace root
 * (Claude Code resolves relative sources against the directory holding `.claude-plugin/`, not
 * against `.claude-plugin/` itself). Returns null when it lands outside the boundary, e.g.
 * `./../../` in a marketplace at the root of its repository.
 */
export function resolveEntryPath(roots: MarketplaceRoots, path: string): string | null {
  const target = resolve(roots.root, ...path.split('/'));
  return isInside(roots.boundary, target) ? target : null;
}

/** A subdirectory (`git-subdir` path, normalised, never climbing) of a checkout. */
export function subdirOf(checkout: string, path: string | undefined): string {
  return path === undefined || path === '.' ? checkout : join(checkout, ...path.split('/'));
}

/** `./plugins/big` for a normalised entry path (`plugins/big`), `.` for the root. */
export function shownTreePath(path: string): string {
  return path === '.' ? '.' : `./${path}`;
}
