import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularText } from '../io/read-regular-file.js';
import { replaceFile } from './replace-file.js';
import type { StorePaths } from './store-paths.js';

/*
 * registry.md S32: what the tamper checks (Q6) last found, so that `hookpm list` reports each
 * tree's status without checking every tree. The file holds only what differs from "intact since
 * install": the trees a check found tampered, the trees found intact again after that, and when
 * every user-wide tree was last checked at once (`list --verify`). It is written only when a
 * verdict changes, so the checks at every event (which stay, and alone decide what runs) add one
 * read of a small file, usually absent, and no write.
 */

/** One tree's last differing verdict: tampered or intact again, and when (ms since the epoch). */
export interface TreeVerdict {
  tampered: boolean;
  at: number;
}

export interface TreeVerdicts {
  /** When a check of every user-wide installed tree last ran (ms since the epoch), or null. */
  full: number | null;
  /** By tree root. */
  trees: Map<string, TreeVerdict>;
}

const FORMAT = 'hookpm-tree-verdicts/1';
/** A larger file is not read (it holds only trees found tampered: a handful). */
const MAX_BYTES = 16 * 1024 * 1024;

/** `<data>/tree-verdicts.json`: kept with the state, not in the cache, since it records findings. */
export function treeVerdictsFile(paths: StorePaths): string {
  return join(paths.data, 'tree-verdicts.json');
}

/**
 * The recorded verdicts; none for a missing, unreadable or damaged file (then `list` reports every
 * tree as intact since its install or update until a check says otherwise).
 */
export function readTreeVerdicts(paths: StorePaths): TreeVerdicts {
  const none: TreeVerdicts = { full: null, trees: new Map() };
  let text: string;
  try {
    text = readRegularText(treeVerdictsFile(paths), { maxBytes: MAX_BYTES });
  } catch {
    return none;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return none;
  }
  if (!isObject(json) || json.format !== FORMAT || !isObject(json.trees)) return none;
  const full = typeof json.full === 'number' ? json.full : null;
  const trees = new Map<string, TreeVerdict>();
  for (const [root, value] of Object.entries(json.trees))
    if (Array.isArray(value) && typeof value[0] === 'boolean' && typeof value[1] === 'number')
      trees.set(root, { tampered: value[0], at: value[1] });
  return { full, trees };
}

/**
 * Records what a check of some trees found (root: tampered or not; a tree the check could not
 * decide is left out): a tampered tree not yet recorded so, and a tree recorded tampered and now
 * intact, at `at`. Writes only when one of these changes the file; never throws (a failed write
 * leaves the last verdicts, and the checks at every event still decide what runs).
 */
export function recordTreeVerdicts(
  paths: StorePaths,
  found: ReadonlyMap<string, boolean>,
  at: number,
): void {
  if (found.size === 0) return;
  try {
    const verdicts = readTreeVerdicts(paths);
    let changed = false;
    for (const [root, tampered] of found) {
      const known = verdicts.trees.get(root);
      if (tampered ? known?.tampered === true : known?.tampered !== true) continue;
      verdicts.trees.set(root, { tampered, at });
      changed = true;
    }
    if (changed) writeTreeVerdicts(paths, verdicts);
  } catch {
    // A cache of findings: the next check records them again.
  }
}

/**
 * Records a check of every user-wide installed tree (`roots`) at `at`: the `tampered` ones, and
 * that every other one was found intact then (`full`). Verdicts on other trees (a project's) are
 * kept. Never throws.
 */
export function recordFullCheck(
  paths: StorePaths,
  roots: ReadonlySet<string>,
  tampered: ReadonlySet<string>,
  at: number,
): void {
  try {
    const trees = new Map<string, TreeVerdict>();
    for (const [root, verdict] of readTreeVerdicts(paths).trees)
      if (!roots.has(root)) trees.set(root, verdict);
    for (const root of tampered) trees.set(root, { tampered: true, at });
    writeTreeVerdicts(paths, { full: at, trees });
  } catch {
    // As above.
  }
}

/**
 * What `list` says of a tree installed or last updated at `updatedAt` (ms): whether it was last
 * found tampered, and when it was last known so. A verdict older than the install, or than the
 * last full check for a user-wide tree (`user`), no longer stands (the tree was replaced, or
 * checked again since).
 */
export function verdictOf(
  verdicts: TreeVerdicts,
  root: string,
  updatedAt: number,
  user: boolean,
): { tampered: boolean; checkedAt: number } {
  const since = user ? Math.max(updatedAt, verdicts.full ?? 0) : updatedAt;
  const known = verdicts.trees.get(root);
  if (known !== undefined && known.at >= since)
    return { tampered: known.tampered, checkedAt: known.at };
  return { tampered: false, checkedAt: since };
}

function writeTreeVerdicts(paths: StorePaths, verdicts: TreeVerdicts): void {
  const trees: Record<string, [boolean, number]> = {};
  for (const [root, { tampered, at }] of verdicts.trees) trees[root] = [tampered, at];
  mkdirSync(paths.data, { recursive: true });
  replaceFile(
    treeVerdictsFile(paths),
    JSON.stringify({ format: FORMAT, full: verdicts.full, trees }),
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
