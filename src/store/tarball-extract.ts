import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { HookpmError } from '../errors.js';
import { toStoreError } from '../io/fs-error.js';
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
 */
export async function extractTarball(
  input: TarballInput,
  stagingDir: string,
  listing: TarballListing,
  limits: TarballLimits = TARBALL_LIMITS,
): Promise<void> {
  await mkdir(stagingDir, { recursive: true, mode: 0o755 });
  if (!(await lstat(stagingDir)).isDirectory() || (await readdir(stagingDir)).length > 0)
    throw new Error(`Assertion failed: staging directory ${stagingDir} is not empty`);
  const checker = createTarballChecker(limits);
  let handle: FileHandle | null = null;
  const made = new Set<string>([stagingDir]);
  const ensureDir = async (path: string): Promise<void> => {
    if (made.has(path)) return;
    await mkdir(path, { recursive: true, mode: 0o755 });
    made.add(path);
  };
  const visitor: TarVisitor = {
    entry: async (raw) => {
      checker.visitor.entry(raw);
      const entry = checker.current();
      if (entry === null) return;
      const target = join(stagingDir, ...entry.path.split('/'));
      await writeStep(entry.path, async () => {
        if (entry.type === 'directory') await ensureDir(target);
        else {
          await ensureDir(dirname(target));
          handle = await open(target, CREATE_NEW, 0o600);
        }
      });
    },
    data: async (chunk) => {
      checker.visitor.data(chunk);
      const fh = handle;
      if (fh === null) throw new Error('Assertion failed: data outside a file entry');
      await writeStep(checker.current()?.path ?? '', () => writeAll(fh, chunk));
    },
    end: async () => {
      const entry = checker.current();
      checker.visitor.end();
      const fh = handle;
      if (fh === null || entry === null) return;
      handle = null;
      await writeStep(entry.path, async () => {
        await fh.chmod(entry.mode);
        await fh.close();
      });
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
        `Tarball ${listing.file} differs from the one that was scanned.`,
        { file: listing.file },
      );
    }
    await verifyTree(stagingDir, listing);
  } catch (error) {
    await (handle as FileHandle | null)?.close().catch(() => undefined);
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

async function writeStep(path: string, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (error) {
    throw toStoreError(error, JSON.stringify(path), 'extract');
  }
}

async function writeAll(fh: FileHandle, chunk: Buffer): Promise<void> {
  let offset = 0;
  while (offset < chunk.length)
    offset += (await fh.write(chunk, offset, chunk.length - offset)).bytesWritten;
}

/**
 * The staging tree must be exactly the listing: the listed files (same size and mode), the listed
 * directories and their parents (set to 0755 here, as mkdir obeys the umask), and nothing else.
 */
async function verifyTree(root: string, listing: TarballListing): Promise<void> {
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
  const walk = async (relative: string): Promise<void> => {
    for (const name of await readdir(join(root, relative))) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const info = await lstat(join(root, path));
      const expected = files.get(path);
      seen += 1;
      if (info.isDirectory() && dirs.has(path)) {
        await chmod(join(root, path), 0o755);
        await walk(path);
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
  await walk('');
  if (seen !== files.size + dirs.size)
    throw new HookpmError('E_ARCHIVE_CORRUPT', 'the extracted tree is missing listed entries');
}
