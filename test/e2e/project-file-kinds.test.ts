/**
 * docs/guides/projects.md ("Files that cannot be read are refused") with the built binary: a
 * cloned repository's hookpm.lock that is a FIFO, or a symlink loop, is an E_IO naming it with a
 * fix that fits a file of the user's (replace it), never the hint for hookpm's own files (which
 * hookpm recreates), and never a hang; the store stays byte-identical.
 */
import { execFileSync } from 'node:child_process';
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveStorePaths } from '../../src/store/paths.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { hashStore } from '../helpers/store-snapshot.js';

const ws = useBinWorkspace('e2e-project-file-kinds', '.claude');

const store = () => hashStore(resolveStorePaths({ HOOKPM_HOME: join(ws.home, 'hookpm') }));

describe("a project's files that are not regular files (projects.md)", () => {
  it('a hookpm.lock that is a FIFO, or a loop of symlinks, is E_IO with a fix for the user, the store untouched', async () => {
    await writeFile(join(ws.repo, 'hookpm.json'), '{"plugins": {}}\n');
    const lock = join(ws.repo, 'hookpm.lock');
    execFileSync('mkfifo', [lock]);
    const before = await store();
    const fifo = await ws.hookpm(['ci', '--yes']);
    expect(fifo.code).toBe(1);
    expect(fifo.stderr).toContain(`error[E_IO]: cannot read ${lock}: it is a FIFO`);
    expect(fifo.stderr).toContain('Replace it with a regular file');
    expect(fifo.stderr).not.toContain('recreates');

    execFileSync('rm', [lock]);
    await symlink(join(ws.repo, 'other.lock'), lock);
    await symlink(lock, join(ws.repo, 'other.lock'));
    const loop = await ws.hookpm(['ci', '--yes']);
    expect(loop.code).toBe(1);
    expect(loop.stderr).toContain(
      `error[E_IO]: cannot read ${lock}: its symbolic links form a loop`,
    );
    expect(loop.stderr).toContain('Replace');
    expect(await store()).toEqual(before);
  });
});
