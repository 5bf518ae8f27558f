import { createHash, type Hash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  writeSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { HookpmError } from '../../errors.js';
import { quietly, toStoreError } from '../../io/fs-error.js';
import type { TreeEntry } from '../fingerprint.js';
import type { TarballInput, TarVisitor } from './tar-reader.js';
import { createTarballChecker, readTarChecked } from './tarball-checker.js';
import type { TarballEntry, TarballListing } from './tarball-checker.js';
import { TARBALL_LIMITS } from './tarball-rules.js';
import type { TarballLimits } from './tarball-rules.js';

const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * registry.md A1-A3: extracts a tarball that `scanTarball` accepted into `stagingDir`, which must
 * be new or empty: `package/` is stripped, only files and directories are created (exclusively,
 * never through a link), directories get 0755 and files 0755 or 0644 (never setuid), owners are
 * ignored. Every entry is checked again (same rules and limits as the scan) before it is
 * written, the archive must yield exactly `listing` (else `E_ARCHIVE_CORRUPT`: it changed since
 * the scan), and the written tree is compared with it. On any failure `stagingDir` is removed.
 * Returns the files written with their SHA-256 and mode, the entries of their Q6 fingerprint
 * (store/fingerprint.ts), so the tree need not be read back to fingerprint it.
 *
 * The files are small and written one after another, so the calls are synchronous: a thread-pool
 * round trip per call would cost more than the call (bench/install.bench.mjs).
 */
export async function extractTarball(
  input: TarballInput,
  stagingDir: string,
  listing: TarballListing,
  limits: TarballLimits = TARBALL_LIMITS,
): Promise<TreeEntry[]> {
  mkdirSync(stagingDir, { recursive: true, mode: 0o755 });
  if (!lstatSync(stagingDir).isDirectory() || readdirSync(stagingDir).length > 0)
    throw new Error(`Assertion failed: staging directory ${stagingDir} is not empty`);
  const checker = createTarballChecker(limits);
  const files: TreeEntry[] = [];
  let open: { fd: number; hash: Hash } | null = null;
  const made = new Set<string>([stagingDir]);
  const ensureDir = (path: string): void => {
    if (made.has(path)) return;
    mkdirSync(path, { recursive: true, mode: 0o755 });
    made.add(path);
  };
  const visitor: TarVisitor = {
    entry: (raw) => {
      checker.visitor.entry(raw);
      const entry = checker.current();
      if (entry === null) return;
      const target = join(stagingDir, ...entry.path.split('/'));
      writeStep(entry.path, () => {
        if (entry.type === 'directory') ensureDir(target);
        else {
          ensureDir(dirname(target));
          open = { fd: openSync(target, CREATE_NEW, entry.mode), hash: createHash('sha256') };
        }
      });
    },
    data: (chunk) => {
      checker.visitor.data(chunk);
      const file = open;
      if (file === null) throw new Error('Assertion failed: data outside a file entry');
      file.hash.update(chunk);
      writeStep(checker.current()?.path ?? '', () => writeAll(file.fd, chunk));
    },
    end: () => {
      const entry = checker.current();
      checker.visitor.end();
      const file = open;
      if (file === null || entry === null) return;
      open = null;
      writeStep(entry.path, () => {
        setMode(file.fd, entry.mode);
        closeSync(file.fd);
      });
      files.push([entry.path, 'file', file.hash.digest('hex'), entry.mode]);
    },
  };
  try {
    await readTarChecked(input, visitor, checker.lastName, limits);
    const written = checker.entries;
    if (
      written.length !== listing.entries.length ||
      !written.every((entry, i) => sameEntry(entry, listing.entries[i]))
    ) {
      throw new HookpmError(
        'E_ARCHIVE_CORRUPT',
        `tarball ${listing.file} differs from the one that was scanned`,
        { file: listing.file },
      );
    }
    verifyTree(stagingDir, listing);
    return files;
  } catch (error) {
    const file = open as { fd: number } | null;
    if (file !== null) quietly(() => closeSync(file.fd));
    await rm(stagingDir, { recursive: true, force: true });
    throw error;
  }
}

function sameEntry(a: TarballEntry, b: TarballEntry | undefined): boolean {
  return (
    b !== undefined &&
    a.path === b.path &&
    a.type === b.type &&
    a.size === b.size &&
    a.mode === b.mode
  );
}

function writeStep(path: string, step: () => void): void {
  try {
    step();
  } catch (error) {
    throw toStoreError(error, JSON.stringify(path), 'extract');
  }
}

function writeAll(fd: number, chunk: Buffer): void {
  let offset = 0;
  while (offset < chunk.length) offset += writeSync(fd, chunk, offset, chunk.length - offset);
}

/**
 * Gives the file `mode` exactly; usually the umask left it so already, and a change of mode is a
 * journaled write that can wait for the file system's commit of other programs' writes.
 */
function setMode(fd: number, mode: number): void {
  if ((fstatSync(fd).mode & 0o7777) !== mode) fchmodSync(fd, mode);
}

/**
 * The staging tree must be exactly the listing: the listed files (same size and mode), the listed
 * directories and their parents (set to 0755 here, as mkdir obeys the umask), and nothing else.
 */
function verifyTree(root: string, listing: TarballListing): void {
  const files = new Map<string, TarballEntry>();
  const dirs = new Set<string>();
  for (const entry of listing.entries) {
    if (entry.type === 'file') files.set(entry.path, entry);
    else dirs.add(entry.path);
    const segments = entry.path.split('/');
    for (let depth = 1; depth < segments.length; depth += 1)
      dirs.add(segments.slice(0, depth).join('/'));
  }
  let seen = 0;
  const walk = (relative: string): void => {
    for (const name of readdirSync(join(root, relative))) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const info = lstatSync(join(root, path));
      const expected = files.get(path);
      seen += 1;
      if (info.isDirectory() && dirs.has(path)) {
        if ((info.mode & 0o7777) !== 0o755) chmodSync(join(root, path), 0o755);
        walk(path);
      } else if (!(
        info.isFile() &&
        expected !== undefined &&
        info.size === expected.size &&
        (info.mode & 0o7777) === expected.mode
      )) {
        throw new HookpmError(
          'E_ARCHIVE_CORRUPT',
          `the extracted tree differs from the scanned listing at ${JSON.stringify(path)}`,
        );
      }
    }
  };
  walk('');
  if (seen !== files.size + dirs.size)
    throw new HookpmError('E_ARCHIVE_CORRUPT', 'the extracted tree is missing listed entries');
}
