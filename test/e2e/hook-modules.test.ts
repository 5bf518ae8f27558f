import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';

// plugins.md G4: a plugin whose hooks/hooks.json holds only Claude Code's in-process hook modules.

const ws = useBinWorkspace('e2e-hook-modules');

describe('hook modules (plugins.md G4)', () => {
  it('G4: a plugin whose hooks.json has modules and no hooks installs; review says Claude Code alone runs its modules', async () => {
    const root = join(ws.dir, `plugin${ws.n}`);
    await mkdir(join(root, '.claude-plugin'), { recursive: true });
    await mkdir(join(root, 'hooks'), { recursive: true });
    await writeFile(
      join(root, '.claude-plugin', 'plugin.json'),
      JSON.stringify({ name: 'board', version: '1.0.0' }),
    );
    await writeFile(
      join(root, 'hooks', 'hooks.json'),
      JSON.stringify({ modules: [{ module: 'hooks/board.tsx' }] }),
    );
    const installed = await ws.hookpm(['install', root, '--yes']);
    expect(installed.code, installed.stderr).toBe(0);
    const review = await ws.hookpm(['review', 'board', '--json']);
    expect(review.code, review.stderr).toBe(0);
    const report = JSON.parse(review.stdout) as {
      hooks: unknown[];
      diagnostics: Array<{ message: string; path: string | null }>;
    };
    expect(report.hooks).toEqual([]);
    expect(report.diagnostics).toEqual([
      expect.objectContaining({
        path: 'hooks/hooks.json:modules',
        message: expect.stringContaining('Claude Code alone runs them'),
      }),
    ]);
  });
});
