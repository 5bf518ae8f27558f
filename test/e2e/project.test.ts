/**
 * Projects end to end with the built binary: two teammates (two homes, each its own HOME and
 * HOOKPM_HOME) share one project directory and a real registry served on 127.0.0.1. The first adds
 * a plugin with `install --project`; the second gets the same bytes with `hookpm ci --yes`, with no
 * `registry add`. Tampered locks fail E_INTEGRITY and change nothing, a hand-edited hookpm.json
 * fails E_LOCK_MISMATCH, a project plugin runs in its project only, consent stays each user's, and
 * hookpm.lock is byte-identical however often and from whichever home it is written.
 */
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveStorePaths } from '../../src/store/paths.js';
import { ensureBuilt, runBin, type BinRun } from '../helpers/built-bin.js';
import {
  publishPlugin,
  type ServedRegistry,
  startPluginRegistry,
} from '../helpers/plugin-registry.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { useBubblewrap } from '../helpers/bubblewrap.js';

/** A PreToolUse hook that denies, so its run is visible in `hookpm run --json`. */
const DENY = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"team-guard"}}'`;
const PAYLOAD = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } });

let acme: ServedRegistry;
let homes: TempHome[];
let work: string;
let project: string;

beforeAll(async () => {
  ensureBuilt();
  acme = await startPluginRegistry('acme');
  await publishPlugin(acme, 'team-guard', '1.0.0', { PreToolUse: [DENY] });
  await publishPlugin(acme, 'team-guard', '1.1.0', { PreToolUse: [DENY] });
  await publishPlugin(acme, 'notes', '2.0.0', { Stop: ['echo done'] });
}, 120_000);
afterAll(() => acme.close());

beforeEach(async () => {
  homes = [await makeTempHome('hookpm-teammate-a-'), await makeTempHome('hookpm-teammate-b-')];
  work = await mkdtemp(join(tmpdir(), 'hookpm-project-e2e-'));
  project = await newProject('repo');
});
afterEach(async () => {
  for (const home of homes) await home.cleanup();
  await rm(work, { recursive: true, force: true });
});

/** A project directory: a `.git` directory makes it its own root (engine.md S2). */
async function newProject(name: string): Promise<string> {
  const dir = join(work, name);
  await mkdir(join(dir, '.git'), { recursive: true });
  return dir;
}

function hookpm(home: TempHome, cwd: string, ...args: string[]): Promise<BinRun> {
  return runBin(args, { env: home.env, cwd, stdin: args[0] === 'run' ? PAYLOAD : '' });
}

async function ok(home: TempHome, cwd: string, ...args: string[]): Promise<BinRun> {
  const run = await hookpm(home, cwd, ...args);
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run;
}

async function fails(
  home: TempHome,
  cwd: string,
  code: string,
  ...args: string[]
): Promise<BinRun> {
  const run = await hookpm(home, cwd, ...args);
  expect(run.code, run.stdout).not.toBe(0);
  expect(run.stderr).toContain(`error[${code}]`);
  return run;
}

const files = async (dir = project) => ({
  json: await readFile(join(dir, 'hookpm.json'), 'utf8'),
  lock: await readFile(join(dir, 'hookpm.lock'), 'utf8'),
});
const store = (home: TempHome) =>
  hashStore(resolveStorePaths({ HOOKPM_HOME: home.env.HOOKPM_HOME }));

/** The plugins whose handlers ran for a PreToolUse in `cwd`. */
async function ranPlugins(home: TempHome, cwd: string): Promise<string[]> {
  const run = await ok(home, cwd, 'run', 'PreToolUse', '--payload', '-', '--json');
  const result = JSON.parse(run.stdout) as { runs: Array<{ plugin: string | null }> };
  return result.runs.flatMap((r) => (r.plugin === null ? [] : [r.plugin]));
}

interface Lock {
  lockfileVersion: number;
  plugins: Record<string, { version: string; integrity: string; resolved: string }>;
}

/** Teammate A adds team-guard to the project (its registry configured once, as usual). */
async function teammateAdds(home: TempHome, dir = project): Promise<void> {
  await ok(home, dir, 'registry', 'add', 'acme', acme.url);
  await ok(home, dir, 'install', '--project', 'team-guard@acme', '--yes');
}

// guard declares capabilities: its handlers run under bubblewrap.
useBubblewrap();

describe('hookpm.json, hookpm.lock and hookpm ci between two teammates', () => {
  it('acceptance: the second teammate runs `hookpm ci --yes` with no `registry add` and gets the same versions and integrity', async () => {
    const [a, b] = homes as [TempHome, TempHome];
    await teammateAdds(a);
    const { json, lock } = await files();
    expect(JSON.parse(json)).toEqual({
      plugins: { 'team-guard@acme': '^1.1.0' },
      registries: { acme: acme.url },
    });
    const locked = JSON.parse(lock) as Lock;
    expect(locked.lockfileVersion).toBe(1);
    expect(locked.plugins['team-guard@acme']).toMatchObject({
      version: '1.1.0',
      resolved: `${acme.url}tarballs/team-guard-1.1.0.tgz`,
    });
    expect(locked.plugins['team-guard@acme']?.integrity).toMatch(/^sha512-/);
    // Nothing machine-specific: no home, no project path, no time.
    for (const home of homes) expect(lock).not.toContain(home.dir);
    expect(lock).not.toContain(work);
    expect(lock).not.toMatch(/\d{4}-\d\d-\d\dT/);

    const ci = await ok(b, project, 'ci', '--yes', '--json');
    const result = JSON.parse(ci.stdout) as {
      schemaVersion: number;
      installed: Array<{ id: string; version: string; integrity: string; active: boolean }>;
      wrote: string[];
    };
    expect(result.schemaVersion).toBe(1);
    expect(result.installed).toMatchObject([
      {
        id: 'team-guard@acme',
        version: '1.1.0',
        integrity: locked.plugins['team-guard@acme']?.integrity,
        active: true,
      },
    ]);
    expect(result.wrote).toEqual([]);
    expect(await files()).toEqual({ json, lock });
    const listed = JSON.parse((await ok(b, project, 'list', '--project', '--json')).stdout) as {
      plugins: unknown[];
    };
    expect(listed.plugins).toEqual([
      {
        id: 'team-guard@acme',
        wanted: '^1.1.0',
        locked: '1.1.0',
        installed: '1.1.0',
        enabled: true,
        active: true,
      },
    ]);
    // The store stays shared: the user-wide list is untouched by a project install.
    expect(JSON.parse((await ok(b, project, 'list', '--json')).stdout)).toMatchObject({
      plugins: [],
    });
    // The text of `list` inside the project shows the project's plugins beside the user's.
    const text = (await ok(b, project, 'list')).stdout;
    expect(text).toMatch(
      /^project .*:\nID +VERSION +STATE.*\nteam-guard@acme +1\.1\.0 +enabled\b/m,
    );
    expect(await ranPlugins(b, project)).toEqual(['team-guard@acme']);
  });

  it('acceptance: hookpm.lock is byte-identical when written twice, and when written from two homes', async () => {
    const [a, b] = homes as [TempHome, TempHome];
    await teammateAdds(a);
    const first = await files();
    await ok(a, project, 'install', '--project', 'team-guard@acme', '--yes');
    await ok(a, project, 'install');
    expect(await files()).toEqual(first);
    // Installing it again with another range saves that range (and locks what it picks).
    await ok(a, project, 'install', '--project', 'team-guard@acme@~1.0.0', '--yes');
    expect(JSON.parse((await files()).json)).toMatchObject({
      plugins: { 'team-guard@acme': '~1.0.0' },
    });
    expect((JSON.parse((await files()).lock) as Lock).plugins['team-guard@acme']?.version).toBe(
      '1.0.0',
    );
    await ok(a, project, 'install', '--project', 'team-guard@acme', '--yes');
    expect(await files()).toEqual(first);
    const other = await newProject('other-clone');
    await teammateAdds(b, other);
    expect(await files(other)).toEqual(first);
    expect(first.lock.endsWith('}\n')).toBe(true);
  });

  it('acceptance: a tampered integrity in hookpm.lock fails E_INTEGRITY and changes nothing (files and stores byte-identical)', async () => {
    const [a, b] = homes as [TempHome, TempHome];
    await teammateAdds(a);
    const { lock } = await files();
    const real = (JSON.parse(lock) as Lock).plugins['team-guard@acme']!.integrity;
    const forged = `sha512-${createHash('sha512').update('other bytes').digest('base64')}`;
    await writeFile(join(project, 'hookpm.lock'), lock.replace(real, forged));
    const before = await files();
    const stores = [await store(a), await store(b)];
    await fails(b, project, 'E_INTEGRITY', 'ci', '--yes');
    await fails(a, project, 'E_INTEGRITY', 'ci', '--yes');
    await fails(a, project, 'E_INTEGRITY', 'install', '--yes');
    expect(await files()).toEqual(before);
    expect([await store(a), await store(b)]).toEqual(stores);
  });

  it('acceptance: a plugin added to hookpm.json by hand makes `ci` fail E_LOCK_MISMATCH; `install` then locks it', async () => {
    const [a, b] = homes as [TempHome, TempHome];
    await teammateAdds(a);
    const manifest = JSON.parse((await files()).json) as { plugins: Record<string, string> };
    manifest.plugins['notes@acme'] = '^2.0.0';
    await writeFile(join(project, 'hookpm.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const before = await files();
    const stores = await store(b);
    const run = await fails(b, project, 'E_LOCK_MISMATCH', 'ci', '--yes');
    expect(run.stderr).toContain('notes@acme');
    expect(await files()).toEqual(before);
    expect(await store(b)).toEqual(stores);
    // `install` with no spec resolves what hookpm.json added, and rewrites only the lock.
    await ok(a, project, 'install', '--yes');
    const after = await files();
    expect(after.json).toBe(before.json);
    expect(Object.keys((JSON.parse(after.lock) as Lock).plugins)).toEqual([
      'notes@acme',
      'team-guard@acme',
    ]);
    await ok(b, project, 'ci', '--yes');
  });

  it('projects: `install --project` and `update --project` drop the lock entries hookpm.json no longer names, so `ci` accepts the pair they write', async () => {
    const [a, b] = homes as [TempHome, TempHome];
    await teammateAdds(a);
    const guard = (JSON.parse((await files()).lock) as Lock).plugins['team-guard@acme']!;
    // team-guard removed from hookpm.json by hand; its lock entry stays behind.
    await writeFile(join(project, 'hookpm.json'), '{"plugins": {}, "registries": {}}\n');
    await ok(a, project, 'install', '--project', 'notes@acme', '--yes');
    expect(Object.keys((JSON.parse((await files()).lock) as Lock).plugins)).toEqual(['notes@acme']);
    await ok(b, project, 'ci', '--yes');
    // A lock entry left behind again: `update --project` drops it too.
    const stale = JSON.parse((await files()).lock) as Lock;
    stale.plugins['team-guard@acme'] = guard;
    await writeFile(join(project, 'hookpm.lock'), JSON.stringify(stale));
    await ok(a, project, 'update', '--project', '--yes');
    expect(Object.keys((JSON.parse((await files()).lock) as Lock).plugins)).toEqual(['notes@acme']);
    await ok(b, project, 'ci', '--yes');
  });

  it('projects: `install --project <spec>` also locks what hookpm.json names and the lock does not pin yet, as `npm install <pkg>` does, so `ci` accepts the pair it writes', async () => {
    const [a, b] = homes;
    await ok(a, project, 'registry', 'add', 'acme', acme.url);
    // hookpm.json names notes@acme by hand, with no lock yet.
    await writeFile(
      join(project, 'hookpm.json'),
      JSON.stringify({ plugins: { 'notes@acme': '^2.0.0' }, registries: { acme: acme.url } }),
    );
    // Its --yes answers for team-guard alone (projects.md consent): notes waits for consent.
    const run = await fails(
      a,
      project,
      'E_CONSENT_REQUIRED',
      'install',
      '--project',
      'team-guard@acme',
      '--yes',
    );
    expect(run.stderr).toContain('notes@acme');
    const after = await files();
    expect(Object.keys((JSON.parse(after.lock) as Lock).plugins)).toEqual([
      'notes@acme',
      'team-guard@acme',
    ]);
    expect(JSON.parse(after.json).plugins).toEqual({
      'notes@acme': '^2.0.0',
      'team-guard@acme': '^1.1.0',
    });
    await ok(b, project, 'ci', '--yes');
  });

  it('`list --project` says when the version installed is not the one hookpm.lock pins (a teammate moved the lock), and what brings it in line', async () => {
    const [a, b] = homes;
    await ok(a, project, 'registry', 'add', 'acme', acme.url);
    await ok(a, project, 'install', '--project', 'team-guard@acme@1.0.0', '--yes');
    await ok(b, project, 'registry', 'add', 'acme', acme.url);
    await ok(b, project, 'install', '--project', 'team-guard@acme@1.1.0', '--yes');
    const row = async () =>
      (await ok(a, project, 'list', '--project')).stdout
        .split('\n')
        .find((line) => line.startsWith('team-guard@acme'));
    expect(await row()).toMatch(
      /1\.1\.0 +1\.0\.0 +active, not the locked version \(run hookpm install\)$/,
    );
    await ok(a, project, 'install', '--yes');
    expect(await row()).toMatch(/1\.1\.0 +1\.1\.0 +active$/);
  });

  it('projects: when a plugin hookpm.json names and the lock does not pin cannot be resolved, `install --project <spec>` says it comes from hookpm.json and writes nothing', async () => {
    const [a] = homes as [TempHome, TempHome];
    await ok(a, project, 'registry', 'add', 'acme', acme.url);
    const json = JSON.stringify({
      plugins: { 'ghost@acme': '^1.0.0' },
      registries: { acme: acme.url },
    });
    await writeFile(join(project, 'hookpm.json'), json);
    const run = await fails(a, project, 'E_NOT_FOUND', 'install', '--project', 'team-guard@acme');
    expect(run.stderr).toContain(
      'ghost@acme ("^1.0.0") is in hookpm.json but not in hookpm.lock, so it is locked with ' +
        'team-guard@acme: no plugin ghost in registry acme',
    );
    expect(await readFile(join(project, 'hookpm.json'), 'utf8')).toBe(json);
    await expect(stat(join(project, 'hookpm.lock'))).rejects.toThrow();
  });

  it('acceptance: a project plugin does not run outside its project, nor in a fresh clone before install or ci', async () => {
    const [a, b] = homes as [TempHome, TempHome];
    await teammateAdds(a);
    expect(await ranPlugins(a, project)).toEqual(['team-guard@acme']);
    const elsewhere = await newProject('unrelated');
    expect(await ranPlugins(a, elsewhere)).toEqual([]);
    // A subdirectory is in the project (its S2 root).
    await mkdir(join(project, 'src', 'deep'), { recursive: true });
    expect(await ranPlugins(a, join(project, 'src', 'deep'))).toEqual(['team-guard@acme']);
    // The second teammate's fresh clone runs nothing of the project until they run ci.
    expect(await ranPlugins(b, project)).toEqual([]);
  });

  it('a linked agent (`hookpm wire claude`) runs the project plugin for events in the project only, pinned per session', async () => {
    const [a] = homes as [TempHome];
    await teammateAdds(a);
    const elsewhere = await newProject('unrelated');
    const event = (session: string, cwd: string): string =>
      JSON.stringify({
        session_id: session,
        transcript_path: join(work, 't.jsonl'),
        cwd,
        hook_event_name: 'PreToolUse',
        permission_mode: 'default',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        tool_use_id: 'toolu_1',
      });
    const wire = (body: string) =>
      runBin(['wire', 'claude'], { env: a.env, cwd: work, stdin: body });
    const inside = await wire(event('p1', project));
    expect(inside.code, inside.stderr).toBe(0);
    expect(JSON.parse(inside.stdout)).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'team-guard' },
    });
    const outside = await wire(event('p2', elsewhere));
    expect(outside.code, outside.stderr).toBe(0);
    expect(outside.stdout).toBe('');
  });

  it("consent stays each user's: no --yes and no TTY is E_CONSENT_REQUIRED, nothing runs; the same surface consented in one project is not asked again in another", async () => {
    const [a, b] = homes as [TempHome, TempHome];
    await teammateAdds(a);
    const run = await fails(b, project, 'E_CONSENT_REQUIRED', 'ci');
    expect(run.stderr).toContain('team-guard@acme');
    expect(await ranPlugins(b, project)).toEqual([]);
    await ok(b, project, 'ci', '--yes');
    expect(await ranPlugins(b, project)).toEqual(['team-guard@acme']);
    // Another project locking the same bytes: consented already, so no question (and no --yes).
    const second = await newProject('second');
    await writeFile(join(second, 'hookpm.json'), (await files()).json);
    await writeFile(join(second, 'hookpm.lock'), (await files()).lock);
    await ok(b, second, 'ci');
    expect(await ranPlugins(b, second)).toEqual(['team-guard@acme']);
    // A widened surface (a new hook) is asked for again.
    await publishPlugin(acme, 'team-guard', '1.2.0', { PreToolUse: [DENY], Stop: ['echo stop'] });
    await ok(a, project, 'update', '--project', '--yes');
    expect((JSON.parse((await files()).lock) as Lock).plugins['team-guard@acme']?.version).toBe(
      '1.2.0',
    );
    await fails(b, project, 'E_CONSENT_REQUIRED', 'ci');
    expect(await ranPlugins(b, project)).toEqual([]);
  });

  it('`ci --offline` installs from a warm tarball cache without a request; `uninstall --project` removes it from both files', async () => {
    const [a, b] = homes as [TempHome, TempHome];
    await teammateAdds(a);
    await ok(b, project, 'ci', '--yes');
    const requests = acme.requests.length;
    await ok(b, project, 'ci', '--offline', '--yes');
    expect(acme.requests.length).toBe(requests);
    await ok(a, project, 'uninstall', '--project', 'team-guard');
    expect(JSON.parse((await files()).json)).toMatchObject({ plugins: {} });
    expect(JSON.parse((await files()).lock)).toEqual({ lockfileVersion: 1, plugins: {} });
    expect(await ranPlugins(a, project)).toEqual([]);
  });

  it('an unreadable hookpm.json or hookpm.lock is refused with E_PROJECT_FILE and never rewritten', async () => {
    const [a] = homes as [TempHome];
    await ok(a, project, 'registry', 'add', 'acme', acme.url);
    await writeFile(join(project, 'hookpm.json'), '{"plugins": {"team-guard@acme": "^1.0.0",}}');
    const stores = await store(a);
    await fails(a, project, 'E_PROJECT_FILE', 'install', '--project', 'team-guard@acme', '--yes');
    await fails(a, project, 'E_PROJECT_FILE', 'ci', '--yes');
    expect(await readFile(join(project, 'hookpm.json'), 'utf8')).toBe(
      '{"plugins": {"team-guard@acme": "^1.0.0",}}',
    );
    expect(await store(a)).toEqual(stores);
    await writeFile(join(project, 'hookpm.json'), '{"plugins": {}}\n');
    await writeFile(join(project, 'hookpm.lock'), '{"lockfileVersion": 99, "plugins": {}}\n');
    await fails(a, project, 'E_PROJECT_FILE', 'install', '--project', 'team-guard@acme', '--yes');
    expect(await readFile(join(project, 'hookpm.lock'), 'utf8')).toBe(
      '{"lockfileVersion": 99, "plugins": {}}\n',
    );
  });

  it('`hookpm outdated [--project] --json`: installed, newest in range, newest overall, and whether the surface changes', async () => {
    const [a] = homes as [TempHome];
    await publishPlugin(acme, 'lint', '1.0.0', { PreToolUse: ['echo lint'] });
    await ok(a, project, 'registry', 'add', 'acme', acme.url);
    await ok(a, project, 'install', '--project', 'lint@acme@^1.0.0', '--yes');
    await ok(a, project, 'install', 'lint@acme@^1.0.0', '--yes');
    await publishPlugin(acme, 'lint', '1.1.0', { PreToolUse: ['echo lint'] });
    await publishPlugin(acme, 'lint', '2.0.0', { PreToolUse: ['echo lint', 'echo more'] });
    const expected = {
      id: 'lint@acme',
      installed: '1.0.0',
      wanted: '^1.0.0',
      inRange: '1.1.0',
      latest: '2.0.0',
      surfaceChangesInRange: false,
      surfaceChangesLatest: true,
      outdated: true,
      newer: true,
    };
    for (const args of [
      ['outdated', '--project', '--json'],
      ['outdated', '--json'],
    ]) {
      // Something is outdated: exit 1, as `npm outdated`.
      const run = await hookpm(a, project, ...args);
      expect(run.code, run.stderr).toBe(1);
      const report = JSON.parse(run.stdout) as { schemaVersion: number; plugins: unknown[] };
      expect(report.schemaVersion).toBe(1);
      expect(report.plugins).toEqual([expected]);
    }
    const table = (await hookpm(a, project, 'outdated', '--project')).stdout;
    expect(table).toMatch(/lint@acme\s+1\.0\.0\s+\^1\.0\.0\s+1\.1\.0\s+2\.0\.0\s+same \/ changes/);
  });

  it('`hookpm outdated` lists only what has a newer version and exits 1 then; 0 with nothing to list; --all lists everything', async () => {
    const [a] = homes as [TempHome];
    await publishPlugin(acme, 'fresh', '1.0.0', { PreToolUse: ['echo fresh'] });
    await publishPlugin(acme, 'stale', '1.0.0', { PreToolUse: ['echo stale'] });
    await ok(a, project, 'registry', 'add', 'acme', acme.url);
    await ok(a, project, 'install', 'fresh@acme', '--yes');
    await ok(a, project, 'install', 'stale@acme', '--yes');
    const current = await ok(a, project, 'outdated');
    expect(current.stdout).toBe('everything is up to date\n');
    await publishPlugin(acme, 'stale', '1.0.1', { PreToolUse: ['echo stale'] });
    const behind = await hookpm(a, project, 'outdated');
    expect(behind.code).toBe(1);
    expect(behind.stdout).toMatch(/^stale@acme +1\.0\.0 /m);
    expect(behind.stdout).not.toContain('fresh@acme');
    const all = await hookpm(a, project, 'outdated', '--all', '--json');
    expect(all.code).toBe(1);
    const ids = (JSON.parse(all.stdout) as { plugins: Array<{ id: string; newer: boolean }> })
      .plugins;
    expect(ids.map((p) => [p.id, p.newer])).toEqual([
      ['fresh@acme', false],
      ['stale@acme', true],
    ]);
  });

  it("where the project pins a plugin the user also has user-wide, the project's version runs there, once; the user's runs elsewhere", async () => {
    const [a] = homes as [TempHome];
    await ok(a, project, 'registry', 'add', 'acme', acme.url);
    const denies = (reason: string) =>
      `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"${reason}"}}'`;
    await publishPlugin(acme, 'pinned', '1.0.0', { PreToolUse: [denies('pinned 1.0.0')] });
    await publishPlugin(acme, 'pinned', '2.0.0', { PreToolUse: [denies('pinned 2.0.0')] });
    await ok(a, project, 'install', 'pinned@acme@1.0.0', '--yes');
    await ok(a, project, 'install', '--project', 'pinned@acme@2.0.0', '--yes');
    const reason = async (cwd: string) => {
      const run = await ok(a, cwd, 'run', 'PreToolUse', '--payload', '-', '--json');
      const result = JSON.parse(run.stdout) as {
        runs: Array<{ plugin: string | null }>;
        permission: { reason: string } | null;
      };
      return { plugins: result.runs.map((r) => r.plugin), reason: result.permission?.reason };
    };
    expect(await reason(project)).toEqual({ plugins: ['pinned@acme'], reason: 'pinned 2.0.0' });
    const elsewhere = await newProject('unrelated');
    expect(await reason(elsewhere)).toEqual({ plugins: ['pinned@acme'], reason: 'pinned 1.0.0' });
    const listed = JSON.parse((await ok(a, elsewhere, 'list', '--json')).stdout) as {
      plugins: Array<{ id: string; version: string }>;
    };
    expect(listed.plugins.map((p) => `${p.id} ${p.version}`)).toEqual(['pinned@acme 1.0.0']);
    // The store is shared: removing the user-wide plugin keeps the project's tree (D4 collection).
    await ok(a, elsewhere, 'uninstall', 'pinned@acme');
    expect(await reason(project)).toEqual({ plugins: ['pinned@acme'], reason: 'pinned 2.0.0' });
    expect((await reason(elsewhere)).plugins).toEqual([]);
  });

  it('a project install refuses the flags it does not support (E_USAGE), and changes nothing', async () => {
    const [a] = homes as [TempHome];
    await ok(a, project, 'registry', 'add', 'acme', acme.url);
    const stores = await store(a);
    // --dry-run is supported (test/e2e/project-store.test.ts).
    for (const flag of ['--force', '--force-integrity-change']) {
      const run = await hookpm(a, project, 'install', '-P', 'team-guard@acme', flag);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('error[E_USAGE]');
    }
    expect(await store(a)).toEqual(stores);
    const none = await hookpm(a, project, 'install');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no hookpm.json');
  });

  it('a plugin of a registry on disk (the built-in `examples`) is locked relative to the registry, and a teammate installs it with `ci`', async () => {
    const [a, b] = homes as [TempHome, TempHome];
    await ok(a, project, 'install', '--project', 'guard@examples', '--yes');
    const { json, lock } = await files();
    expect(JSON.parse(json)).toEqual({ plugins: { 'guard@examples': '^1.3.0' }, registries: {} });
    expect((JSON.parse(lock) as Lock).plugins['guard@examples']?.resolved).toBe(
      'tarballs/guard-1.3.0.tgz',
    );
    await ok(b, project, 'ci', '--yes');
    expect(await ranPlugins(b, project)).toEqual(['guard@examples']);
    expect(await files()).toEqual({ json, lock });
  });

  it('hookpm.json and hookpm.lock keep their permission bits when install --project rewrites them (664 stays 664)', async () => {
    const a = homes[0]!;
    const modes = async () =>
      Promise.all(
        ['hookpm.json', 'hookpm.lock'].map(
          async (f) => (await stat(join(project, f))).mode & 0o777,
        ),
      );
    await ok(a, project, 'install', '--project', 'guard@examples', '--yes');
    const before = await files();
    for (const f of ['hookpm.json', 'hookpm.lock']) await chmod(join(project, f), 0o664);
    await ok(a, project, 'install', '--project', 'audit-log@examples', '--yes');
    const after = await files();
    expect(after.json).not.toBe(before.json);
    expect(after.lock).not.toBe(before.lock);
    expect(await modes()).toEqual([0o664, 0o664]);
  });
});
