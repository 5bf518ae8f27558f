import { closeSync, fstatSync, lstatSync, mkdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { HookpmError } from '../../errors.js';
import { statsIdentity } from '../../io/file-identity.js';
import type { FileRange } from '../../io/file-range.js';
import { PIECE, copyRange, readRange } from '../../io/file-range.js';
import { readPackageVersion } from '../../io/package-root.js';
import { openRegularFile } from '../../io/read-regular-file.js';
import { stateFile } from '../../store/home-paths.js';
import { replaceFileWith } from '../../store/replace-file.js';
import type { StorePaths } from '../../store/store-paths.js';
import { treeVerdictsFile } from '../../store/tree-verdicts.js';

/*
 * registry.md S33: the document `hookpm list --json` printed, kept in the cache directory under
 * the identities of the two files it is made of, the state and the tree verdicts (S32): device,
 * inode, size, modification and change times in nanoseconds, or `absent`. Both files are only ever
 * replaced by a rename, so any install, update, enable, disable, consent or new verdict gives
 * another identity and the document is made again from the state (which is then checked, D6, as
 * every read checks it). A document is kept only when both files changed longer ago than the clock
 * tick can hide (git's racy-clean rule, as the fingerprint cache's S30): a later write then has a
 * later change time. The key holds hookpm's version too: another version may print another
 * document from the same files. Whoever can write the cache can write the state too (both are the
 * user's).
 *
 * With the document, its rows may be kept (list-rows.ts): the bytes of the state's `plugins`
 * section it was made from and, for each entry, where its line is there and where its row is in
 * the document. Rows are kept under hookpm's version and the verdicts' identity alone (a row
 * depends on its entry's bytes and the verdicts, listed-plugin.ts), and only while the verdicts
 * are settled. The file:
 *
 *   hookpm-list/2 <document length> <key, or - when the document is kept for its rows only>\n
 *   <the document>
 *   rows/1-le <entries> <section length> <rows key>\n        (when rows are kept)
 *   <ROW_FIELDS 32-bit little-endian numbers per entry, in the section's order>
 *   <the section's bytes>
 */

const FORMAT = 'hookpm-list/2';
const ROWS_FORMAT = 'rows/1-le';
/** git's racy window, as the fingerprint cache's. */
const RACY_MS = 2000;
const MAX_BYTES = 256 * 1024 * 1024;
/** The longest head or rows line read (a key is a version and two identities). */
const MAX_LINE = 1024;
/** Rows are kept in the machine's order of bytes, so only on a little-endian one. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The numbers kept for each entry of the section, in the section's order: where its line starts,
 * where its key's closing quote is and where its line break is (in the section), the position of
 * its row in the document (0 for the first), and where that row starts and ends in the document.
 */
export const ROW_FIELDS = 6;

/** What a cached document is keyed on, taken before either file is read. */
export interface ListKey {
  /** hookpm's version and the identities of the state and the verdicts. */
  identity: string;
  /** The state's identity alone (statsIdentity). */
  state: string;
  /** Whether both files are older than the racy window, so a document may be kept under it. */
  settled: boolean;
  /** What kept rows hold under: hookpm's version and the verdicts' identity. */
  rows: string;
  /** Whether the verdicts are older than the racy window, so rows may be kept under `rows`. */
  rowsSettled: boolean;
}

/** The list file kept last, open: its document and, when they hold under the key, its rows. */
export interface KeptList {
  file: string;
  fd: number;
  /** Where in the file the document starts, and its length. */
  documentAt: number;
  documentLength: number;
  rows: KeptRows | null;
}

export interface KeptRows {
  count: number;
  /** ROW_FIELDS numbers per entry (ROW_FIELDS). */
  index: Uint32Array;
  /** Where in the file the section's bytes start, and their length. */
  sectionAt: number;
  sectionLength: number;
}

/** The rows of a document to keep with it. */
export interface RowsToKeep {
  index: Uint32Array;
  /** The state's `plugins` section they were made from, copied into the file. */
  section: FileRange;
  /** Whether the state is still as it was read: rows are kept only then. */
  unchanged: () => boolean;
}

/** A part of a document: text, or a range of the kept file (absolute offsets). */
export type DocumentPart = Buffer | { at: number; length: number };

function listCacheFile(paths: StorePaths): string {
  return join(paths.cache, 'list', 'user.json');
}

/** The key of the files as they are now, or null when the state cannot be statted (no cache). */
export function listKey(paths: StorePaths, now = Date.now()): ListKey | null {
  const state = identityOf(stateFile(paths));
  if (state === null) return null;
  const verdicts = identityOf(treeVerdictsFile(paths)) ?? { id: 'absent', ctimeMs: 0 };
  const version = readPackageVersion();
  return {
    identity: `${version} ${state.id} ${verdicts.id}`,
    state: state.id,
    settled: now - Math.max(state.ctimeMs, verdicts.ctimeMs) > RACY_MS,
    rows: `${version} ${verdicts.id}`,
    rowsSettled: LITTLE_ENDIAN && now - verdicts.ctimeMs > RACY_MS,
  };
}

/**
 * Hands the document kept under `key` (UTF-8) to `write` a piece at a time (a piece is reused
 * after `write` returns) and returns true; false when there is none (another key, or damaged). A
 * document kept under another key (the first list after a change) is told from its first line:
 * the rest, megabytes at thousands of plugins, is not read.
 */
export function writeKeptDocument(
  paths: StorePaths,
  key: ListKey,
  write: (bytes: Buffer) => void,
): boolean {
  const kept = openKeptList(paths, key.identity, null);
  if (kept === null) return false;
  try {
    writeDocument([{ at: kept.documentAt, length: kept.documentLength }], kept, write);
    return true;
  } finally {
    closeSync(kept.fd);
  }
}

/**
 * The list file kept last, open (the caller closes `fd`), whatever key its document has, with its
 * rows when they were kept under `key.rows`; null when there is none or it is damaged. The
 * document's last bytes are checked; the rows' numbers are the reader's to check.
 */
export function openListFile(paths: StorePaths, key: ListKey): KeptList | null {
  return openKeptList(paths, null, key.rows);
}

/**
 * The kept file when its document has the key `identity` (any key for null), with its rows when
 * `rows` is their key; null when it has another key or is damaged.
 */
function openKeptList(
  paths: StorePaths,
  identity: string | null,
  rows: string | null,
): KeptList | null {
  const file = listCacheFile(paths);
  let fd: number;
  try {
    fd = openRegularFile(file, { maxBytes: MAX_BYTES });
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const head = readLine(fd, 0, size);
    const fields = head === null ? null : /^(\S+) (\d{1,12}) (.+)$/.exec(head.line);
    if (head === null || fields === null || fields[1] !== FORMAT) return close(fd);
    if (identity !== null && fields[3] !== identity) return close(fd);
    const documentAt = head.end;
    const documentLength = Number(fields[2]);
    const documentEnd = documentAt + documentLength;
    if (documentLength < 2 || documentEnd > size) return close(fd);
    const last = Buffer.alloc(2);
    const whole: FileRange = { fd, at: 0, length: size };
    if (readRange(whole, last, documentEnd - 2, 2) !== 2 || last.toString('latin1') !== '}\n')
      return close(fd);
    const kept: KeptList = { file, fd, documentAt, documentLength, rows: null };
    if (rows !== null && documentEnd < size) kept.rows = readRows(fd, documentEnd, size, rows);
    return kept;
  } catch {
    return close(fd);
  }
}

/** The rows at `at` when they are kept under `key` and their lengths add up, else null. */
function readRows(fd: number, at: number, size: number, key: string): KeptRows | null {
  const line = readLine(fd, at, size);
  const fields = line === null ? null : /^(\S+) (\d{1,9}) (\d{1,12}) (.+)$/.exec(line.line);
  if (line === null || fields === null || fields[1] !== ROWS_FORMAT || fields[4] !== key)
    return null;
  const count = Number(fields[2]);
  const sectionLength = Number(fields[3]);
  const indexBytes = count * ROW_FIELDS * 4;
  if (line.end + indexBytes + sectionLength !== size) return null;
  const index = new Uint32Array(count * ROW_FIELDS);
  if (readRange({ fd, at: line.end, length: indexBytes }, index, 0, indexBytes) !== indexBytes)
    return null;
  return { count, index, sectionAt: line.end + indexBytes, sectionLength };
}

/**
 * Keeps a list file (never throws): the document, made of `parts` (ranges of them read from
 * `from`, the file kept before), under `identity` ('-': kept for its rows only), with `rows` kept
 * under `key.rows` when given.
 */
export function keepListFile(
  paths: StorePaths,
  key: ListKey,
  identity: string,
  parts: readonly DocumentPart[],
  from: KeptList | null,
  rows: RowsToKeep | null,
): void {
  try {
    mkdirSync(join(paths.cache, 'list'), { recursive: true });
    replaceFileWith(listCacheFile(paths), (write) => {
      write(Buffer.from(`${FORMAT} ${documentLength(parts)} ${identity}\n`));
      writeDocument(parts, from, write);
      if (rows === null) return;
      const count = rows.index.length / ROW_FIELDS;
      write(Buffer.from(`${ROWS_FORMAT} ${count} ${rows.section.length} ${key.rows}\n`));
      write(Buffer.from(rows.index.buffer, rows.index.byteOffset, rows.index.byteLength));
      const scratch = Buffer.allocUnsafeSlow(PIECE);
      if (!copyRange(rows.section, 0, rows.section.length, scratch, write) || !rows.unchanged())
        throw new Error('the state changed while it was read');
    });
  } catch {
    // A cache: the next list makes it again.
  }
}

/** The length of the document made of `parts`. */
function documentLength(parts: readonly DocumentPart[]): number {
  let length = 0;
  for (const part of parts) length += part.length;
  return length;
}

/** Hands the document made of `parts` to `write`, a piece at a time; a piece is reused after `write` returns. */
export function writeDocument(
  parts: readonly DocumentPart[],
  from: KeptList | null,
  write: (bytes: Buffer) => void,
): void {
  let scratch: Buffer | undefined;
  for (const part of parts) {
    if (Buffer.isBuffer(part)) {
      write(part);
      continue;
    }
    if (from === null) throw new Error('Assertion failed: a range of no kept file');
    scratch ??= Buffer.allocUnsafeSlow(PIECE);
    const range = { fd: from.fd, at: part.at, length: part.length };
    if (!copyRange(range, 0, part.length, scratch, write)) {
      throw new HookpmError('E_IO', `the list cache ${from.file} changed while it was read`, {
        hint: 'Run the command again.',
      });
    }
  }
}

/** The line at `at` without its line break, and where the next starts; null when there is none. */
function readLine(fd: number, at: number, size: number): { line: string; end: number } | null {
  const bytes = Buffer.alloc(Math.min(MAX_LINE, size - at));
  const got = readSync(fd, bytes, 0, bytes.length, at);
  const end = bytes.subarray(0, got).indexOf(0x0a);
  return end === -1 ? null : { line: bytes.toString('utf8', 0, end), end: at + end + 1 };
}

function close(fd: number): null {
  closeSync(fd);
  return null;
}

function identityOf(file: string): { id: string; ctimeMs: number } | null {
  try {
    const s = lstatSync(file, { bigint: true });
    return {
      id: statsIdentity(s),
      ctimeMs: Number(s.ctimeNs / 1_000_000n),
    };
  } catch {
    return null;
  }
}
