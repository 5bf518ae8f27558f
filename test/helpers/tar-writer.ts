import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';

/**
 * Writes raw ustar blocks byte by byte, so tests can build the hostile archives no tar tool would
 * create (`..` names, NUL in names, devices, lying sizes, missing end markers).
 */
export interface RawEntry {
  /** The name field (at most 100 bytes, UTF-8); may hold NUL, ESC, newline, `\`, anything. */
  name: string;
  /** The typeflag character: '0' file (default), '1' hardlink, '2' symlink, '3' char device, '4' block device, '5' dir, '6' FIFO, 'x' PAX, 'g' global PAX, 'L' GNU long name. */
  type?: string;
  mode?: number;
  data?: Buffer | string;
  /** The declared size, when it must differ from the data's length. */
  size?: number;
  linkname?: string;
  prefix?: string;
}

export const END_OF_ARCHIVE = Buffer.alloc(1024);

export function tarHeader(entry: RawEntry): Buffer {
  const block = Buffer.alloc(512);
  const data = toBuffer(entry.data);
  writeField(block, 0, 100, entry.name);
  writeOctal(block, 100, 8, entry.mode ?? (entry.type === '5' ? 0o755 : 0o644));
  writeOctal(block, 108, 8, 1000);
  writeOctal(block, 116, 8, 1000);
  writeOctal(block, 124, 12, entry.size ?? data.length);
  writeOctal(block, 136, 12, 1_700_000_000);
  block.write(entry.type ?? '0', 156, 1, 'latin1');
  writeField(block, 157, 100, entry.linkname ?? '');
  block.write('ustar\u000000', 257, 8, 'latin1');
  writeField(block, 265, 32, 'alice');
  writeField(block, 297, 32, 'staff');
  writeField(block, 345, 155, entry.prefix ?? '');
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'latin1');
  return block;
}

/** Header, data and padding to a whole block. */
export function tarEntry(entry: RawEntry): Buffer {
  const data = toBuffer(entry.data);
  const padding = Buffer.alloc((512 - (data.length % 512)) % 512);
  return Buffer.concat([tarHeader(entry), data, padding]);
}

/** An uncompressed archive of `entries` with the end-of-archive marker. */
export function tarOf(entries: readonly RawEntry[]): Buffer {
  return Buffer.concat([...entries.map(tarEntry), END_OF_ARCHIVE]);
}

/** A PAX extended header entry ('x', or 'g' for a global one) carrying `records`. */
export function paxEntry(records: Record<string, string>, type: 'x' | 'g' = 'x'): RawEntry {
  const lines = Object.entries(records).map(([key, value]) => paxRecord(key, value));
  return { name: 'PaxHeader/entry', type, data: Buffer.concat(lines) };
}

/** A GNU long-name entry ('L') naming the entry after it. */
export function longNameEntry(name: string): RawEntry {
  return {
    name: '././@LongLink',
    type: 'L',
    data: Buffer.concat([Buffer.from(name), Buffer.alloc(1)]),
  };
}

export async function writeTgz(file: string, entries: readonly RawEntry[] | Buffer): Promise<void> {
  await writeFile(file, gzipSync(Buffer.isBuffer(entries) ? entries : tarOf(entries)));
}

/** Gzips a stream of parts into `file` without holding it in memory (for gzip bombs). */
export async function writeTgzStream(
  file: string,
  parts: Iterable<Buffer> | AsyncIterable<Buffer>,
): Promise<void> {
  await pipeline(Readable.from(parts), createGzip({ level: 1 }), createWriteStream(file));
}

function paxRecord(key: string, value: string): Buffer {
  const body = Buffer.from(` ${key}=${value}\n`);
  let length = body.length + 1;
  while (String(length).length + body.length !== length) length += 1;
  return Buffer.concat([Buffer.from(String(length)), body]);
}

function writeField(block: Buffer, offset: number, size: number, text: string): void {
  const bytes = Buffer.from(text);
  if (bytes.length > size)
    throw new Error(`tar-writer: "${text.slice(0, 40)}..." does not fit ${size} bytes`);
  bytes.copy(block, offset);
}

function writeOctal(block: Buffer, offset: number, size: number, value: number): void {
  block.write(`${value.toString(8).padStart(size - 1, '0')}\0`, offset, size, 'latin1');
}

function toBuffer(data: Buffer | string | undefined): Buffer {
  if (data === undefined) return Buffer.alloc(0);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}
