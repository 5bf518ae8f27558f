import { scanTreesCached, type ScanOptions, type TreeScan } from './fingerprint-cache.js';
import { cachedEntry, readFingerprintCache } from './fingerprint-shards.js';
import { fingerprintOf, readEntries, walkTree, type TreeFile } from './fingerprint.js';
import { readInstalledFiles } from './installed-files.js';
import type { StorePaths } from './store-paths.js';
import { recordTreeVerdicts } from './tree-verdicts.js';

/** What an installed tree holds now against its recorded fingerprint (plugins.md Q6). */
export type TreeCheck =
  /** Exactly the installed files. */
  | { status: 'match'; scan: TreeScan }
  /**
   * The installed files unchanged, and files created since (relative paths, sorted): the plugin
   * writes into its folder (docs/design/decisions.md#plugins-and-marketplaces). Whether one of them
   * changes what runs is the caller's question (plugin/created-files.ts).
   */
  | { status: 'created'; created: string[] }
  /**
   * An installed file changed, removed, or its mode changed; or no list tells created ones; or
   * (`linked`) the tree, or the directory holding it, is a symbolic link, which hookpm never makes.
   */
  | { status: 'changed'; linked?: true }
  /** The tree is gone or cannot be read. */
  | { status: 'missing' };

export interface TreeToCheck {
  root: string;
  fingerprint: string;
}

/**
 * Checks each tree against its fingerprint: the whole tree first, through the fingerprint cache
 * (the common case, a tree as installed, costs no more than before); a tree that differs is
 * checked again over only the files its installed-files list names (installed-files.ts), reusing
 * the hashes the cache holds for unchanged stats. A tree that must be walked and holds a file the
 * list leaves out skips the whole-tree hash: no file a plugin created is ever read. What it found
 * is recorded for `list` (tree-verdicts.ts). Never rejects.
 */
export async function checkInstalledTrees(
  paths: StorePaths,
  trees: readonly TreeToCheck[],
  options: ScanOptions = {},
): Promise<Map<string, TreeCheck>> {
  const expected = new Map<string, string>();
  for (const { root, fingerprint } of trees)
    if (!expected.has(root)) expected.set(root, fingerprint);
  const lists = new Map<string, Set<string> | null>();
  const listed = (root: string): Set<string> | null => {
    const fingerprint = expected.get(root);
    if (fingerprint === undefined) return null;
    if (!lists.has(root)) lists.set(root, readInstalledFiles(paths, fingerprint));
    return lists.get(root)!;
  };
  const scans = await scanTreesCached(paths, [...expected.keys()], { ...options, listed });
  const out = new Map<string, TreeCheck>();
  for (const [root, fingerprint] of expected) {
    const scan = scans.get(root) ?? null;
    if (scan === null) out.set(root, { status: 'missing' });
    else if ('linked' in scan) out.set(root, { status: 'changed', linked: true });
    else if (scan.fingerprint === fingerprint) out.set(root, { status: 'match', scan });
    else {
      const cached = readFingerprintCache(paths, [root]).get(root)?.files;
      out.set(root, await checkCreated(root, fingerprint, listed(root), cached));
    }
  }
  recordTreeVerdicts(paths, verdictsOf(out), (options.now ?? Date.now)());
  return out;
}

/**
 * registry.md S32: the verdicts a check gives `list`: intact for a match, tampered for a changed or
 * missing tree; a tree with created files is left to the caller, which reads the plugin to decide.
 */
function verdictsOf(checks: ReadonlyMap<string, TreeCheck>): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const [root, check] of checks)
    if (check.status !== 'created') out.set(root, check.status !== 'match');
  return out;
}

/**
 * A tree whose whole fingerprint is not the installed one: `created` when the files `installed`
 * names are there and hash to `fingerprint`, and only others were added (those are not read).
 */
async function checkCreated(
  root: string,
  fingerprint: string,
  installed: ReadonlySet<string> | null,
  cached: Parameters<typeof cachedEntry>[1],
): Promise<TreeCheck> {
  if (installed === null) return { status: 'changed' };
  let files: TreeFile[];
  try {
    files = walkTree(root).files;
  } catch {
    return { status: 'missing' };
  }
  const kept = files.filter((file) => installed.has(file.path));
  const created = files.filter((file) => !installed.has(file.path)).map((f) => f.path);
  if (kept.length !== installed.size) return { status: 'changed' };
  const entries = kept.map((file) => cachedEntry(file, cached));
  const misses = kept.filter((_, i) => entries[i] === null);
  const read = await readEntries(root, misses).catch(() => null);
  if (read === null) return { status: 'changed' };
  const all = [...entries.filter((e) => e !== null), ...read];
  if (fingerprintOf(all) !== fingerprint) return { status: 'changed' };
  return { status: 'created', created: created.sort() };
}
