import { PIECE, readRange } from './file-range.js';
import type { FileRange } from './file-range.js';

const NEWLINE = 0x0a;

/**
 * The lines of a buffer, or of a file range read a piece at a time through a scratch buffer of
 * the reader's own (never whole: megabytes read into fresh memory cost a page fault per 4 KiB, and
 * more again at their first reading, file-range.ts). A line longer than the scratch buffer grows
 * it. After `next`, the current line is `bytes` [start, end), `end` being its line break, and
 * `bytes[0]` is at `base` in the source; these stand until the next call of `next`.
 */
export class RangeLines {
  bytes: Buffer;
  base = 0;
  start = 0;
  end = -1;
  private readonly range: FileRange | null;
  /** Bytes of the range read so far (`base + bytes.length`). */
  private read = 0;
  private scratch: Buffer;

  constructor(source: Buffer | FileRange) {
    if (Buffer.isBuffer(source)) {
      this.range = null;
      this.scratch = source;
      this.bytes = source;
    } else {
      this.range = source;
      this.scratch = Buffer.allocUnsafe(Math.min(PIECE, Math.max(source.length, 1)));
      this.bytes = this.scratch.subarray(0, 0);
    }
  }

  /**
   * Moves to the next line: false when no line break ends one (the source ended, exactly after
   * the last line or within one).
   */
  next(): boolean {
    let start = this.end + 1;
    let from = start;
    for (;;) {
      const end = this.bytes.indexOf(NEWLINE, from);
      if (end !== -1) {
        this.start = start;
        this.end = end;
        return true;
      }
      const kept = this.bytes.length - start;
      if (!this.fill(start)) {
        this.start = start;
        this.end = start - 1;
        return false;
      }
      start = 0;
      from = kept;
      this.end = -1;
    }
  }

  /** The current line as UTF-8 text, without its line break. */
  text(): string {
    return this.bytes.toString('utf8', this.start, this.end);
  }

  /** Whether the source ends with the current line's line break. */
  atEnd(): boolean {
    return this.end + 1 === this.bytes.length && this.read === (this.range?.length ?? this.read);
  }

  /** Keeps `bytes` from `from` on, at the scratch buffer's start, and reads more after them. */
  private fill(from: number): boolean {
    const range = this.range;
    if (range === null || this.read === range.length) return false;
    const kept = this.bytes.length - from;
    if (kept === this.scratch.length) {
      const larger = Buffer.allocUnsafe(this.scratch.length * 2);
      this.bytes.copy(larger, 0, from);
      this.scratch = larger;
    } else {
      this.bytes.copy(this.scratch, 0, from);
    }
    const want = Math.min(this.scratch.length - kept, range.length - this.read);
    const got = readRange(range, this.scratch.subarray(kept), this.read, want);
    this.base += from;
    this.read += got;
    this.bytes = this.scratch.subarray(0, kept + got);
    return got > 0;
  }
}
