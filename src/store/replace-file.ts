import { renameSync, unlinkSync, writeFileSync } from 'node:fs';

let written = 0;

/**
 * Replaces `file` whole by writing a temporary file beside it and renaming it over, so a reader
 * sees the old content or the new; no fsync, and no random name (no `node:crypto` to load): for
 * files that only save work and whose readers detect damage (a cache, a session pin's tables).
 * Throws what the writes throw, after removing the temporary file.
 */
export function replaceFile(file: string, text: string): void {
  const temp = `${file}.tmp-${process.pid}-${(written += 1)}`;
  try {
    writeFileSync(temp, text, { mode: 0o600 });
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
