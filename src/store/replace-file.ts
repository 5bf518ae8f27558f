import { closeSync, openSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';

let written = 0;

/**
 * Replaces `file` whole by writing a temporary file beside it and renaming it over, so a reader
 * sees the old content or the new; no fsync, and no random name (no `node:crypto` to load): for
 * files that only save work and whose readers detect damage (a cache, a session pin's tables).
 * Throws what the writes throw, after removing the temporary file.
 */
export function replaceFile(file: string, text: string): void {
  replaceWith(file, (temp) => writeFileSync(temp, text, { mode: 0o600 }));
}

/**
 * replaceFile for content made a piece at a time: `fill` hands each piece to `write`, which
 * writes it at once (so a piece may be reused after), and megabytes are never joined first.
 */
export function replaceFileWith(
  file: string,
  fill: (write: (bytes: Buffer) => void) => void,
): void {
  replaceWith(file, (temp) => {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      fill((bytes) => {
        for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
      });
    } finally {
      closeSync(fd);
    }
  });
}

function replaceWith(file: string, writeTemp: (temp: string) => void): void {
  const temp = `${file}.tmp-${process.pid}-${(written += 1)}`;
  try {
    writeTemp(temp);
    renameSync(temp, file);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // Nothing was left.
    }
    throw error;
  }
}
