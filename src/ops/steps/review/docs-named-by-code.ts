import { closeSync, fstatSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { openRegularFile } from '../../../io/read-regular-file.js';
import type { RoledFile } from '../../../plugin/code-files.js';
import { byteView, scanForNames } from '../../../plugin/file-names-in-text.js';

/** How much of a file is read at a time. */
const PIECE = 1024 * 1024;
/** The byte-order mark of a UTF-16 text, little- or big-endian, as latin1 characters. */
const UTF16_BOM = /^(?:\xff\xfe|\xfe\xff)/;

/**
 * `files`, one tree's (under `root`, roles from plugin/code-files.ts), with every documentation
 * file that a code file names made code, then every documentation file one of those names, and so
 * on (docs/guides/installing-plugins.md#consent; what "names" means: plugin/file-names-in-text.ts).
 * The manifest and the hooks documents count as documentation here: the surface compares only
 * their hooks, so one a script reads (a setting in `plugin.json` it acts on) is compared whole.
 * Each file is read at most once, whole, in pieces, and only while some documentation file is
 * still unnamed (a UTF-16 one, told by its byte-order mark, as the ASCII it holds); a file that
 * cannot be read as a regular file (gone since it was listed, a link, a FIFO) names nothing.
 * Synchronous: a review reads a plugin's files one after the other anyway.
 */
export function withDocsNamedByCode(root: string, files: readonly RoledFile[]): RoledFile[] {
  const docs = new Map<string, RoledFile[]>();
  for (const file of files) {
    if (file.role !== 'docs' && file.role !== 'hooks') continue;
    const name = byteView(file.path.slice(file.path.lastIndexOf('/') + 1));
    docs.set(name, [...(docs.get(name) ?? []), file]);
  }
  const promoted = new Set<string>();
  let readers = files.filter((file) => file.role === 'code' && file.kind === 'file');
  while (readers.length > 0 && docs.size > 0) {
    const wanted = new Set(docs.keys());
    const found = new Set<string>();
    for (const file of readers) {
      for (const name of namesIn(join(root, file.path), wanted)) found.add(name);
      if (found.size === wanted.size) break;
    }
    readers = [];
    for (const name of found) {
      for (const file of docs.get(name) ?? []) {
        promoted.add(file.path);
        if (file.kind === 'file') readers.push(file);
      }
      docs.delete(name);
    }
  }
  return files.map((file) => (promoted.has(file.path) ? { ...file, role: 'code' } : file));
}

/** The members of `wanted` that the file at `path` names (none when it cannot be read). */
function namesIn(path: string, wanted: ReadonlySet<string>): ReadonlySet<string> {
  const scanner = scanForNames(wanted);
  let fd: number;
  try {
    // Never through a link, never waiting on a FIFO swapped in since the tree was listed.
    fd = openRegularFile(path, { maxBytes: Number.MAX_SAFE_INTEGER });
  } catch {
    return scanner.found;
  }
  try {
    const info = fstatSync(fd);
    // As large as the file, up to PIECE: a plugin's many small files cost no megabyte each (a
    // file that grew since is still read whole, in pieces of this size).
    const buffer = Buffer.allocUnsafe(Math.min(PIECE, Math.max(info.size, 1)));
    let utf16: boolean | null = null;
    for (let read = readSync(fd, buffer, 0, buffer.length, null); read > 0 && !scanner.done();) {
      // latin1: one character a byte, as the scanner compares.
      const piece = buffer.toString('latin1', 0, read);
      // A UTF-16 text (its byte-order mark first, as PowerShell writes one) names a file in
      // ASCII with a NUL beside each letter: without the NULs the name is seen.
      utf16 ??= UTF16_BOM.test(piece);
      scanner.feed(utf16 ? piece.replaceAll('\0', '') : piece);
      read = readSync(fd, buffer, 0, buffer.length, null);
    }
    scanner.end();
  } catch {
    // Unreadable from here on: it names what was read.
  } finally {
    closeSync(fd);
  }
  return scanner.found;
}
