import { chmod, lstat, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installPlugins } from '../../src/ops/install/install.js';
import type { InstallOptions } from '../../src/ops/steps/transaction/options.js';
import type { OperationContext } from '../../src/ops/steps/context/operation-context.js';
import type { ReviewReport } from '../../src/ops/steps/consent/report.js';
import { fingerprintTree } from '../../src/store/fingerprint.js';
import { stagingRoot } from '../../src/store/paths.js';
import { pluginDataDir } from '../../src/store/plugin-dirs.js';
import { readState } from '../../src/store/state/state.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { hooksDoc } from '../store/plugin-tree.js';
import { cmd, makeWorld, pluginFiles, type World } from './plugin-fixture.js';
import { failure } from '../helpers/failure.js';
import { HookpmError } from '../../src/errors.js';

let world: World;
let ctx: OperationContext;
beforeEach(async () => {
  world = await makeWorld();
  ctx = { paths: world.paths, now: () => new Date('2026-11-30T12:00:00.000Z') };
});
afterEach(() => world.cleanup());

const opts = (specs: string[], over: Partial<InstallOptions> = {}): InstallOptions => ({
  specs,
  cwd: world.dir,
  enable: 'no',
  force: false,
  dryRun: false,
  ...over,
});

describe('install from a directory', () => {
  it('D1b, P1, P2: a directory installs as <name>@local with its manifest version, source, integrity = files fingerprint', async () => {
    const dir = await world.plugin(
      'guard',
      pluginFiles('guard', '1.2.3', { PreToolUse: [cmd('echo hi')] }),
    );
    const result = await installPlugins(ctx, opts([dir]));
    expect(result.installed).toMatchObject([
      {
        id: 'guard@local',
        name: 'guard',
        version: '1.2.3',
        enabled: false,
        events: ['PreToolUse'],
        status: 'installed',
      },
    ]);
    const record = (await readState(world.paths)).plugins['guard@local']!;
    expect(record).toMatchObject({
      registry: 'local',
      source: dir,
      consent: null,
      enabled: false,
      pending: null,
      range: '',
    });
    expect(record.integrity).toBe(record.fingerprint);
    expect(await fingerprintTree(record.path)).toBe(record.fingerprint);
    expect(await readFile(join(record.path, 'plugin.json'), 'utf8')).toBe(
      await readFile(join(dir, 'plugin.json'), 'utf8'),
    );
    expect(await readdir(stagingRoot(world.paths))).toEqual([]);
  });

  it('P1: without a manifest the name is the directory name and the version 0.0.0', async () => {
    const dir = await world.plugin('bare-one', { 'hooks/hooks.json': hooksDoc('Stop') });
    const [entry] = (await installPlugins(ctx, opts([`./src/bare-one`]))).installed;
    expect(entry).toMatchObject({
      id: 'bare-one@local',
      version: '0.0.0',
      events: ['Stop'],
      source: dir,
    });
  });

  it('H5: a symlink inside the plugin is copied as the file it names; modes are masked and setuid never survives', async () => {
    const dir = await world.plugin('links', {
      'hooks/hooks.json': hooksDoc('Stop'),
      'bin/run.sh': '#!/bin/sh\necho run\n',
      'alias.sh': { link: 'bin/run.sh' },
    });
    await chmod(join(dir, 'bin/run.sh'), 0o4775);
    const [entry] = (await installPlugins(ctx, opts([dir]))).installed;
    const alias = await lstat(join(entry!.path!, 'alias.sh'));
    expect(alias.isFile()).toBe(true);
    expect(alias.mode & 0o7777).toBe(0o755);
    expect((await stat(join(entry!.path!, 'bin/run.sh'))).mode & 0o7777).toBe(0o755);
    expect((await stat(join(entry!.path!, 'hooks/hooks.json'))).mode & 0o7777).toBe(0o644);
  });

  it('Q4: --yes consents to the surface, enables and creates the data directory (V3)', async () => {
    const dir = await world.plugin(
      'guard',
      pluginFiles('guard', '1.0.0', { Stop: [cmd('echo stop')] }),
    );
    const [entry] = (await installPlugins(ctx, opts([dir], { enable: 'yes' }))).installed;
    const record = (await readState(world.paths)).plugins['guard@local']!;
    expect(entry).toMatchObject({ enabled: true, active: true });
    expect(record.consent).toEqual({
      surfaceHash: record.surfaceHash,
      at: '2026-11-30T12:00:00.000Z',
      version: '1.0.0',
    });
    expect((await stat(pluginDataDir(world.paths, 'guard@local'))).isDirectory()).toBe(true);
  });

  it('Q4: asked through the injected confirm with the review; "no" installs it disabled without consent', async () => {
    const dir = await world.plugin(
      'guard',
      pluginFiles('guard', '1.0.0', { Stop: [cmd('echo stop')] }),
    );
    const asked: ReviewReport[] = [];
    const confirm = async (review: ReviewReport) => {
      asked.push(review);
      return false;
    };
    const [entry] = (await installPlugins({ ...ctx, confirm }, opts([dir], { enable: 'ask' })))
      .installed;
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      id: 'guard@local',
      consented: false,
      diff: null,
      events: ['Stop'],
    });
    expect(asked[0]!.hooks[0]).toMatchObject({
      event: 'Stop',
      command: 'echo stop',
      source: 'hooks/hooks.json',
      valid: true,
    });
    expect(entry).toMatchObject({ enabled: false, active: false });
    expect((await readState(world.paths)).plugins['guard@local']!.consent).toBeNull();
  });

  it('registry.md D2, engine.md B3: a first install cancelled at the question leaves the store as it was: no state file, no seal of one, no directory it made but staging', async () => {
    const dir = await world.plugin(
      'guard',
      pluginFiles('guard', '1.0.0', { Stop: [cmd('echo stop')] }),
    );
    const confirm = async (): Promise<boolean> => {
      throw new HookpmError('E_CANCELLED', 'cancelled');
    };
    const error = await failure(() =>
      installPlugins({ ...ctx, confirm }, opts([dir], { enable: 'ask' })),
    );
    expect(error.code).toBe('E_CANCELLED');
    const root = join(world.dir, 'hookpm');
    const left = (await readdir(root, { recursive: true })).map(String).sort();
    expect(left.filter((p) => !p.includes('.staging') && !p.startsWith('data/.lock'))).toEqual([
      'data',
    ]);
  });

  it('Q4: without a way to ask (no TTY) and without --yes, it is installed disabled and the command fails with E_CONSENT_REQUIRED naming --yes, as enable and update do', async () => {
    const dir = await world.plugin(
      'guard',
      pluginFiles('guard', '1.0.0', { Stop: [cmd('echo stop')] }),
    );
    const error = await installPlugins(ctx, opts([dir], { enable: 'ask' })).then(
      () => null,
      (e: unknown) => e as { code: string; hint: string },
    );
    expect(error?.code).toBe('E_CONSENT_REQUIRED');
    expect(error?.hint).toContain('hookpm enable guard@local --yes');
    expect((await readState(world.paths)).plugins['guard@local']?.enabled).toBe(false);
  });

  it('P4: problems inside a valid document (unknown event, prompt handler, bad matcher) do not block install; they stay inert', async () => {
    const dir = await world.plugin('loose', {
      'plugin.json': { json: { name: 'loose', version: '1.0.0', skills: ['x'] } },
      'hooks/hooks.json': {
        json: {
          hooks: {
            ConfigChange: [{ hooks: [cmd('echo c')] }],
            PostToolUse: [{ hooks: [{ type: 'prompt', prompt: 'p' }] }],
            PreToolUse: [{ matcher: '(unclosed', hooks: [cmd('echo p')] }],
            Stop: [{ hooks: [cmd('echo s')] }],
          },
        },
      },
    });
    const [entry] = (await installPlugins(ctx, opts([dir]))).installed;
    expect(entry!.events).toEqual(['Stop']);
  });

  it('Q6: the same version with the same files is left unchanged; --force reinstalls and restores a changed tree', async () => {
    const dir = await world.plugin(
      'guard',
      pluginFiles('guard', '1.0.0', { Stop: [cmd('echo stop')] }),
    );
    const [first] = (await installPlugins(ctx, opts([dir], { enable: 'yes' }))).installed;
    const again = await installPlugins(ctx, opts([dir]));
    expect(again.installed[0]).toMatchObject({ status: 'unchanged', path: first!.path });
    await writeFile(join(first!.path!, 'hooks/hooks.json'), '{"hooks":{}}');
    const forced = await installPlugins(ctx, opts([dir], { force: true }));
    const record = (await readState(world.paths)).plugins['guard@local']!;
    expect(forced.installed[0]).toMatchObject({ status: 'installed', enabled: true, active: true });
    expect(await fingerprintTree(record.path)).toBe(record.fingerprint);
    expect(record.path).not.toBe(first!.path);
    await expect(stat(first!.path!)).rejects.toThrow();
  });

  it('Q5: a reinstall that only removes hooks keeps the consent; one that adds a hook waits as pending on the consented version', async () => {
    const dir = await world.plugin(
      'guard',
      pluginFiles('guard', '1.0.0', { Stop: [cmd('echo a'), cmd('echo b')] }),
    );
    await installPlugins(ctx, opts([dir], { enable: 'yes' }));
    await writeFile(join(dir, 'plugin.json'), JSON.stringify({ name: 'guard', version: '1.1.0' }));
    await writeFile(
      join(dir, 'hooks/hooks.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [cmd('echo a')] }] } }),
    );
    const narrowed = await installPlugins(ctx, opts([dir]));
    expect(narrowed.installed[0]).toMatchObject({
      version: '1.1.0',
      enabled: true,
      active: true,
      status: 'installed',
    });
    await writeFile(join(dir, 'plugin.json'), JSON.stringify({ name: 'guard', version: '1.2.0' }));
    await writeFile(
      join(dir, 'hooks/hooks.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [cmd('echo a'), cmd('curl evil')] }] } }),
    );
    const widened = await installPlugins(ctx, opts([dir]));
    expect(widened.installed[0]).toMatchObject({
      version: '1.1.0',
      status: 'pending',
      active: true,
    });
    const record = (await readState(world.paths)).plugins['guard@local']!;
    expect(record.pending).toMatchObject({ version: '1.2.0' });
    expect(await fingerprintTree(record.pending!.path)).toBe(record.pending!.fingerprint);
  });

  it('--dry-run reports the plan and changes nothing in the store', async () => {
    const dir = await world.plugin(
      'guard',
      pluginFiles('guard', '1.0.0', { Stop: [cmd('echo stop')] }),
    );
    const before = await hashStore(world.paths);
    const result = await installPlugins(ctx, opts([dir], { dryRun: true, enable: 'yes' }));
    expect(result).toMatchObject({
      dryRun: true,
      installed: [{ id: 'guard@local', status: 'would-install', enabled: true, path: null }],
    });
    expect(await hashStore(world.paths)).toEqual(before);
  });
});

describe('install failures leave the store byte-identical (registry.md section 7, security.md)', () => {
  const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
    [
      'P4: invalid JSON in the manifest',
      { 'plugin.json': '{"name": "bad",}' },
      'E_MANIFEST_INVALID',
      /plugin\.json:1:/,
    ],
    [
      'P2: a manifest field of the wrong type',
      { 'plugin.json': { json: { name: 'bad', hooks: 5 } } },
      'E_MANIFEST_INVALID',
      /plugin\.json/,
    ],
    [
      'P3: an unsafe name',
      { 'plugin.json': { json: { name: '../x' } } },
      'E_NAME_INVALID',
      /plugin\.json/,
    ],
    [
      'P4: a hooks document not of the hooks shape',
      { 'plugin.json': { json: { name: 'bad' } }, 'hooks/hooks.json': { json: [1] } },
      'E_HOOKS_INVALID',
      /hooks\/hooks\.json/,
    ],
    [
      'H2: a manifest hooks path with ..',
      { 'plugin.json': { json: { name: 'bad', hooks: '../../x.json' } } },
      'E_HOOKS_INVALID',
      /\.\.\/\.\.\/x\.json/,
    ],
    [
      'H5: a symlink to a file outside the plugin',
      { 'plugin.json': { json: { name: 'bad' } }, secret: { link: '/etc/passwd' } },
      'E_SYMLINK_ESCAPE',
      /symlink secret/,
    ],
    [
      'H5: a dangling symlink',
      { 'plugin.json': { json: { name: 'bad' } }, gone: { link: './nowhere' } },
      'E_SYMLINK_ESCAPE',
      /symlink gone/,
    ],
  ];

  it.each(cases)(
    '%s is refused with its code, naming the file',
    async (_name, files, code, named) => {
      const good = await world.plugin(
        'good',
        pluginFiles('good', '1.0.0', { Stop: [cmd('echo ok')] }),
      );
      await installPlugins(ctx, opts([good], { enable: 'yes' }));
      const bad = await world.plugin('bad', files as never);
      const before = await hashStore(world.paths);
      const error = await failure(() => installPlugins(ctx, opts([bad], { enable: 'yes' })));
      expect(error.code).toBe(code);
      expect(error.message).toMatch(named);
      expect(await hashStore(world.paths)).toEqual(before);
      expect(await readdir(stagingRoot(world.paths))).toEqual([]);
    },
  );

  it('several specs install all or nothing: one bad directory leaves the good one uninstalled', async () => {
    const good = await world.plugin(
      'good',
      pluginFiles('good', '1.0.0', { Stop: [cmd('echo ok')] }),
    );
    const bad = await world.plugin('bad', { 'plugin.json': '{' });
    const before = await hashStore(world.paths);
    const error = await failure(() => installPlugins(ctx, opts([good, bad])));
    expect(error.code).toBe('E_MANIFEST_INVALID');
    expect(await hashStore(world.paths)).toEqual(before);
  });

  it('the refusal of a directory with a space or a quote says how to validate it with the path as one shell word', async () => {
    const bad = await world.plugin("it's bad #1", { 'plugin.json': '{' });
    const error = await failure(() => installPlugins(ctx, opts([bad])));
    expect(error.code).toBe('E_MANIFEST_INVALID');
    expect(error.hint).toContain(`hookpm validate '${bad.replaceAll("'", "'\\''")}'`);
  });

  it('a missing directory, and a name no registry has, are E_NOT_FOUND before anything is written', async () => {
    const before = await hashStore(world.paths);
    expect((await failure(() => installPlugins(ctx, opts(['./nope'])))).code).toBe('E_NOT_FOUND');
    expect((await failure(() => installPlugins(ctx, opts(['no-such-plugin'])))).code).toBe(
      'E_NOT_FOUND',
    );
    expect(await hashStore(world.paths)).toEqual(before);
  });

  it('D6: a corrupt state file fails the install with E_STATE_CORRUPT and is left as it was', async () => {
    const dir = await world.plugin(
      'guard',
      pluginFiles('guard', '1.0.0', { Stop: [cmd('echo stop')] }),
    );
    await installPlugins(ctx, opts([dir]));
    await writeFile(join(world.paths.data, 'state.json'), '{"version":1,');
    const before = await hashStore(world.paths);
    expect((await failure(() => installPlugins(ctx, opts([dir], { force: true })))).code).toBe(
      'E_STATE_CORRUPT',
    );
    expect(await hashStore(world.paths)).toEqual(before);
  });
});
