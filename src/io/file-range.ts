import { readSync } from 'node:fs';

/**
 * A range of an open file, read a piece at a time rather than whole: megabytes read into the heap
 * cost a page fault per 4 KiB on top of the copy, which a reused scratch buffer pays once.
 */
export interface FileRange {
  fd: number;
  /** Where the range starts in the file, and its length. */
  at: number;
  length: number;
}

/** The size of the pieces read. */
export const PIECE = 64 * 1024;

/**
 * Reads `range`'s bytes [start, start + length) into `into` (any view, as bytes) from its first
 * byte; how many were read, fewer only where the file ends first.
 */
export function readRange(
  range: FileRange,
  into: NodeJS.ArrayBufferView,
  start: number,
  length: number,
): number {
  let done = 0;
  while (done < length) {
    const got = readSync(range.fd, into, done, length - done, range.at + start + done);
    if (got === 0) break;
    done += got;
  }
  return done;
}

/** `range`'s bytes [start, end) in a new buffer, or null when the file ends first. */
export function rangeBytes(range: FileRange, start: number, end: number): Buffer | null {
  const bytes = Buffer.allocUnsafe(end - start);
  return readRange(range, bytes, start, end - start) === bytes.length ? bytes : null;
}

/**
 * Hands `range`'s bytes [start, end) to `write` a piece at a time, through `scratch` (reused once
 * `write` returns); false when the file ends first.
 */
export function copyRange(
  range: FileRange,
  start: number,
  end: number,
  scratch: Buffer,
  write: (bytes: Buffer) => void,
): boolean {
  for (let done = start; done < end;) {
    const want = Math.min(scratch.length, end - done);
    if (readRange(range, scratch, done, want) !== want) return false;
    write(scratch.subarray(0, want));
    done += want;
  }
  return true;
}

/**
 * How many bytes, at most `limit`, `a` and `b` have in common from their start, or from their
 * end (`fromEnd`), read a piece of each at a time through `scratch` (two buffers of PIECE bytes).
 */
export function commonLength(
  a: FileRange,
  b: FileRange,
  limit: number,
  fromEnd: boolean,
  [sa, sb]: readonly [Buffer, Buffer],
): number {
  let done = 0;
  while (done < limit) {
    const want = Math.min(PIECE, limit - done);
    const at = (range: FileRange): number => (fromEnd ? range.length - done - want : done);
    if (readRange(a, sa, at(a), want) !== want || readRange(b, sb, at(b), want) !== want)
      return done;
    if (sa.compare(sb, 0, want, 0, want) === 0) {
      done += want;
      continue;
    }
    // The first `lo` bytes from the chosen end are alike, and a difference lies in the next
    // `hi - lo`.
    let lo = 0;
    let hi = want;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      const [from, to] = fromEnd ? [want - mid, want - lo] : [lo, mid];
      if (sa.compare(sb, from, to, from, to) === 0) lo = mid;
      else hi = mid;
    }
    return done + lo;
  }
  return done;
}
