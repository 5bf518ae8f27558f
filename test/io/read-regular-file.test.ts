import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { errnoCode } from '../../src/io/fs-error.js';
import {
  isRefusedFile,
  readFailureReason,
  readRegularFile,
  readRegularText,
} from '../../src/io/read-regular-file.js';

const dir = mkdtempSync(join(tmpdir(), 'hookpm-regular-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const path = (name: string) => join(dir, `${(n += 1)}-${name}`);

/** What readRegularFile threw, and how long it took. */
function refusal(file: string, opts: Parameters<typeof readRegularFile>[1]) {
  const started = performance.now();
  try {
    readRegularFile(file, opts);
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  throw new Error(`${file} was read`);
}

describe('readRegularFile (registry.md D7)', () => {
  it('D7: a regular file within the limit is read whole, as bytes or text', () => {
    const file = path('ok.json');
    writeFileSync(file, '{"a":"é"}');
    expect(readRegularFile(file, { maxBytes: 100 }).toString()).toBe('{"a":"é"}');
    expect(readRegularText(file, { maxBytes: 10 })).toBe('{"a":"é"}');
    const big = path('big');
    writeFileSync(big, Buffer.alloc(3 * 1024 * 1024, 120));
    expect(readRegularFile(big, { maxBytes: 4 * 1024 * 1024 }).length).toBe(3 * 1024 * 1024);
  });

  it('D7: a missing file is the operating system error (ENOENT), not a refusal', () => {
    const { error } = refusal(path('missing'), { maxBytes: 10 });
    expect(errnoCode(error)).toBe('ENOENT');
    expect(isRefusedFile(error)).toBe(false);
  });

  it('D7: a FIFO with no writer is refused at once (E_IO, not_regular), never waited on', () => {
    const fifo = path('fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    for (const followSymlink of [false, true]) {
      const { error, ms } = refusal(fifo, { maxBytes: 1000, followSymlink });
      expect(isRefusedFile(error, 'not_regular')).toBe(true);
      expect((error as Error).message).toContain('is a FIFO, not a regular file');
      expect(ms).toBeLessThan(1000);
    }
  });

  it('D7: a symlink to /dev/zero is refused: not followed for a file hookpm owns, a device when followed', () => {
    const link = path('zero');
    symlinkSync('/dev/zero', link);
    const own = refusal(link, { maxBytes: 1000 });
    expect(isRefusedFile(own.error, 'symlink')).toBe(true);
    expect(readFailureReason(own.error)).toMatch(/^it is a symbolic link/);
    const followed = refusal(link, { maxBytes: 1000, followSymlink: true });
    expect(isRefusedFile(followed.error, 'not_regular')).toBe(true);
    expect((followed.error as Error).message).toContain('is a character device');
    expect(followed.ms).toBeLessThan(1000);
  });

  it('D7: a symlink to a regular file is refused for a file hookpm owns and read when following is asked', () => {
    const target = path('target');
    writeFileSync(target, 'secret');
    const link = path('link');
    symlinkSync(target, link);
    expect(isRefusedFile(refusal(link, { maxBytes: 100 }).error, 'symlink')).toBe(true);
    expect(readRegularText(link, { maxBytes: 100, followSymlink: true })).toBe('secret');
  });

  it('D7: a directory is refused as not a regular file', () => {
    const sub = path('dir');
    mkdirSync(sub);
    const { error } = refusal(sub, { maxBytes: 100 });
    expect(isRefusedFile(error, 'not_regular')).toBe(true);
    expect(readFailureReason(error)).toBe('it is a directory, not a regular file');
  });

  it('D7: a file over the limit is refused before it is read (too_large, naming both sizes)', () => {
    const file = path('large');
    writeFileSync(file, Buffer.alloc(2048));
    const { error } = refusal(file, { maxBytes: 1024 });
    expect(isRefusedFile(error, 'too_large')).toBe(true);
    expect((error as Error).message).toContain('2048 bytes');
    expect((error as Error).message).toContain('1024 allowed');
  });
});
