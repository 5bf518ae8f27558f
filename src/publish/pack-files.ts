import type { Stats } from 'node:fs';
import { lstat, readFile, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { HookpmError } from '../errors.js';
import { compareCodeUnits } from '../json/compare.js';
import { readingUserFile } from '../io/fs-error.js';
import { TARBALL_LIMITS, type TarballLimits } from '../store/tar/tarball-rules.js';

/** One file of a plugin as it goes into a tarball. */
export interface PackFile {
  /** Relative to the plugin root, `/`-separated. */
  path: string;
  mode: 0o644 | 0o755;
  data: Buffer;
}

/**
 * Version-control metadata is never part of a plugin: the same rule as installing from a
 * directory (copy-tree.ts), so a plugin packed and installed has the same files fingerprint as the
 * same directory installed directly. `node_modules` is kept: hookpm runs no install step, so a
 * plugin's scripts may need what it vendors.
 */
const SKIPPED_NAMES: ReadonlySet<string> = new Set(['.git']);

/**
 * Every regular file below `root`, sorted by path (UTF-16 code units), with modes masked to 0644
 * or 0755 (any exec bit). A symlink that resolves inside the root is packed as a copy of what it
 * names (the tarball holds no links, registry.md A1); one that resolves outside the root, or
 * dangles, is refused with E_SYMLINK_ESCAPE (plugins.md H5). FIFOs, sockets and devices are
 * skipped. Bounded by `limits` (default: the tarball limits, registry.md A2): E_ARCHIVE_TOO_LARGE
 * past them, its message naming the limit and `root`; a file is measured before it is read. The
 * directories walked count against the entry limit too (each one reached through a link again), so
 * links that fan out to the same folders end the walk instead of making it exponential. A file
 * whose real path `leaveOut` accepts (pack.ts: its own tarballs) is not packed, nor counted. A
 * file or folder that cannot be read is E_IO naming it.
 */
export async function collectPackFiles(
  root: string,
  limits: TarballLimits = TARBALL_LIMITS,
  leaveOut: (realPath: string) => boolean = () => false,
): Promise<PackFile[]> {
  const realRoot = await realpath(root);
  const files: PackFile[] = [];
  const run: Walk = { realRoot, files, total: 0, dirs: 0, limits, leaveOut };
  await walk(run, realRoot, '', [realRoot]);
  return files.sort((a, b) => compareCodeUnits(a.path, b.path));
}

interface Walk {
  realRoot: string;
  files: PackFile[];
  total: number;
  /** Directories walked so far, the root included. */
  dirs: number;
  limits: TarballLimits;
  leaveOut: (realPath: string) => boolean;
}

async function walk(run: Walk, dir: string, rel: string, chain: string[]): Promise<void> {
  if (chain.length > run.limits.maxDepth + 1)
    throw tooLarge(run, `more than ${run.limits.maxDepth} nested directories at ${rel}`);
  run.dirs += 1;
  if (run.dirs > run.limits.maxEntries)
    throw tooLarge(run, `it walks more than ${run.limits.maxEntries} directories (links included)`);
  for (const name of await readingUserFile(dir, () => readdir(dir))) {
    if (SKIPPED_NAMES.has(name)) continue;
    const path = rel === '' ? name : `${rel}/${name}`;
    const full = join(dir, name);
    const info = await readingUserFile(full, () => lstat(full));
    if (info.isDirectory()) await walk(run, full, path, [...chain, full]);
    else if (info.isFile()) await addFile(run, full, path, info);
    else if (info.isSymbolicLink()) await addLink(run, full, path, chain);
  }
}

async function addLink(run: Walk, full: string, path: string, chain: string[]): Promise<void> {
  let real: string;
  try {
    real = await realpath(full);
  } catch {
    throw escape(path, 'dangles');
  }
  const inside = relative(run.realRoot, real);
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside))
    throw escape(path, `resolves to ${real}, outside the plugin root`);
  const target = await stat(real);
  if (target.isFile()) return addFile(run, real, path, target);
  if (!target.isDirectory()) return;
  if (chain.includes(real)) throw escape(path, 'forms a directory cycle');
  await walk(run, real, path, [...chain, real]);
}

async function addFile(
  run: Walk,
  full: string,
  path: string,
  { mode, size }: Stats,
): Promise<void> {
  const { limits } = run;
  if (run.leaveOut(full)) return;
  if (run.files.length >= limits.maxEntries)
    throw tooLarge(run, `it holds more than ${limits.maxEntries} files`);
  // The size the walk saw is checked before the read, so a huge file is never loaded; the bytes
  // read are checked again, for a file that grew since.
  if (size > limits.maxFileBytes) throw fileTooLarge(run, path, size);
  const data = await readingUserFile(full, () => readFile(full));
  if (data.length > limits.maxFileBytes) throw fileTooLarge(run, path, data.length);
  run.total += data.length;
  if (run.total > limits.maxTotalBytes)
    throw tooLarge(run, `it holds more than ${limits.maxTotalBytes} bytes in all`);
  run.files.push({ path, mode: (mode & 0o111) !== 0 ? 0o755 : 0o644, data });
}

function escape(path: string, why: string): HookpmError {
  return new HookpmError('E_SYMLINK_ESCAPE', `cannot pack the symlink ${path}: it ${why}`, {
    file: path,
    hint: 'A packed plugin holds only its own files: replace the link with the file, or point it inside the plugin directory.',
  });
}

function fileTooLarge(run: Walk, path: string, bytes: number): HookpmError {
  return tooLarge(run, `${path} is ${bytes} bytes (limit ${run.limits.maxFileBytes} a file)`);
}

function tooLarge(run: Walk, why: string): HookpmError {
  const { maxEntries, maxFileBytes, maxTotalBytes } = run.limits;
  const mib = (bytes: number): string => `${bytes / (1024 * 1024)} MiB`;
  return new HookpmError(
    'E_ARCHIVE_TOO_LARGE',
    `the plugin ${run.realRoot} is over a size limit: ${why}`,
    {
      file: run.realRoot,
      hint: `A plugin is limited to ${maxEntries.toLocaleString('en-US')} files, ${mib(maxFileBytes)} a file and ${mib(maxTotalBytes)} in all (a published tarball); leave build output and dependencies out of it.`,
    },
  );
}
