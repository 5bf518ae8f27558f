import { HookpmError } from '../../errors.js';
import { clip } from '../../text/clip.js';

/** registry.md A2. */
export interface TarballLimits {
  maxEntries: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  /** Path segments below `package/`. */
  maxDepth: number;
  maxSegmentBytes: number;
  /**
   * Bytes of a path below `package/`: 32 segments of 255 bytes would pass the two limits above yet
   * be longer than any file system takes (4,096 bytes on Linux, 1,024 on macOS, store prefix not
   * counted), so the extraction would fail on a name the scan accepted.
   */
  maxPathBytes: number;
}

export const TARBALL_LIMITS: TarballLimits = {
  maxEntries: 2000,
  maxFileBytes: 20 * 1024 * 1024,
  maxTotalBytes: 50 * 1024 * 1024,
  maxDepth: 32,
  maxSegmentBytes: 255,
  maxPathBytes: 1024,
};

/**
 * A plugin that comes as a tree (a marketplace's relative source, a git checkout) is hashed as the
 * tarball `hookpm pack` would make of it (tree-integrity.ts), so A2's byte and depth limits hold
 * for it; its file count is bounded like a directory install (copy-tree.ts), not by A2's 2,000
 * entries, which is the limit of what a publisher uploads
 * (docs/design/decisions.md#plugins-and-marketplaces).
 */
export const TREE_LIMITS: TarballLimits = { ...TARBALL_LIMITS, maxEntries: 20_000 };

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function unsafe(reason: string): HookpmError {
  return new HookpmError('E_ARCHIVE_UNSAFE', reason);
}

/**
 * A2 name rules. Returns the entry's path below `package/` with `.` and empty segments dropped
 * (`''` for `package/` itself), or throws `E_ARCHIVE_UNSAFE` for a control character (ESC,
 * newline, NUL, C1), `\`, `:`, a leading `/`, a `..` segment, a first segment other than
 * `package`, more than `maxDepth` segments below it, a segment over `maxSegmentBytes` bytes, or a
 * path below it over `maxPathBytes` bytes.
 */
export function normaliseEntryPath(raw: string, limits: TarballLimits = TARBALL_LIMITS): string {
  if (CONTROL.test(raw)) throw unsafe('the name contains a control character');
  if (raw.includes('\\')) throw unsafe('the name contains a backslash');
  if (raw.includes(':')) throw unsafe('the name contains a colon');
  if (raw.startsWith('/')) throw unsafe('the name is an absolute path');
  const segments = raw.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw unsafe('the name contains a ".." segment');
  if (segments[0] !== 'package') throw unsafe('the entry is not under package/');
  const below = segments.slice(1);
  if (below.length > limits.maxDepth)
    throw unsafe(`the entry is deeper than ${limits.maxDepth} directories`);
  if (below.some((segment) => Buffer.byteLength(segment) > limits.maxSegmentBytes)) {
    throw unsafe(`a path segment is longer than ${limits.maxSegmentBytes} bytes`);
  }
  const path = below.join('/');
  if (Buffer.byteLength(path) > limits.maxPathBytes)
    throw unsafe(`the path is longer than ${limits.maxPathBytes} bytes`);
  return path;
}

/** The key under which two names collide: Unicode NFC/NFKC and case folded. */
function collisionKey(path: string): string {
  return path.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

export type EntryKind = 'file' | 'directory';

/**
 * A2 collisions. `add` throws `E_ARCHIVE_UNSAFE` when an entry repeats an earlier one, when two
 * spellings fold to the same key (case, NFC/NFKC: they would be one file on a case-insensitive or
 * normalising disk), or when a path is both a file and a directory (implied by a deeper entry).
 */
export function createCollisionGuard(): { add(path: string, kind: EntryKind): void } {
  const explicit = new Set<string>();
  const claimed = new Map<string, { kind: EntryKind; spelled: string }>();
  const claim = (path: string, kind: EntryKind): void => {
    const key = collisionKey(path);
    const earlier = claimed.get(key);
    if (earlier === undefined) {
      claimed.set(key, { kind, spelled: path });
      return;
    }
    if (earlier.spelled !== path) {
      throw unsafe(
        `${JSON.stringify(clip(earlier.spelled))} and ${JSON.stringify(clip(path))} collide after case and Unicode normalisation`,
      );
    }
    if (earlier.kind !== kind)
      throw unsafe(`${JSON.stringify(clip(path))} is both a file and a directory`);
  };
  return {
    add: (path, kind) => {
      const segments = path.split('/');
      for (let depth = 1; depth < segments.length; depth += 1)
        claim(segments.slice(0, depth).join('/'), 'directory');
      const key = collisionKey(path);
      if (explicit.has(key) && claimed.get(key)?.spelled === path)
        throw unsafe(`duplicate entry ${JSON.stringify(clip(path))}`);
      explicit.add(key);
      claim(path, kind);
    },
  };
}
