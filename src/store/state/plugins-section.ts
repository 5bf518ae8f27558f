import { closeSync, fstatSync } from 'node:fs';
import type { FileRange } from '../../io/file-range.js';
import { PIECE, readRange } from '../../io/file-range.js';
import { openRegularFile } from '../../io/read-regular-file.js';
import { STATE_MAX_BYTES } from './read-state-bytes.js';

/**
 * registry.md S42: the `plugins` section of a state file in hookpm's layout (state-lines.ts), its
 * entry lines, found without reading the file into memory: after the line that opens it (which
 * can be nowhere else: a value holds no raw line break) up to the lines that close it and the
 * document. The file is opened as readStateBytes opens it (a regular file, not a symlink, within
 * STATE_MAX_BYTES); the caller closes `fd`. Null when the file is not laid out so; throws what
 * the open throws (ENOENT: no state yet).
 */
export function openPluginsSection(file: string): FileRange | null {
  const fd = openRegularFile(file, { maxBytes: STATE_MAX_BYTES });
  try {
    const size = fstatSync(fd).size;
    const whole: FileRange = { fd, at: 0, length: size };
    const open = findFrom(whole, OPEN);
    const at = open + OPEN.length;
    const end = size - END.length;
    if (open === -1 || end < at) return closed(fd);
    const tail = Buffer.alloc(END.length);
    if (readRange(whole, tail, end, END.length) !== END.length || !tail.equals(END))
      return closed(fd);
    return { fd, at, length: end - at };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

const OPEN = Buffer.from('\n"plugins":{\n');
const END = Buffer.from('}\n}\n');

function closed(fd: number): null {
  closeSync(fd);
  return null;
}

/** Where `needle` first is in `range` (pieces overlap by its length), or -1. */
function findFrom(range: FileRange, needle: Buffer): number {
  const scratch = Buffer.allocUnsafe(PIECE);
  for (let at = 0; at < range.length; at += scratch.length - needle.length) {
    const got = readRange(range, scratch, at, Math.min(scratch.length, range.length - at));
    const found = scratch.subarray(0, got).indexOf(needle);
    if (found !== -1) return at + found;
    if (got < scratch.length) return -1;
  }
  return -1;
}
