import { readdir, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { writeTree } from '../store/plugin-tree.js';

/**
 * registry.md S32 through the built binary: `hookpm list` reports each tree's tamper status as
 * its last check found it, `list --verify` checks every tree now (with the fingerprint cache
 * holding the tree's stats), and the check at every event, which alone decides what runs, records
 * what it finds.
 */
let dir: string;
let n = 0;

beforeAll(async () => {
  ensureBuilt();
  dir = await realpath(await mkdtemp(join(tmpdir(), 'hookpm-e2e-list-verdicts-')));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Listed {
  id: string;
  tampered: boolean;
  checkedAt: string;
  updatedAt: string;
}

async function world() {
  n += 1;
  const home = join(dir, `home${n}`);
  const store = join(home, 'store');
  await mkdir(home, { recursive: true });
  const env = { PATH: process.env.PATH ?? '', HOME: home, HOOKPM_HOME: store, NO_COLOR: '1' };
  const hookpm = (...args: string[]) => runBin(args, { env, cwd: home });
  const plugin = join(home, 'src', 'guard');
  await writeTree(plugin, {
    'plugin.json': { json: { name: 'guard', version: '1.0.0' } },
    'hooks/hooks.json': {
      json: {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [{ type: 'command', command: 'sh "${CLAUDE_PLUGIN_ROOT}/guard.sh"' }],
            },
          ],
        },
      },
    },
    'guard.sh': `#!/bin/sh\ncat >/dev/null\nprintf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"guarded"}}'\n`,
  });
  const installed = await hookpm('install', plugin, '--yes');
  expect(installed.code, installed.stderr).toBe(0);
  const state = JSON.parse(await readFile(join(store, 'data', 'state.json'), 'utf8')) as {
    plugins: Record<string, { path: string }>;
  };
  const list = async (...flags: string[]): Promise<Listed> => {
    const run = await hookpm('list', '--json', ...flags);
    expect(run.code, run.stderr).toBe(0);
    return (JSON.parse(run.stdout) as { plugins: Listed[] }).plugins[0]!;
  };
  const payload = join(home, 'payload.json');
  await writeFile(payload, JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } }));
  const event = async () => {
    const run = await hookpm('run', 'PreToolUse', '--payload', payload, '--json');
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as {
      permission: { decision: string; reason?: string | null } | null;
      diagnostics: Array<{ code: string; plugin?: string }>;
    };
  };
  return {
    store,
    hookpm,
    plugin,
    tree: state.plugins['guard@local']!.path,
    list,
    event,
  };
}

describe('list and the recorded tamper verdicts (registry.md S32)', () => {
  it('S32, Q6, S30: list reports a tree as last checked; list --verify finds it tampered now with the fingerprint cache present, and list reports that from then on', async () => {
    const w = await world();
    const fresh = await w.list();
    expect(fresh).toMatchObject({ tampered: false, checkedAt: fresh.updatedAt });
    // Older than the cache's racy window, so the check below caches every stat of the tree.
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    const verified = await w.list('--verify');
    expect(verified.tampered).toBe(false);
    expect(Date.parse(verified.checkedAt)).toBeGreaterThan(Date.parse(fresh.updatedAt));
    expect((await readdir(join(w.store, 'cache', 'fingerprints'))).length).toBeGreaterThan(0);
    await writeFile(join(w.tree, 'guard.sh'), '#!/bin/sh\ncat >/dev/null\n');
    // No check has seen it yet: `list` says so by its checkedAt, the time of the last check.
    expect(await w.list()).toMatchObject({ tampered: false, checkedAt: verified.checkedAt });
    const now = await w.list('--verify');
    expect(now.tampered).toBe(true);
    expect(Date.parse(now.checkedAt)).toBeGreaterThanOrEqual(Date.parse(verified.checkedAt));
    expect(await w.list()).toMatchObject({ tampered: true, checkedAt: now.checkedAt });
    const text = await w.hookpm('list');
    expect(text.stdout).toMatch(/^guard@local +1\.0\.0 +tampered\b/m);
    expect(text.stdout).toContain('`hookpm list --verify` checks every plugin now');
    // install --force restores the tree: the verdict older than the reinstall no longer stands.
    expect((await w.hookpm('install', '--force', w.plugin, '--yes')).code).toBe(0);
    const restored = await w.list();
    expect(restored).toMatchObject({ tampered: false, checkedAt: restored.updatedAt });
  }, 60_000);

  it('S32, Q6, B2: a plugin tampered after list --verify found it intact never runs: the check at the event leaves it out and records it, and list then reports it tampered', async () => {
    const w = await world();
    expect((await w.event()).permission).toMatchObject({ decision: 'deny' });
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    expect((await w.list('--verify')).tampered).toBe(false);
    await writeFile(join(w.tree, 'guard.sh'), '#!/bin/sh\ncat >/dev/null\n');
    const out = await w.event();
    expect(out.permission?.reason).toMatch(/^hookpm fails closed: plugin guard@local/);
    expect(out.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'plugin_tampered', plugin: 'guard@local' }),
    );
    expect((await w.list()).tampered).toBe(true);
    // Put back as installed: the next check records it intact again.
    await writeFile(join(w.tree, 'guard.sh'), await readFile(join(w.plugin, 'guard.sh'), 'utf8'));
    expect((await w.event()).permission).toMatchObject({ decision: 'deny' });
    expect((await w.list()).tampered).toBe(false);
  }, 60_000);

  it('S32, Q6: doctor records the tampered tree it finds, and list reports it', async () => {
    const w = await world();
    await writeFile(join(w.tree, 'guard.sh'), '#!/bin/sh\ncat >/dev/null\n');
    expect((await w.list()).tampered).toBe(false);
    expect((await w.hookpm('doctor')).code).toBe(1);
    expect((await w.list()).tampered).toBe(true);
  }, 60_000);
});

describe('list --json kept for the state and verdicts it was made of (registry.md S33)', () => {
  it('S33, D6, S32: a kept document is printed while the state and verdicts are unchanged; a disable, a corrupt state or a new verdict is seen at once', async () => {
    const w = await world();
    const kept = join(w.store, 'cache', 'list', 'user.json');
    // Older than the racy window: the document made now is kept.
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    const first = await w.hookpm('list', '--json');
    expect(first.code, first.stderr).toBe(0);
    // Kept under its key (not "-"), first in the file, before the rows kept with it.
    const file = await readFile(kept, 'utf8');
    expect(file).toMatch(/^hookpm-list\/2 \d+ \S+ \S+ \S+\n/);
    expect(file.slice(file.indexOf('\n') + 1).startsWith(first.stdout)).toBe(true);
    expect((await w.hookpm('list', '--json')).stdout).toBe(first.stdout);
    // The state changes: the kept document is not used.
    expect((await w.hookpm('disable', 'guard')).code).toBe(0);
    expect(JSON.parse((await w.hookpm('list', '--json')).stdout).plugins[0]).toMatchObject({
      enabled: false,
      tampered: false,
    });
    // A verdict changes (doctor finds the tree changed): seen at once.
    await writeFile(join(w.tree, 'guard.sh'), '#!/bin/sh\ncat >/dev/null\n');
    expect((await w.hookpm('doctor')).code).toBe(1);
    expect((await w.list()).tampered).toBe(true);
    // A state edited in place is read and checked again: E_STATE_CORRUPT as for every command.
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    expect((await w.hookpm('list', '--json')).code).toBe(0);
    expect((await readFile(kept, 'utf8')).length).toBeGreaterThan(0);
    await writeFile(
      join(w.store, 'data', 'state.json'),
      '{"version":1,"registries":{},"plugins":{"a@b":{}}}',
    );
    const corrupt = await w.hookpm('list', '--json');
    expect(corrupt.code).not.toBe(0);
    expect(corrupt.stdout + corrupt.stderr).toContain('E_STATE_CORRUPT');
  }, 60_000);
});
