import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Writes `<bin>/apt-get`, an executable shell script standing in for the real one (which would
 * change the machine): the tests of the system tools' installer put `bin` first on PATH.
 */
export async function writeAptGet(bin: string, script: string): Promise<void> {
  await writeFile(join(bin, 'apt-get'), script);
  await chmod(join(bin, 'apt-get'), 0o755);
}

/** The lines a stand-in appended to `file` (its argv per call), none when it never ran. */
export async function recordedLines(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean);
}
