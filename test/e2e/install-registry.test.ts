/**
 * End to end with the built binary in a fresh HOME and HOOKPM_HOME: installing from the built-in
 * `examples` registry with no configuration, review of a registry plugin, the Q5 update flow (guard
 * 1.3.0 widens 1.0.0's surface), --dry-run on install, update and uninstall, a tarball file, and
 * the installed guard deciding a PreToolUse event.
 */
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useRegistryHome } from '../helpers/registry-home.js';
import { useBubblewrap } from '../helpers/bubblewrap.js';

const FIXTURES = fileURLToPath(new URL('../../registry-fixtures', import.meta.url));
const ctx = useRegistryHome('hookpm-install-e2e-', false);
const { hookpm, ok, store } = ctx;

interface Listed {
  plugins: Array<{ id: string; version: string; enabled: boolean; pending: string | null }>;
}

// guard declares capabilities: its handlers run under bubblewrap.
useBubblewrap();

describe('hookpm install from a registry, end to end', () => {
  it('`hookpm install guard@examples` works with no configuration; --json has the cli.md shape', async () => {
    const plain = await hookpm(['install', 'guard@examples']);
    expect(plain.code).toBe(1); // no terminal, no --yes: installed but not enabled
    expect(plain.stderr).toContain('E_CONSENT_REQUIRED');
    expect(plain.stderr).toContain('hookpm enable guard@examples --yes');
    const run = await ok('install', 'guard@examples', '--yes', '--force', '--json');
    const result = JSON.parse(run.stdout) as { installed: Array<Record<string, unknown>> };
    expect(result.installed[0]).toMatchObject({
      id: 'guard@examples',
      name: 'guard',
      version: '1.3.0',
      enabled: true,
      events: ['PreToolUse'],
    });
    expect(String(result.installed[0]?.['integrity'])).toMatch(/^sha512-/);
  });

  it('`hookpm review guard@examples` shows the surface of a plugin that is not installed, and installs nothing', async () => {
    const run = await ok('review', 'guard@examples', '--json');
    const review = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(review).toMatchObject({
      id: 'guard@examples',
      version: '1.3.0',
      consented: false,
      diff: null,
    });
    expect((review['hooks'] as unknown[]).length).toBe(2);
    expect(JSON.parse((await ok('list', '--json')).stdout)).toEqual({
      schemaVersion: 1,
      plugins: [],
    });
  });

  it('Q5: update to a widened surface waits (E_CONSENT_REQUIRED without --yes), and --yes approves it', async () => {
    await ok('install', 'guard@examples@1.0.0', '--yes');
    const waiting = await hookpm(['update', '--json']);
    expect(waiting.code).toBe(1);
    expect(JSON.parse(waiting.stdout)).toMatchObject({ error: { code: 'E_CONSENT_REQUIRED' } });
    const listed = JSON.parse((await ok('list', '--json')).stdout) as Listed;
    expect(listed.plugins[0]).toMatchObject({ version: '1.0.0', enabled: true, pending: '1.3.0' });
    const review = JSON.parse((await ok('review', 'guard', '--json')).stdout) as {
      diff: { added: unknown[] };
    };
    expect(review.diff.added).toHaveLength(1);
    await ok('update', '--yes');
    const after = JSON.parse((await ok('list', '--json')).stdout) as Listed;
    expect(after.plugins[0]).toMatchObject({ version: '1.3.0', enabled: true, pending: null });
  });

  it('--dry-run on install, update and uninstall prints the plan and leaves the store byte-identical', async () => {
    const before0 = await store();
    const plan = await ok('install', 'guard@examples', '--dry-run');
    expect(plan.stdout).toMatch(/would-install guard@examples 1\.3\.0/);
    expect(plan.stdout).toMatch(/files \(\d+; sha256, mode, role\):/);
    expect(plan.stdout).toMatch(/ [0-9a-f]{12} 0\d{3} scripts\/guard\.mjs {2}code/);
    expect(await store()).toEqual(before0);
    await ok('install', 'guard@examples@1.0.0', '--yes');
    const before = await store();
    const update = await ok('update', '--dry-run');
    expect(update.stdout).toMatch(/version: 1\.0\.0 -> 1\.3\.0/);
    expect(update.stdout).toMatch(/changes since consent \(1 added, 0 removed, 1 changed\)/);
    const gone = await ok('uninstall', 'guard', '--dry-run');
    expect(gone.stdout).toMatch(/would uninstall guard@examples 1\.0\.0/);
    expect(await store()).toEqual(before);
  });

  it('D1b: `review ./guard-1.0.0.tgz` shows it and `install ./guard-1.0.0.tgz` installs guard@local', async () => {
    await copyFile(
      join(FIXTURES, 'tarballs', 'guard-1.0.0.tgz'),
      join(ctx.home.dir, 'guard-1.0.0.tgz'),
    );
    const review = JSON.parse((await ok('review', './guard-1.0.0.tgz', '--json')).stdout) as Record<
      string,
      unknown
    >;
    expect(review).toMatchObject({ id: 'guard@local', version: '1.0.0', consented: false });
    expect(String(review['integrity'])).toMatch(/^sha512-/);
    const run = await ok('install', './guard-1.0.0.tgz', '--yes', '--json');
    expect(JSON.parse(run.stdout)).toMatchObject({
      installed: [{ id: 'guard@local', version: '1.0.0' }],
    });
  });

  it('the installed guard denies `rm -rf /` with its reason and allows `ls`', async () => {
    await ok('install', 'guard@examples', '--yes');
    const payload = (command: string): string =>
      JSON.stringify({ tool_name: 'Bash', tool_input: { command } });
    const denied = await hookpm(
      ['run', 'PreToolUse', '--payload', '-', '--json'],
      payload('rm -rf /'),
    );
    expect(denied.code, denied.stderr).toBe(0);
    const decision = JSON.parse(denied.stdout) as {
      permission: { decision: string; reason: string };
    };
    expect(decision.permission.decision).toBe('deny');
    expect(decision.permission.reason).toMatch(/^guard: `rm -r \/`/);
    const allowed = await hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], payload('ls'));
    expect((JSON.parse(allowed.stdout) as { permission: unknown }).permission).toBeNull();
    expect(await readFile(join(FIXTURES, 'index.json'), 'utf8')).toContain('"guard"');
  });
});
