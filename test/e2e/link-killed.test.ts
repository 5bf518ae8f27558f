/**
 * End to end through the built binary: `hookpm link claude` killed (SIGKILL) right before it
 * renamed the new settings file into place (registry.md D2). The user's file is the old bytes,
 * and the temporary file the kill left beside it is removed by the next link, not left to pile up
 * in `~/.claude` one per crash.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { killBeforeRenameEnv } from '../helpers/kill-before-rename.js';

const ws = useBinWorkspace('e2e-link-killed');

const OLD = '{\n  "model": "opus"\n}\n';

describe('registry.md D2: a link killed before it replaced the settings file', () => {
  it('D2: the file keeps its old bytes, and the next link removes the temporary file', async () => {
    const dir = join(ws.home, '.claude');
    const settings = join(dir, 'settings.json');
    await mkdir(dir, { recursive: true });
    await writeFile(settings, OLD);
    const killed = await ws.hookpm(['link', 'claude', '--yes'], {
      env: ws.env(killBeforeRenameEnv(settings)),
    });
    expect(killed.code).not.toBe(0);
    expect(await readFile(settings, 'utf8')).toBe(OLD);
    expect((await readdir(dir)).filter((name) => name.includes('.tmp-'))).toHaveLength(1);

    const again = await ws.hookpm(['link', 'claude', '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(await readdir(dir)).toEqual(['settings.json']);
    expect(JSON.parse(await readFile(settings, 'utf8')).hooks.PreToolUse).toBeDefined();
    expect(existsSync(settings)).toBe(true);
  });
});
