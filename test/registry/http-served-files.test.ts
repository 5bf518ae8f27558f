import { randomBytes } from 'node:crypto';
import { open, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createServedFiles, type ServedFiles } from '../../src/registry/http/http-served-files.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs('hookpm-served-');

/** The gzip body `files` answers for `file`, decoded. */
async function gzipped(files: ServedFiles, file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const served = await files.get(file, handle, true, () => false);
    expect(served.encoding, file).toBe('gzip');
    return gunzipSync(served.body as Buffer).toString('utf8');
  } finally {
    await handle.close();
  }
}

describe('registry serve: the kept hashes and gzip bodies (N10)', () => {
  it('N10, bounded: gzip bodies past gzipKeptBytes in all are dropped, oldest first, and made again from the file when asked for', async () => {
    const dir = await tempDir();
    const files = createServedFiles({ gzipKeptBytes: 64 * 1024 });
    const first = join(dir, 'first.json');
    const mtime = new Date('2026-11-01T00:00:00Z');
    await writeFile(first, `"${'a'.repeat(4096)}"`);
    await utimes(first, mtime, mtime);
    expect(await gzipped(files, first)).toBe(`"${'a'.repeat(4096)}"`);
    // Text that compresses to about three quarters: these bodies take the kept bytes past the limit.
    for (const name of ['second', 'third']) {
      const text = `"${randomBytes(48 * 1024).toString('base64')}"`;
      await writeFile(join(dir, `${name}.json`), text);
      await utimes(join(dir, `${name}.json`), mtime, mtime);
      expect(await gzipped(files, join(dir, `${name}.json`))).toBe(text);
    }
    // Same size, mtime and inode: a kept body would be served as it was; a dropped one is made
    // again from what the file holds now.
    await writeFile(first, `"${'b'.repeat(4096)}"`);
    await utimes(first, mtime, mtime);
    expect(await gzipped(files, first)).toBe(`"${'b'.repeat(4096)}"`);
  });

  it('N10: a file changed in place within the same mtime just after it was served is hashed again, never answered with the old ETag and body', async () => {
    const dir = await tempDir();
    const files = createServedFiles();
    const file = join(dir, 'index.json');
    // Both writes fall in one tick of the file system's clock: size, mtime and inode stay.
    const tick = new Date(Date.now() - 100);
    await writeFile(file, `"${'a'.repeat(4096)}"`);
    await utimes(file, tick, tick);
    expect(await gzipped(files, file)).toBe(`"${'a'.repeat(4096)}"`);
    await writeFile(file, `"${'b'.repeat(4096)}"`);
    await utimes(file, tick, tick);
    expect(await gzipped(files, file)).toBe(`"${'b'.repeat(4096)}"`);
  });

  it('N10, bounded: files held to be compressed by requests at once stay under gzipReadingBytes; past it a file is served as it is', async () => {
    const dir = await tempDir();
    const files = createServedFiles({ gzipReadingBytes: 64 * 1024 });
    const names = ['one.json', 'two.json'];
    for (const name of names) await writeFile(join(dir, name), `"${'a'.repeat(48 * 1024)}"`);
    const handles = await Promise.all(names.map((name) => open(join(dir, name), 'r')));
    try {
      const served = await Promise.all(
        names.map((name, at) => files.get(join(dir, name), handles[at]!, true, () => false)),
      );
      expect(served.map((s) => s.encoding).sort()).toEqual(['gzip', 'identity']);
      const whole = served.find((s) => s.encoding === 'identity');
      expect(whole?.body).toBe(48 * 1024 + 2);
      expect(whole?.etag).not.toMatch(/-gz"$/);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
    }
  });
});
