/**
 * Updates announced where the user is (docs/guides/installing-plugins.md#updates-announced-in-your-agent):
 * `hookpm update --check` records what waits, and a linked agent's SessionStart says so.
 */
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
  it('update --check: records that guard 1.2.0 waits without installing it; the next SessionStart under `wire` names it and how to review it', async () => {
    const install = await ws.hookpm(['install', 'guard@examples@1.0.0', '--yes']);
    expect(install.code, install.stderr).toBe(0);
    const silent = await ws.hookpm(['wire', 'claude'], { stdin: start('u1') });
    expect(silent.stdout).toBe('');
    const check = await ws.hookpm(['update', '--check', '--json']);
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout).plugins).toEqual([
      { id: 'guard@examples', installed: '1.0.0', available: '1.2.0' },
    ]);
    const list = JSON.parse((await ws.hookpm(['list', '--json'])).stdout);
    expect(list.plugins[0].version).toBe('1.0.0');
    const told = await ws.hookpm(['wire', 'claude', '--offline'], { stdin: start('u2') });
    expect(told.code, told.stderr).toBe(0);
    const answer = JSON.parse(told.stdout) as { systemMessage: string };
    expect(answer.systemMessage).toContain('guard@examples 1.0.0 -> 1.2.0');
    expect(answer.systemMessage).toContain('hookpm update --dry-run');
    // Once updated, nothing is announced.
    expect((await ws.hookpm(['update', '--yes'])).code).toBe(0);
    const after = await ws.hookpm(['wire', 'claude'], { stdin: start('u3') });
    expect(after.stdout).toBe('');
  });
});
