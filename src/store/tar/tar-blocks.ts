import { HookpmError } from '../../errors.js';
import { BLOCK, decodeString, decodeTarHeader, parsePaxRecords } from './tar-header.js';
import type { TarHeader } from './tar-header.js';

export type TarEntryType =
  | 'file'
  | 'directory'
  | 'symlink'
  | 'hardlink'
  | 'character-device'
  | 'block-device'
  | 'fifo'
  | 'other';

/** One archive member with PAX and GNU long-name headers already applied. */
export interface TarEntry {
  path: string;
  type: TarEntryType;
  typeflag: string;
  size: number;
  mode: number;
  linkname: string;
}

/**
 * Called in archive order: `entry` before the member's data, `data` for each piece of it, `end`
 * after it. Throwing (or rejecting) from any of them stops the read at once; awaiting them is the
 * read's back-pressure.
 */
export interface TarVisitor {
  entry(entry: TarEntry): void | Promise<void>;
  data(chunk: Buffer): void | Promise<void>;
  end(): void | Promise<void>;
}

const TYPES: Record<string, TarEntryType> = {
  '0': 'file',
  '1': 'hardlink',
  '2': 'symlink',
  '3': 'character-device',
  '4': 'block-device',
  '5': 'directory',
  '6': 'fifo',
};

/** What the block parser needs of the read limits. */
export interface MetaLimits {
  /** Largest PAX or GNU long-name header accepted. */
  maxMetaBytes: number;
}

type MetaData = { typeflag: string; chunks: Buffer[] };

type State =
  | { kind: 'header'; zeros: number }
  | { kind: 'data'; remaining: number; padding: number; meta: MetaData | null }
  | { kind: 'trailer' };

/** PAX (`x`) records and GNU long names (`L`, `K`) read so far, applied to the next entry. */
interface Pending {
  pax: Map<string, string>;
  longName: string | undefined;
  longLink: string | undefined;
}

interface Parser {
  visitor: TarVisitor;
  limits: MetaLimits;
  state: State;
  /** Bytes of a header block not complete yet. */
  partial: Buffer;
  pending: Pending;
}

/** What a block parser offers: bytes in archive order, then the end of input. */
export interface BlockParser {
  push(input: Buffer): Promise<void>;
  finish(): void;
}

/**
 * The tar block state machine over decompressed bytes: `push` them in order, then `finish`.
 * Applies PAX (`path`, `size`, `linkpath`) and GNU long names (`L`, `K`) to the next entry,
 * refuses a global PAX header that sets a path or size, a lone zero block, data after the end
 * marker and a missing end marker.
 */
export function createBlockParser(visitor: TarVisitor, limits: MetaLimits): BlockParser {
  const parser: Parser = {
    visitor,
    limits,
    state: { kind: 'header', zeros: 0 },
    partial: Buffer.alloc(0),
    pending: emptyPending(),
  };
  return { push: (input) => push(parser, input), finish: () => finish(parser) };
}

async function push(parser: Parser, input: Buffer): Promise<void> {
  const chunk = parser.partial.length > 0 ? Buffer.concat([parser.partial, input]) : input;
  parser.partial = Buffer.alloc(0);
  let pos = 0;
  while (pos < chunk.length) {
    const state = parser.state;
    if (state.kind === 'trailer') {
      if (!isAllZero(chunk.subarray(pos)))
        throw new HookpmError('E_ARCHIVE_CORRUPT', 'data after the end-of-archive marker');
      return;
    }
    if (state.kind === 'data') {
      pos = await pushData(parser, state, chunk, pos);
      continue;
    }
    if (chunk.length - pos < BLOCK) {
      parser.partial = Buffer.from(chunk.subarray(pos));
      return;
    }
    await onHeader(parser, state.zeros, chunk.subarray(pos, pos + BLOCK));
    pos += BLOCK;
  }
}

function finish(parser: Parser): void {
  const { state } = parser;
  if (state.kind === 'trailer') return;
  const where = state.kind === 'data' ? 'inside an entry' : 'before the end-of-archive marker';
  throw new HookpmError('E_ARCHIVE_CORRUPT', `the archive is truncated (it ends ${where})`);
}

/** One header block after `zeros` zero blocks: the end marker, a meta header or an entry. */
async function onHeader(parser: Parser, zeros: number, block: Buffer): Promise<void> {
  const header = decodeTarHeader(block);
  if (header === 'zero') {
    parser.state = zeros === 1 ? { kind: 'trailer' } : { kind: 'header', zeros: 1 };
    return;
  }
  if (zeros === 1)
    throw new HookpmError('E_ARCHIVE_CORRUPT', 'a lone zero block inside the archive');
  if ('xgLK'.includes(header.typeflag)) {
    checkMetaSize(header.size, parser.limits);
    parser.state = dataState(header.size, { typeflag: header.typeflag, chunks: [] });
    if (header.size === 0) applyMeta(parser.pending, header.typeflag, Buffer.alloc(0));
    return;
  }
  const entry = takeEntry(parser.pending, header);
  await parser.visitor.entry(entry);
  parser.state = dataState(entry.size, null);
  if (entry.size === 0) await parser.visitor.end();
}

/** Feeds the current member's data (or meta header's) from `pos`; returns the position after it. */
async function pushData(
  parser: Parser,
  current: State & { kind: 'data' },
  chunk: Buffer,
  pos: number,
): Promise<number> {
  if (current.remaining > 0) {
    const piece = chunk.subarray(pos, pos + current.remaining);
    current.remaining -= piece.length;
    if (current.meta !== null) current.meta.chunks.push(Buffer.from(piece));
    else await parser.visitor.data(piece);
    pos += piece.length;
    if (current.remaining > 0) return pos;
  }
  const skip = Math.min(current.padding, chunk.length - pos);
  current.padding -= skip;
  pos += skip;
  if (current.padding > 0) return pos;
  parser.state = { kind: 'header', zeros: 0 };
  if (current.meta !== null)
    applyMeta(parser.pending, current.meta.typeflag, Buffer.concat(current.meta.chunks));
  else await parser.visitor.end();
  return pos;
}

/** The state after a header whose member holds `size` bytes (padded to whole blocks). */
function dataState(size: number, meta: MetaData | null): State {
  const padding = (BLOCK - (size % BLOCK)) % BLOCK;
  return size === 0
    ? { kind: 'header', zeros: 0 }
    : { kind: 'data', remaining: size, padding, meta };
}

function checkMetaSize(size: number, limits: MetaLimits): void {
  if (size <= limits.maxMetaBytes) return;
  throw new HookpmError(
    'E_ARCHIVE_TOO_LARGE',
    `an extended header of ${size} bytes (limit ${limits.maxMetaBytes})`,
  );
}

function emptyPending(): Pending {
  return { pax: new Map(), longName: undefined, longLink: undefined };
}

/** Records a complete PAX or GNU long-name header for the next entry. */
function applyMeta(pending: Pending, typeflag: string, data: Buffer): void {
  if (typeflag === 'x') pending.pax = parsePaxRecords(data);
  else if (typeflag === 'g') checkGlobalPax(data);
  else if (typeflag === 'L') pending.longName = decodeString(stripOneNul(data), 'long name');
  else pending.longLink = decodeString(stripOneNul(data), 'long link name');
}

function checkGlobalPax(data: Buffer): void {
  const global = parsePaxRecords(data);
  if (['path', 'size', 'linkpath'].some((key) => global.has(key)))
    throw new HookpmError('E_ARCHIVE_UNSAFE', 'a global PAX header sets path, size or linkpath');
}

/** The entry `header` describes with the pending PAX records and long names applied; clears them. */
function takeEntry(pending: Pending, header: TarHeader): TarEntry {
  const { pax } = pending;
  const size = pax.get('size');
  if (size !== undefined && !/^\d{1,15}$/.test(size))
    throw new HookpmError('E_ARCHIVE_CORRUPT', 'malformed PAX size');
  const path = pax.get('path') ?? pending.longName ?? header.path;
  const entry: TarEntry = {
    path,
    type: TYPES[header.typeflag] ?? 'other',
    typeflag: header.typeflag,
    size: size === undefined ? header.size : Number(size),
    mode: header.mode,
    linkname: pax.get('linkpath') ?? pending.longLink ?? header.linkname,
  };
  // Old tars mark directories as files whose name ends in "/" (tar and GNU tar agree).
  if (entry.type === 'file' && path.endsWith('/')) entry.type = 'directory';
  Object.assign(pending, emptyPending());
  return entry;
}

/** GNU long names are stored with one terminating NUL (counted in the size). */
function stripOneNul(data: Buffer): Buffer {
  return data.length > 0 && data[data.length - 1] === 0 ? data.subarray(0, data.length - 1) : data;
}

const ZEROS = Buffer.alloc(64 * 1024);

function isAllZero(data: Buffer): boolean {
  for (let pos = 0; pos < data.length; pos += ZEROS.length) {
    const piece = data.subarray(pos, pos + ZEROS.length);
    if (!piece.equals(ZEROS.subarray(0, piece.length))) return false;
  }
  return true;
}
