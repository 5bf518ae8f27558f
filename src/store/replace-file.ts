import { closeSync, openSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';

let written = 0;

/**
 * Replaces `file` whole by writing a temporary file beside it and renaming it over, so a reader
 * sees the old content or the new; no fsync, and no random name (no `node:crypto` to load): for
 * files that only save work and whose readers detect damage (a cache, a session pin's tables).
 * `content`: text, or bytes in parts written one after the other (megabytes are not joined first).
 * Throws what the writes throw, after removing the temporary file.
 */
export function replaceFile(file: string, content: string | readonly Buffer[]): void {
  const temp = `${file}.tmp-${process.pid}-${(written += 1)}`;
  try {
    if (typeof content === 'string') writeFileSync(temp, content, { mode: 0o600 });
    else writeParts(temp, content);
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

/** Writes `parts` to a new file `temp`, whole. */
function writeParts(temp: string, parts: readonly Buffer[]): void {
  const fd = openSync(temp, 'wx', 0o600);
  try {
    for (const part of parts) {
      let at = 0;
      while (at < part.length) at += writeSync(fd, part, at);
    }
  } finally {
    closeSync(fd);
  }
}
