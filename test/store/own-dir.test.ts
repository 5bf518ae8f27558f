/**
 * registry.md D4: a store folder hookpm makes and empties (`.staging`, the installed-files lists)
 * that is a regular file (or another non-directory) there is none hookpm made: the command that
 * needs the folder fails with E_IO naming it and the fix, and leaves the file as it is, rather
 * than a bare EEXIST from mkdir.
 */
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeOwnDir } from '../../src/store/own-dir.js';
import { outcomeOf } from '../helpers/failure.js';
import { isHookpmError } from '../../src/errors.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookpm-own-dir-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('registry.md D4: makeOwnDir', () => {
  it('a regular file where the folder goes is E_IO naming it, with the fix; the file stays', async () => {
    const staging = join(dir, '.staging');
    await writeFile(staging, 'notes');
    expect(outcomeOf(() => makeOwnDir(staging))).toBe('E_IO');
    try {
      makeOwnDir(staging);
    } catch (error) {
      expect(isHookpmError(error) && error.message).toContain(`${staging}: it is a file`);
      expect(isHookpmError(error) && error.hint).toContain('move it aside');
    }
    expect(await readFile(staging, 'utf8')).toBe('notes');
  });

  it('a symlink is replaced by a directory (the link only); a directory is kept', async () => {
    const staging = join(dir, '.staging');
    await symlink(join(dir, 'elsewhere'), staging);
    expect(makeOwnDir(staging)).toBe(staging);
    expect(lstatSync(staging).isDirectory()).toBe(true);
    expect(makeOwnDir(staging)).toBe(staging);
  });
});
