import type { Stats } from 'node:fs';
import { copyFile, chmod, lstat, mkdir, readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { HookpmError } from '../errors.js';
import { readingUserFile, toStoreError } from '../io/fs-error.js';
import { documentFiles, MANIFEST_FILES } from './read-plugin.js';

/** What a copy of a plugin directory holds, for the install report. */
export interface CopiedTree {
  files: number;
  bytes: number;
}

/** Bounds on a local plugin directory (the tarball rules' order of magnitude). */
const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 64;
/** The manifests hookpm reads from a plugin's root (P1, G5), `/`-separated. */
const MANIFESTS: ReadonlySet<string> = new Set<string>(MANIFEST_FILES);
/** Version-control metadata is never part of an installed plugin. */
const SKIPPED_NAMES: ReadonlySet<string> = new Set(['.git']);

/**
 * Copies the plugin directory `source` into the empty directory `target` (plugins.md H5, registry.md
 * D4, security.md "setuid"): regular files and directories only, with modes masked to 0644 / 0755
 * (a file with any exec bit becomes 0755; setuid, setgid and sticky bits never survive). A symlink
 * is materialised as a copy of what it names when that resolves inside the plugin root, and refused
 * with E_SYMLINK_ESCAPE naming the link when it resolves outside (or dangles). FIFOs, sockets and
 * devices are skipped, except where hookpm reads a manifest or a hooks document (`hooks`,
 * `hooks/hooks.json`, and the paths the manifest names: documentFiles): refused there
 * (E_MANIFEST_INVALID, E_HOOKS_INVALID, registry.md D7), as `validate` refuses it, so the installed
 * copy never silently lacks them. `.git` is skipped.
 * Throws E_IO / E_NOSPC / E_STORE_READONLY on file-system failures; the caller owns (and removes)
 * `target` on any failure.
 */
export async function copyPluginTree(source: string, target: string): Promise<CopiedTree> {
  const realRoot = await realpath(source);
  const counts: CopiedTree = { files: 0, bytes: 0 };
  const run: CopyRun = { realRoot, target, counts, entries: 0, skipped: [] };
  await copyDir(run, realRoot, target, [realRoot], 0);
  // The manifests are copied now, so the copy says which documents are read: one left out there
  // would read as missing (it is looked for only when something was left out).
  if (run.skipped.length > 0) {
    const documents = await documentFiles(target);
    const left = run.skipped.find((entry) => documents.has(entry.file));
    if (left !== undefined) throw refusal(run, left, documents.get(left.file) ?? null);
  }
  return counts;
}

/** A FIFO, socket or device left out of the copy: where it would land, and what it is. */
interface Skipped {
  file: string;
  kind: string;
}

interface CopyRun {
  realRoot: string;
  /** Where the copy goes: a path under it is where hookpm reads the entry from the copy. */
  target: string;
  counts: CopiedTree;
  entries: number;
  skipped: Skipped[];
}

async function copyDir(
  run: CopyRun,
  from: string,
  to: string,
  chain: string[],
  depth: number,
): Promise<void> {
  if (depth > MAX_DEPTH)
    throw tooLarge(run, `more than ${MAX_DEPTH} nested directories at ${shown(run, from)}`);
  await guard(to, 'create', () => mkdir(to, { recursive: true, mode: 0o755 }));
  await guard(to, 'set the mode of', () => chmod(to, 0o755));
  for (const name of (await readingUserFile(from, () => readdir(from))).sort()) {
    if (SKIPPED_NAMES.has(name)) continue;
    run.entries += 1;
    if (run.entries > MAX_ENTRIES) throw tooLarge(run, `more than ${MAX_ENTRIES} entries`);
    await copyEntry(run, join(from, name), join(to, name), chain, depth);
  }
}

async function copyEntry(
  run: CopyRun,
  from: string,
  to: string,
  chain: string[],
  depth: number,
): Promise<void> {
  const info = await readingUserFile(from, () => lstat(from));
  if (info.isDirectory()) return copyDir(run, from, to, [...chain, from], depth + 1);
  if (info.isFile()) return copyRegular(run, from, to, info.mode);
  if (!info.isSymbolicLink()) return special(run, to, info);
  const real = await resolveInside(run, from);
  const target = await stat(real);
  if (target.isFile()) return copyRegular(run, real, to, target.mode);
  if (!target.isDirectory()) return special(run, to, target);
  // A link to an ancestor would copy forever: refuse the cycle like an escape.
  if (chain.includes(real))
    throw escape(run, from, 'it forms a cycle with a directory that contains it');
  return copyDir(run, real, to, [...chain, real], depth + 1);
}

async function copyRegular(run: CopyRun, from: string, to: string, mode: number): Promise<void> {
  const masked = (mode & 0o111) !== 0 ? 0o755 : 0o644;
  await guard(to, 'write', () => copyFile(from, to));
  await guard(to, 'set the mode of', () => chmod(to, masked));
  run.counts.files += 1;
  run.counts.bytes += (await lstat(to)).size;
}

/**
 * A FIFO, socket or device to be copied to `to`: skipped, unless hookpm reads a manifest there
 * (D7), judged by `to`, where it lands, also when a linked directory put it there. Hooks documents
 * are judged once the manifests are copied (copyPluginTree).
 */
function special(run: CopyRun, to: string, info: Stats): void {
  const file = relative(run.target, to).split(sep).join('/');
  const kind = info.isFIFO() ? 'a FIFO' : info.isSocket() ? 'a socket' : 'a device';
  if (MANIFESTS.has(file)) throw refusal(run, { file, kind }, null);
  run.skipped.push({ file, kind });
}

/**
 * D7: a manifest or hooks document that is not a regular file, which `validate` refuses too;
 * `at` is the manifest field that names the document.
 */
function refusal(run: CopyRun, { file, kind }: Skipped, at: string | null): HookpmError {
  const manifest = MANIFESTS.has(file);
  const what = manifest ? 'manifest' : 'hooks document';
  const named = at === null ? '' : ` (named by ${at})`;
  return new HookpmError(
    manifest ? 'E_MANIFEST_INVALID' : 'E_HOOKS_INVALID',
    `refusing the plugin directory ${run.realRoot}: its ${what} ${file}${named} is ${kind}, not a regular file`,
    { file, hint: `Replace ${file} with a regular file, then install again.` },
  );
}

/** H5: the real path of a symlink, which must be inside the plugin root. */
async function resolveInside(run: CopyRun, link: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(link);
  } catch {
    throw escape(run, link, 'it dangles (its target does not exist)');
  }
  const root = run.realRoot.endsWith(sep) ? run.realRoot : run.realRoot + sep;
  if (real !== run.realRoot && !real.startsWith(root)) {
    throw escape(run, link, `it resolves to ${real}, outside the plugin directory`);
  }
  return real;
}

function shown(run: CopyRun, path: string): string {
  return relative(run.realRoot, path).split(sep).join('/') || '.';
}

function escape(run: CopyRun, link: string, why: string): HookpmError {
  const file = shown(run, link);
  return new HookpmError(
    'E_SYMLINK_ESCAPE',
    `refusing the plugin directory ${run.realRoot}: symlink ${file}: ${why}`,
    {
      file,
      hint: 'Replace the symlink with the file itself, or point it at a file inside the plugin directory.',
    },
  );
}

function tooLarge(run: CopyRun, why: string): HookpmError {
  return new HookpmError(
    'E_ARCHIVE_TOO_LARGE',
    `refusing the plugin directory ${run.realRoot}: ${why}`,
    {
      file: run.realRoot,
      hint: 'Install the plugin directory itself, not a directory that contains other projects.',
    },
  );
}

async function guard<T>(file: string, action: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toStoreError(error, file, action);
  }
}
