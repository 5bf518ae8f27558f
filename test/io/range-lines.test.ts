/**
 * registry.md S42: the state file's lines are scanned a piece at a time from the open file
 * (src/io/range-lines.ts), never read whole for the scan; the lines and their offsets are the ones
 * a whole buffer gives, wherever the pieces end.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PIECE } from '../../src/io/file-range.js';
import { RangeLines } from '../../src/io/range-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'hookpm-range-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** Every line `lines` gives, with its offset in the source, and whether it ended at the end. */
function readAll(lines: RangeLines): { lines: Array<[number, string]>; atEnd: boolean } {
  const out: Array<[number, string]> = [];
  while (lines.next()) out.push([lines.base + lines.start, lines.text()]);
  return { lines: out, atEnd: lines.atEnd() };
}

/** `bytes` written to a file, read through RangeLines over `at`.. of it. */
function fromFile(bytes: Buffer, at = 0): ReturnType<typeof readAll> {
  const file = join(dir, `${(n += 1)}.txt`);
  writeFileSync(file, bytes);
  const fd = openSync(file, 'r');
  try {
    return readAll(new RangeLines({ fd, at, length: bytes.length - at }));
  } finally {
    closeSync(fd);
  }
}

/** The lines of `bytes` split by hand: what every reader must give. */
function expected(bytes: Buffer): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  let at = 0;
  for (;;) {
    const end = bytes.indexOf(0x0a, at);
    if (end === -1) return out;
    out.push([at, bytes.toString('utf8', at, end)]);
    at = end + 1;
  }
}

describe('RangeLines (registry.md S42)', () => {
  it('S42: lines that cross the pieces, and lines longer than a piece, read as from a whole buffer', () => {
    const lines: string[] = [];
    for (let i = 0; i < 400; i += 1) lines.push(`"p${i}@x":${'é'.repeat(i * 3)}`);
    lines.push(`"long":"${'x'.repeat(3 * PIECE + 17)}"`, '', '}');
    const bytes = Buffer.from(`${lines.join('\n')}\n`);
    expect(bytes.length).toBeGreaterThan(4 * PIECE);
    const whole = readAll(new RangeLines(bytes));
    expect(whole).toEqual({ lines: expected(bytes), atEnd: true });
    expect(fromFile(bytes)).toEqual(whole);
  });

  it('S42: a last line without its line break is no line, and the source is not at its end', () => {
    const bytes = Buffer.from('{"version":1,\n"registries":{},\n}');
    for (const read of [readAll(new RangeLines(bytes)), fromFile(bytes)]) {
      expect(read.lines.map(([, text]) => text)).toEqual(['{"version":1,', '"registries":{},']);
      expect(read.atEnd).toBe(false);
    }
  });

  it('S42: offsets count from the range’s start when it starts inside the file', () => {
    const body = Buffer.from(`${Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n')}\n`);
    const bytes = Buffer.concat([Buffer.from('head\n'), body]);
    const read = fromFile(bytes, 5);
    expect(read.atEnd).toBe(true);
    expect(read.lines).toEqual(expected(body));
  });

  it('S42: an empty source has no line and is at its end', () => {
    expect(readAll(new RangeLines(Buffer.alloc(0)))).toEqual({ lines: [], atEnd: true });
    expect(fromFile(Buffer.alloc(0))).toEqual({ lines: [], atEnd: true });
  });
});
