/**
 * registry.md S41 with D2: a transaction's mark that the disk refuses is removed before the error
 * is thrown, so a failed command leaves the store's staging as it was.
 */
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveStorePaths, stagingRoot } from '../../src/store/paths.js';
import { runChild } from '../helpers/child.js';
import { compiledSandbox } from '../helpers/compile-src.js';

const writer = fileURLToPath(new URL('../fixtures/store/mark-writer.mjs', import.meta.url));
const sandbox = compiledSandbox('hookpm-mark-');

describe('markTransaction', () => {
  it('S41, D2: a mark made and then refused its bytes fails with the store error and is not left in staging', async () => {
    // A full disk refuses the bytes after the file is made; `ulimit -f 1` (EFBIG, at 1 KiB: the
    // mark lists 100 ids) does the same without root or a mount.
    const [result] = await runChild(
      'bash',
      ['-c', 'ulimit -f 1; exec node "$0" 100', writer],
      sandbox.env,
    );
    expect(result).toMatchObject({ code: 'E_IO' });
    expect((result as { message: string }).message).toContain('transaction mark');
    expect(await readdir(stagingRoot(resolveStorePaths(sandbox.env)))).toEqual([]);
  });
});
