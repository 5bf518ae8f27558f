import { HookpmError } from '../../errors.js';
import { clip } from '../../text/clip.js';
import { strictUtf8 } from '../../text/strict-utf8.js';

/**
 * Decoding of one 512-byte tar header block and of PAX records (POSIX.1-2001 ustar/pax, GNU long
 * names), strictly: every oddity is an error, never a guess. Errors carry no file name; the reader
 * adds it. See https://pubs.opengroup.org/onlinepubs/9699919799/utilities/pax.html
 */
export interface TarHeader {
  /** The name as stored: `prefix/name` for POSIX ustar, else the name field. */
  path: string;
  mode: number;
  size: number;
  /** The typeflag character; `'\0'` is reported as `'0'`. */
  typeflag: string;
  linkname: string;
}

export const BLOCK = 512;

/** `'zero'` for an all-zero block (end-of-archive marker), else the header. */
export function decodeTarHeader(block: Buffer): TarHeader | 'zero' {
  if (block.length !== BLOCK) throw new Error('Assertion failed: a tar header is 512 bytes');
  if (block.every((byte) => byte === 0)) return 'zero';
  checkChecksum(block);
  const name = decodeString(block.subarray(0, 100), 'name');
  const posix = block.subarray(257, 263).toString('latin1') === 'ustar\0';
  const prefix = posix ? decodeString(block.subarray(345, 500), 'name prefix') : '';
  const typeflag = block[156] === 0 ? '0' : String.fromCharCode(block[156] ?? 0);
  return {
    path: prefix === '' ? name : `${prefix}/${name}`,
    mode: decodeNumber(block.subarray(100, 108), 'mode'),
    size: decodeNumber(block.subarray(124, 136), 'size'),
    typeflag,
    linkname: decodeString(block.subarray(157, 257), 'link name'),
  };
}

/**
 * A NUL-terminated field. Bytes after the terminator must be NUL too: a name like `a\0b` would be
 * read differently by different tools, so it is refused (security.md: names with NUL).
 */
export function decodeString(field: Buffer, what: string): string {
  const end = field.indexOf(0);
  const text = end === -1 ? field : field.subarray(0, end);
  if (end !== -1 && field.subarray(end).some((byte) => byte !== 0)) {
    let last = field.length;
    while (last > 0 && field[last - 1] === 0) last -= 1;
    const shown = JSON.stringify(clip(field.subarray(0, last).toString('utf8')));
    throw new HookpmError('E_ARCHIVE_UNSAFE', `the ${what} ${shown} contains a NUL byte`);
  }
  const decoded = strictUtf8(text, 'drop');
  if (decoded === null) throw new HookpmError('E_ARCHIVE_UNSAFE', `the ${what} is not valid UTF-8`);
  return decoded;
}

/** Octal (NUL/space padded) or GNU base-256 for large values; negative or malformed is corrupt. */
function decodeNumber(field: Buffer, what: string): number {
  const first = field[0] ?? 0;
  if (first & 0x80) {
    if (first === 0xff) throw new HookpmError('E_ARCHIVE_CORRUPT', `negative ${what} in a header`);
    let value = first & 0x7f;
    for (const byte of field.subarray(1)) value = value * 256 + byte;
    return value;
  }
  const text = field
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .replace(/^ +/, '');
  if (!/^[0-7]*$/.test(text))
    throw new HookpmError('E_ARCHIVE_CORRUPT', `malformed ${what} field in a header`);
  return text === '' ? 0 : parseInt(text, 8);
}

/** The checksum counts the checksum field as spaces; historic writers summed signed bytes. */
function checkChecksum(block: Buffer): void {
  const stored = decodeNumber(block.subarray(148, 156), 'checksum');
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i += 1) {
    const byte = i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0);
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  if (stored !== unsigned && stored !== signed) {
    throw new HookpmError(
      'E_ARCHIVE_CORRUPT',
      'header checksum mismatch (not a tar archive, or a damaged one)',
    );
  }
}

/** PAX extended header records `"<len> <key>=<value>\n"`; a malformed record is corrupt. */
export function parsePaxRecords(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let pos = 0;
  while (pos < data.length) {
    if (data[pos] === 0 && data.subarray(pos).every((byte) => byte === 0)) break;
    const space = data.indexOf(0x20, pos);
    const lengthText = space === -1 ? '' : data.subarray(pos, space).toString('latin1');
    const length = /^[1-9]\d{0,7}$/.test(lengthText) ? Number(lengthText) : NaN;
    const end = pos + length;
    if (Number.isNaN(length) || end > data.length || data[end - 1] !== 0x0a) {
      throw new HookpmError('E_ARCHIVE_CORRUPT', 'malformed PAX extended header record');
    }
    const record = data.subarray(space + 1, end - 1);
    const equals = record.indexOf(0x3d);
    if (equals <= 0)
      throw new HookpmError('E_ARCHIVE_CORRUPT', 'malformed PAX extended header record');
    const key = strictUtf8(record.subarray(0, equals), 'drop');
    const value = strictUtf8(record.subarray(equals + 1), 'drop');
    if (key === null || value === null)
      throw new HookpmError('E_ARCHIVE_UNSAFE', 'a PAX extended header record is not valid UTF-8');
    records.set(key, value);
    pos = end;
  }
  return records;
}
