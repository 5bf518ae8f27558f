import { lstat } from 'node:fs/promises';
import { readRegularFile } from '../../../io/read-regular-file.js';
import { join } from 'node:path';
import {
  CODE_DIFF_LIMITS,
  describeCodeChanges,
  type ChangeContents,
  type CodeDiff,
  type FileBytes,
} from '../../../plugin/code-diff.js';
import {
  assignRoles,
  changedCodeFiles,
  type FileChange,
  type RoledFile,
} from '../../../plugin/code-files.js';
import { compareCodeUnits } from '../../../json/compare.js';
import { withDocsNamedByCode } from './docs-named-by-code.js';
import type { LoadedPlugin } from '../../../plugin/loaded-plugin.js';
import type { Surface } from '../../../plugin/surface.js';
import { fingerprintOf, listTree, type TreeEntry } from '../../../store/fingerprint.js';

/** A plugin tree as a review shows it: where it is, its Q6 fingerprint, its files by role. */
export interface ReviewedTree {
  root: string;
  /** '' when the tree cannot be listed. */
  fingerprint: string;
  files: RoledFile[];
}

/**
 * The installed tree a consent was given to: where it is, the fingerprint recorded at install
 * (Q6), and what its roles depend on (null when its surface is not the consented one or cannot
 * be read: then its files cannot stand for what was consented).
 */
export interface ConsentedTree {
  root: string;
  fingerprint: string;
  of: RoleSource | null;
  /** Its installed paths (store/installed-files.ts): files its plugin created since are left out. */
  installed?: ReadonlySet<string> | null;
}

/** What the roles of a tree's files depend on (plugin/code-files.ts). */
export type RoleSource = {
  plugin: Pick<LoadedPlugin, 'manifestFile' | 'hooksManifestFile' | 'documents'>;
  surface: Surface;
};

/**
 * The files of the tree at `root` (`entries` when the caller has listed it already, as an
 * extraction does), with their roles. `directory`: a plugin directory reviewed in place, listed
 * as install would copy it (store/copy-tree.ts: `.git` left out, modes 0644 or 0755).
 */
export async function readReviewedTree(
  root: string,
  of: RoleSource,
  opts: { entries?: readonly TreeEntry[]; directory?: boolean; only?: ReadonlySet<string> } = {},
): Promise<ReviewedTree> {
  const listed = opts.entries ?? (await listTree(root).catch(() => null));
  if (listed === null) return { root, fingerprint: '', files: [] };
  let entries = [...listed].sort((a, b) => compareCodeUnits(a[0], b[0]));
  // An installed tree's own files, without those its plugin created since
  // (docs/design/decisions.md#plugins-and-marketplaces).
  const only = opts.only;
  if (only !== undefined) entries = entries.filter((entry) => only.has(entry[0]));
  if (opts.directory === true) entries = entries.filter(notGit).map(asCopied);
  return { root, fingerprint: fingerprintOf(entries), files: rolesOf(root, entries, of) };
}

/**
 * The code diff of `target` against the consented tree (docs/guides/installing-plugins.md#consent):
 * `same` when it is that very tree by fingerprint; else the consented tree is listed, and when it
 * still matches its recorded fingerprint the changed files' bytes are read (bounded by
 * CODE_DIFF_LIMITS) from both trees; `unreadable` when it does not. Null with no consent.
 */
export async function diffCode(
  consented: ConsentedTree | null,
  target: ReviewedTree,
): Promise<CodeDiff | null> {
  if (consented === null) return null;
  if (target.fingerprint === consented.fingerprint)
    return { baseline: 'same', files: [], truncated: false };
  const installed = consented.installed ?? null;
  const listed = consented.of === null ? null : await listTree(consented.root).catch(() => null);
  const entries =
    listed === null || installed === null ? listed : listed.filter((e) => installed.has(e[0]));
  if (entries === null || consented.of === null || fingerprintOf(entries) !== consented.fingerprint)
    return { baseline: 'unreadable', files: [], truncated: false };
  const changes = changedCodeFiles(rolesOf(consented.root, entries, consented.of), target.files);
  const contents = new Map<string, ChangeContents>();
  await Promise.all(
    changes.map(async (change) => {
      contents.set(change.path, await contentsOf(change, consented.root, target.root));
    }),
  );
  return describeCodeChanges(changes, contents);
}

/** The roles of the files of the tree at `root` listed in `entries`. */
function rolesOf(root: string, entries: readonly TreeEntry[], of: RoleSource): RoledFile[] {
  const handlerText: string[] = [];
  for (const entry of of.surface.entries)
    for (const value of [entry.command, entry.argv, entry.args].flat())
      if (typeof value === 'string') handlerText.push(value);
  const files = entries.map(([path, kind, sha256, mode]) => ({ path, kind, sha256, mode }));
  const roles = assignRoles(files, {
    manifestFile: of.plugin.manifestFile,
    hooksManifestFile: of.plugin.hooksManifestFile ?? null,
    documentSources: of.plugin.documents.map((d) => d.source),
    handlerText,
  });
  return withDocsNamedByCode(root, roles);
}

async function contentsOf(
  change: FileChange,
  before: string,
  after: string,
): Promise<ChangeContents> {
  const same = change.before?.sha256 === change.after?.sha256;
  return {
    before: same ? null : await bytesOf(before, change.before),
    after: same ? null : await bytesOf(after, change.after),
  };
}

async function bytesOf(root: string, file: RoledFile | null): Promise<FileBytes> {
  if (file === null || file.kind !== 'file') return null;
  const full = join(root, file.path);
  try {
    if ((await lstat(full)).size > CODE_DIFF_LIMITS.bytesPerFile) return 'too-large';
    // Not through a link, and never waiting on a FIFO swapped in since it was listed.
    return readRegularFile(full, { maxBytes: CODE_DIFF_LIMITS.bytesPerFile });
  } catch {
    // Gone since it was listed: shown without its text.
    return null;
  }
}

function notGit([path]: TreeEntry): boolean {
  return !`/${path}/`.includes('/.git/');
}

function asCopied(entry: TreeEntry): TreeEntry {
  const [path, kind, sha256, mode] = entry;
  return kind === 'file' ? [path, kind, sha256, mode & 0o111 ? 0o755 : 0o644] : entry;
}
