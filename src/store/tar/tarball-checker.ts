import { HookpmError } from '../../errors.js';
import { clip } from '../../text/clip.js';
import { readTar, tarballName } from './tar-reader.js';
import type { TarballInput, TarEntry, TarVisitor } from './tar-reader.js';
import { createCollisionGuard, normaliseEntryPath, TARBALL_LIMITS } from './tarball-rules.js';
import type { TarballLimits } from './tarball-rules.js';

/** One regular file or directory of a plugin tarball, as it will be extracted. */
export interface TarballEntry {
  /** Below `package/`, `/`-separated, `.` and empty segments dropped. */
  path: string;
  type: 'file' | 'directory';
  size: number;
  /** The mode it is extracted with: 0755 for directories and executable files, else 0644. */
  mode: 0o755 | 0o644;
}

export interface TarballListing {
  /** What messages call the tarball (tarballName). */
  file: string;
  /** In archive order; `package/` itself is not listed. */
  entries: readonly TarballEntry[];
  /** Sum of the file sizes. */
  totalBytes: number;
}

/** Bytes of headers, PAX records, padding and end marker allowed on top of `maxTotalBytes`. */
const METADATA_ALLOWANCE = 16 * 1024 * 1024;

/** Runs `readTar` with the scan's size caps and turns its errors into messages naming the file and entry. */
export async function readTarChecked(
  input: TarballInput,
  visitor: TarVisitor,
  lastName: () => string | null,
  limits: TarballLimits,
): Promise<void> {
  try {
    await readTar(input, visitor, {
      maxDecompressedBytes: limits.maxTotalBytes + METADATA_ALLOWANCE,
      maxMetaBytes: 1024 * 1024,
    });
  } catch (error) {
    if (!(error instanceof HookpmError)) throw error;
    // A PAX path or a GNU long name may be up to 1 MiB: quote a bounded prefix of it.
    const name = lastName();
    const entry = name === null ? null : clip(name);
    const file = tarballName(input);
    const where = entry === null ? '' : ` entry ${JSON.stringify(entry)}:`;
    throw new HookpmError(error.code, `tarball ${file}:${where} ${error.message}`, {
      ...error.details,
      file,
      entry,
      // A failure of the store (E_NOSPC, E_STORE_READONLY) keeps the hint it came with.
      hint: HINTS[error.code] ?? error.hint,
    });
  }
}

const HINTS: Partial<Record<string, string>> = {
  E_ARCHIVE_UNSAFE:
    'Plugin tarballs may hold only regular files and directories under package/ with plain names; rebuild it with npm pack.',
  E_ARCHIVE_TOO_LARGE:
    'Plugin tarballs are limited to 2,000 entries, 20 MiB per file and 50 MiB unpacked in total.',
  E_ARCHIVE_CORRUPT: 'The file is not a complete gzip-compressed tar archive; download it again.',
};

export interface TarballChecker {
  visitor: TarVisitor;
  entries: TarballEntry[];
  /** The raw name of the entry being read, for messages. */
  lastName: () => string | null;
  totalBytes: () => number;
  /** The listed entry being read (null for `package/` itself). */
  current: () => TarballEntry | null;
}

/** The per-entry checks of A1-A2 as a tar visitor; shared by the scan and the extraction. */
export function createTarballChecker(limits: TarballLimits = TARBALL_LIMITS): TarballChecker {
  const entries: TarballEntry[] = [];
  const guard = createCollisionGuard();
  let count = 0;
  let declared = 0;
  let streamed = 0;
  let inEntry = 0;
  let lastName: string | null = null;
  let current: TarballEntry | null = null;
  const tooLarge = (reason: string): HookpmError => new HookpmError('E_ARCHIVE_TOO_LARGE', reason);
  const entry = (raw: TarEntry): void => {
    lastName = raw.path;
    count += 1;
    if (count > limits.maxEntries) throw tooLarge(`more than ${limits.maxEntries} entries`);
    const path = normaliseEntryPath(raw.path, limits);
    if (raw.type !== 'file' && raw.type !== 'directory') {
      throw new HookpmError(
        'E_ARCHIVE_UNSAFE',
        `${raw.type} entries are not allowed (only regular files and directories; links are never extracted)`,
      );
    }
    if (raw.type === 'directory' && raw.size !== 0) {
      throw new HookpmError('E_ARCHIVE_UNSAFE', 'a directory entry carries data');
    }
    if (path === '' && raw.type === 'file')
      throw new HookpmError('E_ARCHIVE_UNSAFE', 'package/ is a file');
    if (raw.size > limits.maxFileBytes)
      throw tooLarge(`a file of ${raw.size} bytes (limit ${limits.maxFileBytes} per file)`);
    declared += raw.size;
    if (declared > limits.maxTotalBytes)
      throw tooLarge(`more than ${limits.maxTotalBytes} bytes unpacked`);
    inEntry = 0;
    current = null;
    if (path === '') return;
    guard.add(path, raw.type);
    const mode = raw.type === 'directory' || (raw.mode & 0o111) !== 0 ? 0o755 : 0o644;
    current = { path, type: raw.type, size: raw.size, mode };
    entries.push(current);
  };
  const data = (chunk: Buffer): void => {
    inEntry += chunk.length;
    streamed += chunk.length;
    if (inEntry > limits.maxFileBytes || streamed > limits.maxTotalBytes)
      throw tooLarge('the data exceeds the size limits');
  };
  return {
    visitor: {
      entry,
      data,
      end: () => {
        lastName = null;
      },
    },
    entries,
    lastName: () => lastName,
    totalBytes: () => declared,
    current: () => current,
  };
}
