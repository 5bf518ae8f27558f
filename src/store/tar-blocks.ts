import { HookpmError } from '../errors.js';
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

type State =
  | { kind: 'header'; zeros: number }
  | {
      kind: 'data';
      remaining: number;
      padding: number;
      meta: { typeflag: string; chunks: Buffer[] } | null;
    }
  | { kind: 'trailer' };

/**
 * The tar block state machine over decompressed bytes: `push` them in order, then `finish`.
 * Applies PAX (`path`, `size`, `linkpath`) and GNU long names (`L`, `K`) to the next entry,
 * refuses a global PAX header that sets a path or size, a lone zero block, data after the end
 * marker and a missing end marker.
 */
export function createBlockParser(visitor: TarVisitor, limits: MetaLimits) {
  let state: State = { kind: 'header', zeros: 0 };
  let partial = Buffer.alloc(0);
  let pax = new Map<string, string>();
  let longName: string | undefined;
  let longLink: string | undefined;

  const onHeader = async (block: Buffer): Promise<void> => {
    const zeros = state.kind === 'header' ? state.zeros : 0;
    const header = decodeTarHeader(block);
    if (header === 'zero') {
      state = zeros === 1 ? { kind: 'trailer' } : { kind: 'header', zeros: 1 };
      return;
    }
    if (zeros === 1)
      throw new HookpmError('E_ARCHIVE_CORRUPT', 'a lone zero block inside the archive');
    if ('xgLK'.includes(header.typeflag)) {
      if (header.size > limits.maxMetaBytes) {
        throw new HookpmError(
          'E_ARCHIVE_TOO_LARGE',
          `an extended header of ${header.size} bytes (limit ${limits.maxMetaBytes})`,
        );
      }
      startData(header.size, { typeflag: header.typeflag, chunks: [] });
      if (header.size === 0) applyMeta(header.typeflag, Buffer.alloc(0));
      return;
    }
    const entry = applyPending(header);
    await visitor.entry(entry);
    startData(entry.size, null);
    if (entry.size === 0) await visitor.end();
  };

  const applyPending = (header: TarHeader): TarEntry => {
    const size = pax.get('size');
    if (size !== undefined && !/^\d{1,15}$/.test(size))
      throw new HookpmError('E_ARCHIVE_CORRUPT', 'malformed PAX size');
    const path = pax.get('path') ?? longName ?? header.path;
    const entry: TarEntry = {
      path,
      type: TYPES[header.typeflag] ?? 'other',
      typeflag: header.typeflag,
      size: size === undefined ? header.size : Number(size),
      mode: header.mode,
      linkname: pax.get('linkpath') ?? longLink ?? header.linkname,
    };
    // Old tars mark directories as files whose name ends in "/" (tar and GNU tar agree).
    if (entry.type === 'file' && path.endsWith('/')) entry.type = 'directory';
    pax = new Map();
    longName = undefined;
    longLink = undefined;
    return entry;
  };

  const applyMeta = (typeflag: string, data: Buffer): void => {
    if (typeflag === 'x') pax = parsePaxRecords(data);
    else if (typeflag === 'g') {
      const global = parsePaxRecords(data);
      if (['path', 'size', 'linkpath'].some((key) => global.has(key))) {
        throw new HookpmError(
          'E_ARCHIVE_UNSAFE',
          'a global PAX header sets path, size or linkpath',
        );
      }
    } else if (typeflag === 'L') longName = decodeString(stripOneNul(data), 'long name');
    else longLink = decodeString(stripOneNul(data), 'long link name');
    state = { kind: 'header', zeros: 0 };
  };

  const startData = (size: number, meta: { typeflag: string; chunks: Buffer[] } | null): void => {
    const padding = (BLOCK - (size % BLOCK)) % BLOCK;
    state =
      size === 0 ? { kind: 'header', zeros: 0 } : { kind: 'data', remaining: size, padding, meta };
  };

  const push = async (input: Buffer): Promise<void> => {
    const chunk = partial.length > 0 ? Buffer.concat([partial, input]) : input;
    partial = Buffer.alloc(0);
    let pos = 0;
    while (pos < chunk.length) {
      if (state.kind === 'trailer') {
        if (!isAllZero(chunk.subarray(pos)))
          throw new HookpmError('E_ARCHIVE_CORRUPT', 'data after the end-of-archive marker');
        return;
      }
      if (state.kind === 'data') {
        pos = await pushData(state, chunk, pos);
        continue;
      }
      if (chunk.length - pos < BLOCK) {
        partial = Buffer.from(chunk.subarray(pos));
        return;
      }
      await onHeader(chunk.subarray(pos, pos + BLOCK));
      pos += BLOCK;
    }
  };

  const pushData = async (
    current: State & { kind: 'data' },
    chunk: Buffer,
    pos: number,
  ): Promise<number> => {
    if (current.remaining > 0) {
      const piece = chunk.subarray(pos, pos + current.remaining);
      current.remaining -= piece.length;
      if (current.meta !== null) current.meta.chunks.push(Buffer.from(piece));
      else await visitor.data(piece);
      pos += piece.length;
      if (current.remaining > 0) return pos;
    }
    const skip = Math.min(current.padding, chunk.length - pos);
    current.padding -= skip;
    pos += skip;
    if (current.padding > 0) return pos;
    if (current.meta !== null) applyMeta(current.meta.typeflag, Buffer.concat(current.meta.chunks));
    else {
      state = { kind: 'header', zeros: 0 };
      await visitor.end();
    }
    return pos;
  };

  const finish = (): void => {
    if (state.kind === 'trailer') return;
    const where = state.kind === 'data' ? 'inside an entry' : 'before the end-of-archive marker';
    throw new HookpmError('E_ARCHIVE_CORRUPT', `the archive is truncated (it ends ${where})`);
  };

  return { push, finish };
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
