import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findProjectRoot } from '../../src/workspace/find-project-root.js';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'hookpm-root-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('findProjectRoot', () => {
  it('S2: the nearest ancestor holding a .git directory is the project root', async () => {
    await mkdir(join(dir, 'repo', '.git'), { recursive: true });
    await mkdir(join(dir, 'repo', 'src', 'deep'), { recursive: true });
    expect(await findProjectRoot(join(dir, 'repo', 'src', 'deep'))).toBe(join(dir, 'repo'));
  });

  it('S2: a .git file (a worktree or submodule) marks a root too, and the working directory itself counts', async () => {
    await mkdir(join(dir, 'outer', '.git'), { recursive: true });
    await mkdir(join(dir, 'outer', 'sub'), { recursive: true });
    await writeFile(join(dir, 'outer', 'sub', '.git'), 'gitdir: ../.git/modules/sub\n');
    expect(await findProjectRoot(join(dir, 'outer', 'sub'))).toBe(join(dir, 'outer', 'sub'));
  });

  it('S2: without any .git above, the working directory itself is the root', async () => {
    await mkdir(join(dir, 'plain', 'child'), { recursive: true });
    expect(await findProjectRoot(join(dir, 'plain', 'child'))).toBe(join(dir, 'plain', 'child'));
  });
});
