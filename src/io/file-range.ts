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
 * Reads `range`'s bytes [start, start + length) into `into` from its first byte; how many were
 * read, fewer only where the file ends first.
 */
export function readRange(range: FileRange, into: Buffer, start: number, length: number): number {
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
