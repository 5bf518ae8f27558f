import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/io/lock.js';
import { runDoctor, type DoctorCheck, type DoctorReport } from '../../src/ops/doctor/doctor.js';
import { loadIndex } from '../../src/registry/indexes/load-index.js';
import { ensureDataDir } from '../../src/store/data-dir.js';
import { dispatchLogFiles } from '../../src/store/dispatch-log.js';
import { fingerprintTree } from '../../src/store/fingerprint.js';
import { installDir } from '../../src/store/layout.js';
import {
  indexCacheDir,
  lockFile,
  pluginsDir,
  stagingRoot,
  stateFile,
} from '../../src/store/paths.js';
import { pluginDataDir } from '../../src/store/plugin-dirs.js';
import { readState, writeState } from '../../src/store/state/state.js';
import type { PluginRecord, State } from '../../src/store/state/state-schema.js';
import { trustStorePath } from '../../src/workspace/trust-store.js';
import { makeIndex, SAMPLE_PLUGINS, startIndexServer } from '../helpers/index-documents.js';
import { makePlugin, makeState } from '../helpers/state-records.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { writeTree } from '../store/plugin-tree.js';
import { cmd, makeWorld, pluginFiles, type World } from './plugin-fixture.js';

let world: World;
beforeEach(async () => {
  world = await makeWorld();
});
afterEach(() => world.cleanup());

const doctor = (over: { fix?: boolean; online?: boolean } = {}): Promise<DoctorReport> =>
  runDoctor(
    {
      paths: world.paths,
      userHome: world.home,
      defaults: {},
      fetch: { retries: 0, deadlineMs: 5000 },
    },
    { fix: over.fix ?? false, online: over.online ?? false },
  );

const find = (report: DoctorReport, name: string): DoctorCheck[] =>
  report.checks.filter((check) => check.name === name);

function only(report: DoctorReport, name: string): DoctorCheck {
  const found = find(report, name);
  if (found.length !== 1)
    throw new Error(`expected one ${name} check, got ${JSON.stringify(report.checks)}`);
  return found[0] as DoctorCheck;
}

/** A plugin tree written into its versioned directory and recorded with its real fingerprint. */
async function installByHand(
  name: string,
  over: Partial<PluginRecord> = {},
): Promise<PluginRecord> {
  const id = `${name}@local`;
  const version = over.version ?? '1.0.0';
  const path = installDir(world.paths, { id, version, integrity: `sha512-${name}${version}` });
  await writeTree(path, pluginFiles(name, version, { PreToolUse: [cmd('echo hi')] }));
  const fingerprint = await fingerprintTree(path);
  return makePlugin(id, {
    registry: 'local',
    source: `./src/${name}`,
    path,
    fingerprint,
    version,
    ...over,
  });
}

async function saveState(
  plugins: PluginRecord[],
  registries: State['registries'] = {},
): Promise<void> {
  await writeState(world.paths, { ...makeState(plugins), registries });
  for (const plugin of plugins) if (plugin.enabled) await ensureDataDir(world.paths, plugin.id);
}

/** Every file below the temporary world, with its bytes: doctor must change none of it. */
async function snapshotWorld(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        out[full] = 'dir';
        await walk(full);
      } else out[full] = (await readFile(full)).toString('base64');
    }
  };
  await walk(world.dir);
  return out;
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  if (child.pid === undefined) throw new Error('no pid');
  return child.pid;
}

describe('hookpm doctor: a healthy store', () => {
  it('cli.md doctor: an installed, enabled, consented plugin, a valid local registry and trust store are all ok, and nothing is written', async () => {
    const registry = join(world.dir, 'reg');
    await writeTree(registry, { 'index.json': { json: makeIndex(SAMPLE_PLUGINS) } });
    await saveState([await installByHand('guard')], {
      acme: { location: registry, kind: 'index', addedAt: '2026-11-30T00:00:00.000Z' },
    });
    await mkdir(join(world.home, '.deepagents', '.state'), { recursive: true });
    await writeFile(trustStorePath(world.home), JSON.stringify({ version: 1, projects: {} }));
    const before = await snapshotWorld();
    const report = await doctor();
    expect(report.checks.filter((c) => c.status !== 'ok')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.name)).toEqual([
      'store.config',
      'store.data',
      'store.cache',
      'state',
      'lock',
      'plugin:guard@local',
      'fail-closed',
      'leftovers',
      'registry:acme',
      'hooks',
      'trust-store',
    ]);
    expect(only(report, 'registry:acme').message).toContain('3 plugins');
    expect(await snapshotWorld()).toEqual(before);
  });

  it('D1: a store that does not exist yet is healthy and doctor does not create it', async () => {
    const report = await doctor();
    expect(report.ok).toBe(true);
    expect(only(report, 'store.data').message).toContain('does not exist yet');
    expect(existsSync(world.paths.data)).toBe(false);
    expect(existsSync(join(world.dir, 'hookpm'))).toBe(false);
  });

  it('D1: a store directory that is a file is an error with a fix', async () => {
    await mkdir(join(world.dir, 'hookpm'), { recursive: true });
    await writeFile(world.paths.cache, 'not a directory');
    const check = only(await doctor(), 'store.cache');
    expect(check).toMatchObject({ status: 'error', code: 'store_not_directory' });
    expect(check.fix).toContain(`mv ${world.paths.cache}`);
  });
});

describe('hookpm doctor: the state file (D6)', () => {
  it('D6: a truncated state is an error that explains recovery step by step, and its bytes stay unchanged with no copy written', async () => {
    await saveState([await installByHand('guard')]);
    const bytes = (await readFile(stateFile(world.paths))).subarray(0, 120);
    await writeFile(stateFile(world.paths), bytes);
    const report = await doctor();
    const check = only(report, 'state');
    expect(report.ok).toBe(false);
    expect(check).toMatchObject({ status: 'error', code: 'state_corrupt' });
    expect(check.message).toContain('is not valid JSON');
    expect(check.fix).toMatch(/^1\. Keep the bad file: `cp /);
    expect(check.fix).toContain('2. To restore');
    expect(check.fix).toContain(
      `3. Otherwise move the bad file aside: \`mv ${stateFile(world.paths)}`,
    );
    expect(check.fix).toContain('4. Reinstalling recreates the entries');
    expect(await readFile(stateFile(world.paths))).toEqual(bytes);
    expect((await readdir(world.paths.data)).filter((n) => n.includes('corrupt'))).toEqual([]);
    expect(find(report, 'plugin:guard@local')).toEqual([]);
    expect(only(report, 'leftovers').message).toContain('installed trees were not judged');
  });

  it('D6: the copy kept by the failing command is named, and the plugins the bad file still names get their reinstall commands', async () => {
    const guard = await installByHand('guard', { source: '/plugins/my guard' });
    await saveState([guard]);
    const text = (await readFile(stateFile(world.paths), 'utf8')).replace(
      '"enabled":true',
      '"enabled":"yes"',
    );
    expect(text).toContain('"enabled":"yes"');
    await writeFile(stateFile(world.paths), text);
    const failure = await readState(world.paths).then(
      () => null,
      (error: unknown) => error as { code: string; details: { copy: string } },
    );
    expect(failure?.code).toBe('E_STATE_CORRUPT');
    const check = only(await doctor(), 'state');
    expect(check.message).toContain('does not match the state schema: plugins.guard@local.enabled');
    expect(check.fix).toContain(`1. The bad bytes are kept at ${failure?.details.copy}`);
    expect(check.fix).toContain("hookpm install '/plugins/my guard'");
    expect(await readFile(stateFile(world.paths), 'utf8')).toBe(text);
  });

  it('D6: a state of a future version is an error that says a newer hookpm wrote it, never rewritten', async () => {
    const text = JSON.stringify({ version: 7, registries: {}, plugins: {}, extra: true });
    await mkdir(world.paths.data, { recursive: true });
    await writeFile(stateFile(world.paths), text);
    const check = only(await doctor({ fix: true }), 'state');
    expect(check).toMatchObject({ status: 'error', code: 'state_future_version' });
    expect(check.message).toContain('state version 7');
    expect(check.fix).toContain('newer hookpm');
    expect(check.fix).toContain(`${stateFile(world.paths)}.v7`);
    expect(await readFile(stateFile(world.paths), 'utf8')).toBe(text);
  });

  it('D6: a field this hookpm does not know (a newer one of the same state version wrote it, as a rollback kept opt-outs) is E_STATE_CORRUPT whose first step is the newer hookpm', async () => {
    const consent = { surfaceHash: 's', at: '2026-12-01T00:00:00Z', version: '0.9.0' };
    const previous = {
      version: '0.9.0',
      path: '/x',
      integrity: 'sha512-x',
      fingerprint: 'f',
      consent,
    };
    const record = {
      ...makePlugin('guard@acme'),
      previous: { ...previous, surfaceHash: 's', events: [], source: 's', laterField: ['k'] },
    };
    const text = JSON.stringify({ version: 1, registries: {}, plugins: { 'guard@acme': record } });
    await mkdir(world.paths.data, { recursive: true });
    await writeFile(stateFile(world.paths), text);
    const check = only(await doctor(), 'state');
    expect(check).toMatchObject({ status: 'error', code: 'state_corrupt' });
    expect(check.fix?.split('\n')[0]).toContain('newer hookpm');
    expect(check.fix?.split('\n')[0]).toContain('plugins.guard@acme.previous.laterField');
    expect(await readFile(stateFile(world.paths), 'utf8')).toBe(text);
  });
});

describe('hookpm doctor: a state holding 200 KB fields (security.md, state and the file system)', () => {
  const long = (head: string): string => `${head}${'x'.repeat(200_000)}`;
  /** Every check quotes at most the first 200 characters of each field: a few lines each. */
  const bounded = (report: DoctorReport): void => {
    for (const check of report.checks)
      expect(`${check.message} ${check.fix ?? ''}`.length, check.name).toBeLessThan(2_000);
  };

  it("a plugin's source and path, and a registry's location, are quoted by their first 200 characters", async () => {
    const guard = await installByHand('guard', { source: long('./src/'), path: long('/gone/') });
    const location = long('/registries/');
    await saveState([guard], { acme: { location, kind: 'marketplace', addedAt: 'x' } });
    const report = await doctor();
    expect(only(report, 'plugin:guard@local').code).toBe('plugin_missing');
    expect(only(report, 'fail-closed:guard@local').status).toBe('error');
    expect(only(report, 'registry:acme').message).toContain(`${location.slice(0, 200)}...`);
    bounded(report);
  });

  it('the recovery steps of a damaged state quote the sources and registries it names by their first 200 characters', async () => {
    await saveState([await installByHand('guard', { source: long('./src/') })]);
    const state = JSON.parse(await readFile(stateFile(world.paths), 'utf8')) as {
      registries: Record<string, unknown>;
      plugins: Record<string, { enabled: unknown }>;
    };
    state.registries[long('r')] = { location: long('/registries/'), kind: 'marketplace' };
    state.plugins['guard@local']!.enabled = 'yes';
    await writeFile(stateFile(world.paths), JSON.stringify(state));
    const report = await doctor();
    expect(only(report, 'state').fix).toContain('hookpm registry add');
    bounded(report);
  });

  it('a decision log naming a 200 KB plugin and handler that time out is quoted by their first 200 characters', async () => {
    const run = { handler: long('PreToolUse:'), key: 'k', origin: 'plugin', plugin: long('p') };
    const entry = {
      v: 1,
      time: new Date().toISOString(),
      event: 'PreToolUse',
      source: 'run',
      session: 's',
      snapshot: 'x',
      decision: null,
      runs: [{ ...run, exitCode: 1, ms: 31, timedOut: true, failed: true, decision: null }],
    };
    const log = dispatchLogFiles(world.paths).current;
    await mkdir(dirname(log), { recursive: true });
    await writeFile(log, `${JSON.stringify(entry)}\n`.repeat(5));
    const report = await doctor();
    const hooks = report.checks.filter((check) => check.code === 'hook_times_out');
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.name.length).toBeLessThan(2_000);
    bounded(report);
  });
});

describe('hookpm doctor: installed plugins (Q4-Q6, V3)', () => {
  it('Q6: a plugin whose files were edited is listed as plugin_tampered with the fix `hookpm install --force <spec>`', async () => {
    const guard = await installByHand('guard');
    await saveState([guard, await installByHand('audit', { enabled: false })]);
    await writeFile(join(guard.path, 'hooks', 'hooks.json'), '{"hooks":{}}');
    const report = await doctor();
    expect(report.ok).toBe(false);
    expect(only(report, 'plugin:guard@local')).toMatchObject({
      status: 'error',
      code: 'plugin_tampered',
      fix: 'hookpm install --force ./src/guard',
    });
    expect(only(report, 'plugin:audit@local')).toMatchObject({ status: 'ok' });
    expect(only(report, 'plugin:audit@local').message).toContain('disabled');
  });

  it('Q6: a plugin whose installed tree is gone is plugin_missing with the same fix', async () => {
    const guard = await installByHand('guard');
    await saveState([guard]);
    await rm(guard.path, { recursive: true });
    expect(only(await doctor(), 'plugin:guard@local')).toMatchObject({
      status: 'error',
      code: 'plugin_missing',
      fix: 'hookpm install --force ./src/guard',
    });
  });

  it('Q4, Q5, V3: enabled without consent, an update waiting for consent and a missing data directory are warnings with their commands', async () => {
    const guard = await installByHand('guard', { consent: null });
    const next = await installByHand('audit', { version: '2.0.0' });
    const audit = await installByHand('audit', {
      pending: {
        version: '2.0.0',
        path: next.path,
        integrity: next.integrity,
        fingerprint: next.fingerprint,
        surfaceHash: 'sha256-NEW',
        events: ['PreToolUse'],
        source: './src/audit',
      },
    });
    await saveState([guard, audit]);
    await rm(pluginDataDir(world.paths, 'audit@local'), { recursive: true });
    const report = await doctor();
    expect(report.ok).toBe(true);
    expect(find(report, 'plugin:guard@local')).toEqual([
      expect.objectContaining({
        status: 'warning',
        code: 'consent_missing',
        fix: expect.stringContaining('`hookpm enable guard@local`'),
      }),
    ]);
    const audits = find(report, 'plugin:audit@local');
    expect(audits.map((c) => c.code)).toEqual(['update_pending', 'data_dir_missing']);
    expect(audits[0]?.message).toContain('audit@local 2.0.0 is installed and waits for consent');
    expect(audits[1]?.fix).toContain('hookpm enable audit@local');
    expect(only(report, 'leftovers').status).toBe('ok');
  });
});

describe('hookpm doctor: the lock (D3)', () => {
  it('D3: a lock held by a live process is a warning with its pid', async () => {
    const release = await acquireLock(lockFile(world.paths), { waitMs: 1000 });
    try {
      const check = only(await doctor(), 'lock');
      expect(check).toMatchObject({ status: 'warning', code: 'lock_held' });
      expect(check.message).toContain(`process ${process.pid}`);
    } finally {
      await release();
    }
    expect(only(await doctor(), 'lock').status).toBe('ok');
  });

  it('D3: a lock left by a dead process is a warning saying the next command recovers it, and --fix does', async () => {
    const pid = deadPid();
    await mkdir(world.paths.data, { recursive: true });
    const record = {
      pid,
      hostname: hostname(),
      startedAt: '2026-11-30T00:00:00.000Z',
      token: 'abcdef0123456789',
    };
    await writeFile(lockFile(world.paths), JSON.stringify(record));
    const check = only(await doctor(), 'lock');
    expect(check).toMatchObject({ status: 'warning', code: 'lock_stale' });
    expect(check.message).toContain(`process ${pid}`);
    expect(check.fix).toContain('the next command that changes the store recovers it');
    expect(existsSync(lockFile(world.paths))).toBe(true);
    const fixed = await doctor({ fix: true });
    expect(only(fixed, 'lock').status).toBe('ok');
    expect(existsSync(lockFile(world.paths))).toBe(false);
  });

  it('D3: a directory where the lock goes is an error naming it, and --fix leaves it and adds nothing beside it', async () => {
    const lock = lockFile(world.paths);
    await mkdir(join(lock, 'inside'), { recursive: true });
    const check = only(await doctor(), 'lock');
    expect(check).toMatchObject({ status: 'error', code: 'lock_directory' });
    expect(check.fix).toContain(`Remove the directory ${lock}`);
    const before = await readdir(world.paths.data);
    for (let run = 0; run < 2; run += 1) {
      const fix = only(await doctor({ fix: true }), 'fix');
      expect(fix).toMatchObject({ status: 'error', code: 'fix_failed' });
      expect(fix.message).toContain('it is a directory');
      expect(fix.fix).toContain(`remove the directory ${lock}`);
    }
    expect(await readdir(world.paths.data)).toEqual(before);
    expect(await readdir(lock)).toEqual(['inside']);
  });
});

describe('hookpm doctor: leftovers (D4) and --fix', () => {
  async function makeLeftovers(): Promise<{
    guard: PluginRecord;
    leftovers: string[];
    live: string;
  }> {
    const guard = await installByHand('guard');
    await saveState([guard]);
    const staging = join(stagingRoot(world.paths), `stage-${deadPid()}-abcdef`);
    await writeTree(staging, { 'plugin.json': '{}' });
    const live = join(stagingRoot(world.paths), `stage-${process.pid}-abcdef`);
    await writeTree(live, { 'plugin.json': '{}' });
    const orphan = join(pluginsDir(world.paths), 'old', '0.1.0-000000000000');
    await writeTree(orphan, { 'plugin.json': '{}' });
    const temp = join(world.paths.data, `.state.json.tmp-${deadPid()}-abcdef`);
    await writeFile(temp, '{"version"');
    return { guard, leftovers: [staging, orphan, temp], live };
  }

  it('D4: staging trees of dead processes, unreferenced trees and temporary files are listed, not removed', async () => {
    const { leftovers, live } = await makeLeftovers();
    const before = await snapshotWorld();
    const check = only(await doctor(), 'leftovers');
    expect(check).toMatchObject({ status: 'warning', code: 'leftovers' });
    expect(check.fix).toContain('hookpm doctor --fix');
    expect(check.paths?.slice().sort()).toEqual(leftovers.slice().sort());
    expect(check.paths).not.toContain(live);
    expect(await snapshotWorld()).toEqual(before);
  });

  it("S41: a released session pin's mark is no leftover: doctor reports none, and --fix removes the mark", async () => {
    const guard = await installByHand('guard');
    await saveState([guard]);
    const mark = join(stagingRoot(world.paths), 'released');
    await mkdir(stagingRoot(world.paths), { recursive: true });
    await writeFile(mark, '');
    expect(only(await doctor(), 'leftovers').status).toBe('ok');
    const fixed = await doctor({ fix: true });
    expect(only(fixed, 'fix').paths).toEqual([mark]);
    expect(existsSync(mark)).toBe(false);
  });

  it('D4: --fix collects exactly the leftovers and changes nothing else: state, installed and tampered trees stay', async () => {
    const { guard, leftovers, live } = await makeLeftovers();
    await writeFile(join(guard.path, 'plugin.json'), '{"name":"guard","version":"6.6.6"}');
    const stateBytes = await readFile(stateFile(world.paths));
    const trees = await hashStore(world.paths);
    const report = await doctor({ fix: true });
    expect(only(report, 'fix')).toMatchObject({ status: 'ok', message: 'collected 3 leftovers' });
    expect(only(report, 'fix').paths?.slice().sort()).toEqual(leftovers.slice().sort());
    for (const path of leftovers) expect(existsSync(path)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(only(report, 'leftovers').status).toBe('ok');
    expect(only(report, 'plugin:guard@local').code).toBe('plugin_tampered');
    expect(await readFile(stateFile(world.paths))).toEqual(stateBytes);
    const after = await hashStore(world.paths);
    for (const [path, hash] of Object.entries(trees)) {
      if (!path.startsWith('plugins/old') && !path.startsWith('.state.json.tmp'))
        expect(after[path]).toBe(hash);
    }
  });

  it('D3, D4: --fix while another command holds the lock waits, then reports E_LOCKED as an error and removes nothing', async () => {
    const { leftovers } = await makeLeftovers();
    const release = await acquireLock(lockFile(world.paths), { waitMs: 1000 });
    try {
      const report = await runDoctor(
        { paths: world.paths, userHome: world.home, defaults: {}, lockWaitMs: 100 },
        { fix: true, online: false },
      );
      expect(report.ok).toBe(false);
      expect(only(report, 'fix')).toMatchObject({ status: 'error', code: 'fix_failed' });
      expect(only(report, 'fix').message).toContain(`locked by process ${process.pid}`);
      for (const path of leftovers) expect(existsSync(path)).toBe(true);
    } finally {
      await release();
    }
  });

  it('D4, D6: --fix with a corrupt state collects nothing, since the trees in use cannot be told', async () => {
    const { leftovers } = await makeLeftovers();
    await writeFile(stateFile(world.paths), '{"version":1,');
    const report = await doctor({ fix: true });
    expect(only(report, 'fix')).toMatchObject({ status: 'warning', code: 'fix_skipped' });
    for (const path of leftovers) expect(existsSync(path)).toBe(true);
    expect(await readFile(stateFile(world.paths), 'utf8')).toBe('{"version":1,');
  });
});

describe('hookpm doctor: registries (N4, I2) and the trust store', () => {
  it('N4: a network registry without a cached index is a warning to `hookpm registry update`, and doctor makes no request', async () => {
    const server = await startIndexServer();
    try {
      server.serve(JSON.stringify(makeIndex(SAMPLE_PLUGINS)));
      await saveState([], { acme: { location: server.url, kind: 'index', addedAt: 'x' } });
      const check = only(await doctor(), 'registry:acme');
      expect(check).toMatchObject({
        status: 'warning',
        code: 'registry_cache_invalid',
        fix: 'hookpm registry update acme',
      });
      expect(check.message).toContain('no cached index');
      expect(server.requests).toEqual([]);
      const online = only(await doctor({ online: true }), 'registry:acme');
      expect(online.message).toContain('fetched now: 3 plugins');
      expect(server.requests.length).toBe(1);
      expect(existsSync(indexCacheDir(world.paths))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('N4: a cached index is checked offline; --online reports an index that cannot be fetched', async () => {
    const server = await startIndexServer();
    const registry = { name: 'acme', location: server.url };
    try {
      server.serve(JSON.stringify(makeIndex(SAMPLE_PLUGINS)));
      await saveState([], { acme: { location: server.url, kind: 'index', addedAt: 'x' } });
      await loadIndex(registry, {
        cacheDir: indexCacheDir(world.paths),
        cacheOnly: false,
        refresh: true,
      });
      const seen = server.requests.length;
      expect(only(await doctor(), 'registry:acme')).toMatchObject({ status: 'ok' });
      expect(server.requests.length).toBe(seen);
      server.serve('<html>not an index</html>');
      const online = only(await doctor({ online: true }), 'registry:acme');
      expect(online).toMatchObject({ status: 'warning', code: 'registry_unreachable' });
      expect(online.message).toContain('not JSON');
    } finally {
      await server.close();
    }
  });

  it('I2: a corrupt cached index and a broken local index are warnings naming the file', async () => {
    const broken = join(world.dir, 'broken');
    await writeTree(broken, {
      'index.json': '{"formatVersion":1,"plugins":{"guard":{"versions":[]}}}',
    });
    await saveState([], {
      local: { location: broken, kind: 'index', addedAt: 'x' },
      remote: { location: 'https://registry.example/hooks/', kind: 'index', addedAt: 'x' },
    });
    await mkdir(indexCacheDir(world.paths), { recursive: true });
    await writeFile(
      join(indexCacheDir(world.paths), 'remote.json'),
      '{"cacheVersion":1,"url":"https://regis',
    );
    const report = await doctor();
    expect(only(report, 'registry:local')).toMatchObject({
      status: 'warning',
      code: 'registry_index_invalid',
    });
    expect(only(report, 'registry:local').fix).toContain(`hookpm validate ${broken}`);
    expect(only(report, 'registry:remote')).toMatchObject({
      status: 'warning',
      code: 'registry_cache_invalid',
    });
    expect(only(report, 'registry:remote').message).toContain('remote.json is unreadable');
  });

  it('T3: an invalid trust store is a warning with the file path', async () => {
    await mkdir(join(world.home, '.deepagents', '.state'), { recursive: true });
    await writeFile(trustStorePath(world.home), '{"version":1,"projects":');
    const check = only(await doctor(), 'trust-store');
    expect(check).toMatchObject({ status: 'warning', code: 'trust_store_invalid' });
    expect(check.message).toContain(trustStorePath(world.home));
    expect(check.fix).toContain(trustStorePath(world.home));
  });
});
