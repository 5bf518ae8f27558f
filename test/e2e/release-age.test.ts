/**
 * Release-age cooldowns (docs/reference/rules/policy.md#a15) end to end with the built binary: a
 * copy of the fixture registry whose guard versions were published 30, 10 and 1 day(s) ago.
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';

const FIXTURES = fileURLToPath(new URL('../../registry-fixtures', import.meta.url));
const DAY = 24 * 60 * 60 * 1000;
const ws = useBinWorkspace('e2e-release-age');

/** The registry `ages`, added to this test's store; returns the environment with `policy`. */
async function setUp(policy: unknown | null): Promise<Record<string, string>> {
  const dir = join(ws.dir, `registry-${ws.n}`);
  await mkdir(dir, { recursive: true });
  await cp(join(FIXTURES, 'tarballs'), join(dir, 'tarballs'), { recursive: true });
  const index = JSON.parse(await readFile(join(FIXTURES, 'index.json'), 'utf8'));
  const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
  const versions = index.plugins.guard.versions;
  versions['1.0.0'].publishedAt = ago(30);
  versions['1.1.0'].publishedAt = ago(10);
  versions['1.2.0'].publishedAt = ago(2);
  versions['1.3.0'].publishedAt = ago(1);
  await writeFile(join(dir, 'index.json'), JSON.stringify(index));
  const file = join(ws.dir, `policy-${ws.n}.json`);
  if (policy !== null) await writeFile(file, JSON.stringify(policy));
  const env = ws.env({ HOOKPM_POLICY_FILE: file });
  const added = await ws.hookpm(['registry', 'add', 'ages', dir], { env });
  expect(added.code, added.stderr).toBe(0);
  return env;
}

async function installed(env: Record<string, string>): Promise<string> {
  const list = await ws.hookpm(['list', '--json'], { env });
  return (JSON.parse(list.stdout) as { plugins: Array<{ version: string }> }).plugins[0]!.version;
}

describe('release-age cooldowns', () => {
  it('A15: install picks the newest version old enough for the policy and says which newer one was skipped and why', async () => {
    const env = await setUp({ updates: { minimumReleaseAgeDays: 3 } });
    const run = await ws.hookpm(['install', 'guard@ages', '--yes'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(await installed(env)).toBe('1.1.0');
    expect(run.stdout + run.stderr).toMatch(
      /guard@ages 1\.3\.0 was skipped: published 1 day\(s\) ago .*minimum release age of 3 day\(s\) \(policy /,
    );
  });

  it('A15: an install whose every version is too young is refused, naming the age', async () => {
    const env = await setUp({ updates: { minimumReleaseAgeDays: 60 } });
    const run = await ws.hookpm(['install', 'guard@ages', '--yes'], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('E_NO_MATCHING_VERSION');
    expect(run.stderr).toMatch(
      /younger than the minimum release age of 60 day\(s\).*1\.3\.0, was published 1 day\(s\) ago/,
    );
  });

  it('A15: update moves only to a version old enough, and names the one it skipped', async () => {
    const env = await setUp(null);
    expect((await ws.hookpm(['install', 'guard@ages@1.0.0', '--yes'], { env })).code).toBe(0);
    await writeFile(
      env['HOOKPM_POLICY_FILE']!,
      JSON.stringify({ updates: { minimumReleaseAgeDays: 3 } }),
    );
    const run = await ws.hookpm(['update', '--yes'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(await installed(env)).toBe('1.1.0');
    expect(run.stdout + run.stderr).toContain('guard@ages 1.3.0 was skipped');
  });

  it('A15: `hookpm config set updates.minimumReleaseAgeDays` raises the policy cooldown, never lowers it', async () => {
    const env = await setUp({ updates: { minimumReleaseAgeDays: 3 } });
    const set = await ws.hookpm(['config', 'set', 'updates.minimumReleaseAgeDays', '20'], { env });
    expect(set.code, set.stderr).toBe(0);
    expect((await ws.hookpm(['install', 'guard@ages', '--yes'], { env })).code).toBe(0);
    expect(await installed(env)).toBe('1.0.0');
    // A user setting below the policy's leaves the policy's in force.
    await ws.hookpm(['uninstall', 'guard'], { env });
    await ws.hookpm(['config', 'set', 'updates.minimumReleaseAgeDays', '0'], { env });
    const run = await ws.hookpm(['install', 'guard@ages', '--yes'], { env });
    expect(run.stdout + run.stderr).toContain('(policy ');
    expect(await installed(env)).toBe('1.1.0');
    const bad = await ws.hookpm(['config', 'set', 'updates.minimumReleaseAgeDays', 'soon'], {
      env,
    });
    expect(bad.code).toBe(2);
  });

  it('A20, A15: a plain `update` whose every newer version is too young holds the plugin, names the versions held, and exits 0', async () => {
    const env = await setUp(null);
    expect((await ws.hookpm(['install', 'guard@ages@1.0.0', '--yes'], { env })).code).toBe(0);
    await writeFile(
      env['HOOKPM_POLICY_FILE']!,
      JSON.stringify({ updates: { minimumReleaseAgeDays: 20 } }),
    );
    const run = await ws.hookpm(['update', '--yes'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(await installed(env)).toBe('1.0.0');
    expect(run.stderr).toContain('guard@ages 1.1.0 was skipped');
    expect(run.stderr).toContain('guard@ages 1.2.0 was skipped');
  });

  it('A15: `outdated` and `update --check` count only the versions old enough to install', async () => {
    const env = await setUp(null);
    expect((await ws.hookpm(['install', 'guard@ages@1.0.0', '--yes'], { env })).code).toBe(0);
    await writeFile(
      env['HOOKPM_POLICY_FILE']!,
      JSON.stringify({ updates: { minimumReleaseAgeDays: 20 } }),
    );
    const outdated = await ws.hookpm(['outdated', '--json'], { env });
    expect(outdated.code, outdated.stderr).toBe(0);
    expect(JSON.parse(outdated.stdout).plugins).toEqual([]);
    const check = await ws.hookpm(['update', '--check', '--json'], { env });
    expect(JSON.parse(check.stdout).plugins).toEqual([]);
  });

  it('A15: `ci` and a bare `install` in a project refuse a version hookpm.lock pins that is younger than the cooldown; one this user has installed already stays', async () => {
    const env = await setUp(null);
    const locked = await ws.hookpm(['install', '--project', 'guard@ages@1.3.0', '--yes'], { env });
    expect(locked.code, locked.stderr).toBe(0);
    // A teammate: another store with the same registry, under the cooldown.
    const other = { ...env, HOOKPM_HOME: join(ws.home, 'teammate') };
    const dir = join(ws.dir, `registry-${ws.n}`);
    expect((await ws.hookpm(['registry', 'add', 'ages', dir], { env: other })).code).toBe(0);
    const cooldown = JSON.stringify({ updates: { minimumReleaseAgeDays: 3 } });
    await writeFile(env['HOOKPM_POLICY_FILE']!, cooldown);
    for (const args of [
      ['ci', '--yes'],
      ['install', '--yes'],
    ]) {
      const run = await ws.hookpm(args, { env: other });
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toContain('E_NO_MATCHING_VERSION');
      expect(run.stderr).toMatch(
        /guard@ages 1\.3\.0.*published 1 day\(s\) ago.*minimum release age of 3 day\(s\)/,
      );
    }
    const list = await ws.hookpm(['list', '--json'], { env: other });
    expect(list.stdout).not.toContain('guard');
    // The user who installed it keeps it: `ci` installs nothing new for them.
    const kept = await ws.hookpm(['ci', '--yes'], { env });
    expect(kept.code, kept.stderr).toBe(0);
  });

  it('A15: a version hookpm.lock pins that this user has installed for another project already stays installable in a second clone under the cooldown', async () => {
    const env = await setUp(null);
    const locked = await ws.hookpm(['install', '--project', 'guard@ages@1.3.0', '--yes'], { env });
    expect(locked.code, locked.stderr).toBe(0);
    // A second clone of the same project (its own root), with the same two files.
    const clone = join(ws.dir, `clone-${ws.n}`);
    await mkdir(join(clone, '.git'), { recursive: true });
    for (const file of ['hookpm.json', 'hookpm.lock'])
      await cp(join(ws.repo, file), join(clone, file));
    await writeFile(
      env['HOOKPM_POLICY_FILE']!,
      JSON.stringify({ updates: { minimumReleaseAgeDays: 3 } }),
    );
    const run = await ws.hookpm(['ci', '--yes'], { env, cwd: clone });
    expect(run.code, run.stderr).toBe(0);
  });
});

describe('release-age cooldowns against the examples registry', () => {
  // registry-fixtures records publishedAt 2026-11-01T00:00:00Z for every version (build.mjs).
  const published = Date.parse('2026-11-01T00:00:00Z');

  it('A15: the examples registry records publish times: a cooldown longer than their age refuses guard naming it, a shorter one installs the newest', async () => {
    const age = Math.floor((Date.now() - published) / DAY);
    const file = join(ws.dir, `policy-${ws.n}.json`);
    const env = ws.env({ HOOKPM_POLICY_FILE: file });
    await writeFile(file, JSON.stringify({ updates: { minimumReleaseAgeDays: age + 2 } }));
    const refused = await ws.hookpm(['install', 'guard@examples', '--yes'], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('E_NO_MATCHING_VERSION');
    expect(refused.stderr).toMatch(
      new RegExp(`minimum release age of ${age + 2} day\\(s\\).*was published \\d+ day\\(s\\) ago`),
    );
    await writeFile(
      file,
      JSON.stringify({ updates: { minimumReleaseAgeDays: Math.max(1, age - 2) } }),
    );
    const run = await ws.hookpm(['install', 'guard@examples', '--yes'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(await installed(env)).toBe('1.3.0');
  });
});
