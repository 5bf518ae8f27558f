/**
 * End to end through the built binary: a first install killed (SIGKILL) after it promoted its
 * tree and before its state write (registry.md D2, S41). The store had no state file, so what the
 * kill leaves must read as a store with nothing installed and a leftover tree, not as a state file
 * gone while plugins are installed (engine.md B3), which fails every event closed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { killBeforeRenameEnv } from '../helpers/kill-before-rename.js';
import { hooksDoc, writeTree } from '../store/plugin-tree.js';

const ws = useBinWorkspace('e2e-install-killed');

const PRE_TOOL_USE = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } });

describe('engine.md B3, registry.md S41: a first install killed before its state write', () => {
  it('B3: nothing fails closed, doctor reports a leftover and no error, and the install works again', async () => {
    const plugin = join(ws.home, 'src', 'guard');
    await writeTree(plugin, {
      'plugin.json': { json: { name: 'guard', version: '1.0.0' } },
      'hooks/hooks.json': hooksDoc('PreToolUse'),
    });
    const store = ws.env()['HOOKPM_HOME']!;
    // Killed at the write of its installed-files list: after the promotion, before the state.
    const killed = await ws.hookpm(['install', '--yes', plugin], {
      env: ws.env(killBeforeRenameEnv(join('data', 'installed-files', ''))),
    });
    expect(killed.code).not.toBe(0);
    expect(existsSync(join(store, 'data', 'plugins'))).toBe(true);

    const run = await ws.hookpm(['run', 'PreToolUse', '--json'], { stdin: PRE_TOOL_USE });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('failed_closed');
    const doctor = await ws.hookpm(['doctor']);
    expect(doctor.stdout).not.toContain('is missing while');
    expect(doctor.stdout).toContain('installed tree no plugin uses');
    const list = await ws.hookpm(['list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ plugins: [] });

    const again = await ws.hookpm(['install', '--yes', plugin]);
    expect(again.code, again.stderr).toBe(0);
    const after = await ws.hookpm(['doctor']);
    expect(after.code, after.stdout).toBe(0);
  });
});
