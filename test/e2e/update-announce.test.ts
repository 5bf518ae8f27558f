/**
 * Updates announced where the user is (docs/guides/installing-plugins.md#updates-announced-in-your-agent):
 * `hookpm update --check` records what waits, and a linked agent's SessionStart says so.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';

const ws = useBinWorkspace('e2e-update-announce');

const start = (session: string) =>
  JSON.stringify({
    session_id: session,
    transcript_path: join(ws.home, 't.jsonl'),
    cwd: ws.repo,
    hook_event_name: 'SessionStart',
    source: 'startup',
  });

describe('updates announced at SessionStart', () => {
  it('update --check: records that guard 1.3.0 waits without installing it; the next SessionStart under `wire` names it and how to review it', async () => {
    const install = await ws.hookpm(['install', 'guard@examples@1.0.0', '--yes']);
    expect(install.code, install.stderr).toBe(0);
    const silent = await ws.hookpm(['wire', 'claude'], { stdin: start('u1') });
    expect(silent.stdout).toBe('');
    const check = await ws.hookpm(['update', '--check', '--json']);
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout).plugins).toEqual([
      { id: 'guard@examples', installed: '1.0.0', available: '1.3.0' },
    ]);
    const list = JSON.parse((await ws.hookpm(['list', '--json'])).stdout);
    expect(list.plugins[0].version).toBe('1.0.0');
    const told = await ws.hookpm(['wire', 'claude', '--offline'], { stdin: start('u2') });
    expect(told.code, told.stderr).toBe(0);
    const answer = JSON.parse(told.stdout) as { systemMessage: string };
    expect(answer.systemMessage).toContain('guard@examples 1.0.0 -> 1.3.0');
    expect(answer.systemMessage).toContain('hookpm update --dry-run');
    // Once updated, nothing is announced.
    expect((await ws.hookpm(['update', '--yes'])).code).toBe(0);
    const after = await ws.hookpm(['wire', 'claude'], { stdin: start('u3') });
    expect(after.stdout).toBe('');
  });

  it('update --check daily: `config set updates.check daily` makes a SessionStart start the check in the background, and a later SessionStart announces what it found', async () => {
    expect((await ws.hookpm(['install', 'guard@examples@1.0.0', '--yes'])).code).toBe(0);
    const set = await ws.hookpm(['config', 'set', 'updates.check', 'daily']);
    expect(set.code, set.stderr).toBe(0);
    const record = join(ws.home, 'hookpm', 'cache', 'updates-waiting.json');
    expect(existsSync(record)).toBe(false);
    const first = await ws.hookpm(['wire', 'claude'], { stdin: start('d1') });
    expect(first.code, first.stderr).toBe(0);
    for (let i = 0; i < 100 && !existsSync(record); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(record)).toBe(true);
    const told = await ws.hookpm(['wire', 'claude'], { stdin: start('d2') });
    expect(JSON.parse(told.stdout).systemMessage).toContain('guard@examples 1.0.0 -> 1.3.0');
    // Still on 1.0.0: the check installs nothing.
    expect(JSON.parse((await ws.hookpm(['list', '--json'])).stdout).plugins[0].version).toBe(
      '1.0.0',
    );
    const bad = await ws.hookpm(['config', 'set', 'updates.check', 'hourly']);
    expect(bad.code).toBe(2);
  });

  it('update --check daily under a link for another home (`wire claude --home`, no HOOKPM_HOME in the agent): the check runs on that home', async () => {
    const home = join(ws.home, 'Library', 'Application Support', "it's hookpm");
    const { HOOKPM_HOME: _unset, ...agentEnv } = ws.env();
    const at = (args: string[], stdin?: string) =>
      ws.hookpm(['--home', home, ...args], { env: agentEnv, ...(stdin ? { stdin } : {}) });
    expect((await at(['install', 'guard@examples@1.0.0', '--yes'])).code).toBe(0);
    expect((await at(['config', 'set', 'updates.check', 'daily'])).code).toBe(0);
    const record = join(home, 'cache', 'updates-waiting.json');
    const first = await at(['wire', 'claude'], start('h1'));
    expect(first.code, first.stderr).toBe(0);
    for (let i = 0; i < 100 && !existsSync(record); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(record)).toBe(true);
    expect(existsSync(join(ws.home, '.cache', 'hookpm', 'updates-waiting.json'))).toBe(false);
    const told = await at(['wire', 'claude'], start('h2'));
    expect(JSON.parse(told.stdout).systemMessage).toContain('guard@examples 1.0.0 -> 1.3.0');
  });
});
