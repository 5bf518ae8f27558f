import { gzipSync } from 'node:zlib';

/** One regular file to put in an archive. */
export interface TarFileInput {
  /** The full entry name, `/`-separated (`package/hooks/hooks.json`). */
  path: string;
  /** 0o644 or 0o755; written as given. */
  mode: number;
  data: Uint8Array;
}

/**
 * npm's fixed entry time (1985-10-26T08:15:00Z), so a packed plugin's bytes never depend on when
 * or where its files were checked out.
 */
export const FIXED_MTIME_SECONDS = 499162500;

const BLOCK = 512;
/** gzip header byte 9, "operating system": 255 is "unknown", the same on every platform. */
const GZIP_OS_UNKNOWN = 0xff;

/**
 * A gzip-compressed POSIX ustar archive of `files`, in the order given, whose bytes depend on the
 * paths, modes and contents only: mtime FIXED_MTIME_SECONDS, uid/gid 0, empty user and group
 * names, no directory entries, no PAX times. A name that does not fit the ustar name/prefix
 * fields gets a PAX header carrying only `path`. The gzip header has mtime 0 and OS 255 and the
 * deflate level is fixed (9), so packing the same files twice gives the same bytes.
 */
export function createTarGz(files: readonly TarFileInput[]): Buffer {
  const parts: Buffer[] = [];
  for (const file of files) {
    const split = splitUstarName(file.path);
    if (split === null) {
      const record = paxRecord('path', file.path);
      parts.push(
        header({ name: 'package/PaxHeader', mode: 0o644, size: record.length, type: 'x' }),
      );
      parts.push(record, padding(record.length));
    }
    const fits = split ?? { prefix: '', name: file.path.slice(-100).replace(/^[^/]*\//, '') };
    parts.push(header({ ...fits, mode: file.mode, size: file.data.length, type: '0' }));
    parts.push(Buffer.from(file.data), padding(file.data.length));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  const gz = gzipSync(Buffer.concat(parts), { level: 9 });
  gz[9] = GZIP_OS_UNKNOWN;
  return gz;
}

interface HeaderFields {
  name: string;
  prefix?: string;
  mode: number;
  size: number;
  type: '0' | 'x';
}

function header(fields: HeaderFields): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(fields.name, 0, 100, 'utf8');
  writeOctal(block, 100, 8, fields.mode);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, fields.size);
  writeOctal(block, 136, 12, FIXED_MTIME_SECONDS);
  block.write(fields.type, 156, 1, 'latin1');
  block.write('ustar\u000000', 257, 8, 'latin1');
  block.write(fields.prefix ?? '', 345, 155, 'utf8');
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'latin1');
  return block;
}

/** Zero-padded octal digits followed by a NUL, filling `length` bytes. */
function writeOctal(block: Buffer, offset: number, length: number, value: number): void {
  const digits = value.toString(8).padStart(length - 1, '0');
  if (digits.length > length - 1)
    throw new Error(`Assertion failed: ${value} does not fit a tar field`);
  block.write(`${digits}\u0000`, offset, length, 'latin1');
}

/** ustar keeps a name of up to 100 bytes, or a prefix of up to 155 and a name of up to 100 split at a `/`. */
function splitUstarName(path: string): { prefix: string; name: string } | null {
  if (Buffer.byteLength(path) <= 100) return { prefix: '', name: path };
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
    const prefix = path.slice(0, at);
    const name = path.slice(at + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name !== '')
      return { prefix, name };
  }
  return null;
}

/** A PAX record `"<len> <key>=<value>\n"`, where `<len>` counts the whole record, itself included. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  const bodyBytes = Buffer.byteLength(body);
  let length = bodyBytes + 1;
  while (String(length).length + bodyBytes !== length) length += 1;
  return Buffer.from(`${length}${body}`, 'utf8');
}

function padding(size: number): Buffer {
  const rest = size % BLOCK;
  return Buffer.alloc(rest === 0 ? 0 : BLOCK - rest);
}
