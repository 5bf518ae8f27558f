/**
 * Installing from index registries through the install and update operations, against a real
 * node:http registry on 127.0.0.1 serving tarballs packed at test time (registry.md sections 4, 5,
 * 7; plugins.md Q5; cli.md --dry-run).
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { enablePlugin } from '../../src/ops/plugins/enable.js';
import type { InstallOptions } from '../../src/ops/steps/transaction/options.js';
import type { OperationContext } from '../../src/ops/steps/context/operation-context.js';
import { uninstallPlugins } from '../../src/ops/plugins/uninstall.js';
import { type UpdateOptions } from '../../src/ops/plugins/update.js';
import { INDEX_MAX_AGE_MS } from '../../src/registry/indexes/load-index.js';
import { fingerprintTree } from '../../src/store/fingerprint.js';
import { stagingRoot, tarballCacheDir } from '../../src/store/paths.js';
import { readState } from '../../src/store/state/state.js';
import {
  packFiles,
  pluginTree,
  publishPlugin,
  publishTree,
  startPluginRegistry,
  type ServedRegistry,
} from '../helpers/plugin-registry.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { failsCleanly, failure } from '../helpers/failure.js';
import { installSpecs, updateNames, useRegistryWorld } from '../helpers/registry-world.js';

const fx = useRegistryWorld();
let ctx: OperationContext;
/** The context's clock; moved past INDEX_MAX_AGE_MS when a test needs the cached index revalidated. */
let clock = Date.parse('2026-11-30T12:00:00.000Z');

const FAST = {
  retries: 2,
  retryBaseDelayMs: 5,
  maxRetryDelayMs: 20,
  deadlineMs: 4000,
  headersTimeoutMs: 2000,
  connectTimeoutMs: 2000,
};

function contextFor(...registries: ServedRegistry[]): OperationContext {
  const defaults = Object.fromEntries(
    registries.map((r) => [
      r.index.name,
      { location: r.url, kind: 'index' as const, addedAt: '2026-11-30T00:00:00.000Z' },
    ]),
  );
  return {
    paths: fx.world.paths,
    now: () => new Date(clock),
    defaults,
    fetch: FAST,
  };
}

beforeEach(() => {
  ctx = contextFor(fx.acme);
});

const install = (specs: string[], over: Partial<InstallOptions> = {}) =>
  installSpecs(ctx, fx.world.dir, specs, over);

/** The same install in a context of the network-less command (`--offline`, D5). */
const installOffline = (specs: string[], over: Partial<InstallOptions> = {}) =>
  installSpecs({ ...ctx, offline: true }, fx.world.dir, specs, over);

const update = (names: string[] = [], over: Partial<UpdateOptions> = {}) =>
  updateNames(ctx, fx.world.dir, { names, ...over });

const ONE = { PreToolUse: ['echo one'] };
const TWO = { PreToolUse: ['echo one', 'echo two'] };

describe('V1-V2: resolving a registry spec', () => {
  beforeEach(async () => {
    await publishPlugin(fx.acme, 'guard', '1.0.0', ONE);
    await publishPlugin(fx.acme, 'guard', '1.1.0', ONE);
    await publishPlugin(fx.acme, 'guard', '2.0.0-beta.1', ONE, { latest: false });
    fx.acme.index.plugins['guard']!.distTags['beta'] = '2.0.0-beta.1';
  });

  it('V1: a bare name installs the latest version as guard@acme, with the index integrity and range ^<version>', async () => {
    const { installed } = await install(['guard']);
    expect(installed).toMatchObject([
      { id: 'guard@acme', version: '1.1.0', status: 'installed', enabled: true },
    ]);
    const record = (await readState(fx.world.paths)).plugins['guard@acme']!;
    expect(record).toMatchObject({ registry: 'acme', range: '^1.1.0', source: 'guard@acme@1.1.0' });
    expect(record.integrity).toBe(fx.acme.index.plugins['guard']!.versions['1.1.0']!.integrity);
    expect(await fingerprintTree(record.path)).toBe(record.fingerprint);
    expect(await readdir(stagingRoot(fx.world.paths))).toEqual([]);
  });

  it('V1: name@range, name@tag, name@registry and name@registry@range pick what they say', async () => {
    expect((await install(['guard@~1.0.0'])).installed[0]).toMatchObject({ version: '1.0.0' });
    expect((await readState(fx.world.paths)).plugins['guard@acme']!.range).toBe('~1.0.0');
    expect((await install(['guard@beta'])).installed[0]).toMatchObject({ version: '2.0.0-beta.1' });
    expect((await readState(fx.world.paths)).plugins['guard@acme']!.range).toBe('beta');
    expect((await install(['guard@acme'])).installed[0]).toMatchObject({ version: '1.1.0' });
    expect((await install(['guard@acme@1.0.0'])).installed[0]).toMatchObject({ version: '1.0.0' });
  });

  it('V1: a bare name in two registries is E_AMBIGUOUS listing both ids', async () => {
    const other = await startPluginRegistry('other');
    try {
      await publishPlugin(other, 'guard', '3.0.0', ONE);
      ctx = contextFor(fx.acme, other);
      const error = await failsCleanly(fx.world.paths, 'E_AMBIGUOUS', () => install(['guard']));
      expect(error.details['ids']).toEqual(['guard@acme', 'guard@other']);
      expect((await install(['guard@other'])).installed[0]).toMatchObject({
        id: 'guard@other',
        version: '3.0.0',
      });
    } finally {
      await other.close();
    }
  });

  /** A registry `private` serving `lint` (or `guard` too), closed after `body`. */
  async function withPrivate(plugin: string, body: (down: ServedRegistry) => Promise<void>) {
    const down = await startPluginRegistry('private');
    try {
      await publishPlugin(down, plugin, '1.0.0', ONE);
      ctx = contextFor(fx.acme, down);
      await body(down);
    } finally {
      await down.close();
    }
  }
  /** The registry answers 503 for its index from now on (retried, then given up). */
  const goDown = (down: ServedRegistry) =>
    down.handlers.set('/index.json', (_req, res) => res.writeHead(503).end());

  it('V1: a bare name while another registry cannot be read is E_AMBIGUOUS naming it; its id installs', () =>
    withPrivate('guard', async (down) => {
      goDown(down); // it may hold guard too
      const error = await failsCleanly(fx.world.paths, 'E_AMBIGUOUS', () => install(['guard']));
      expect(error.details['ids']).toEqual(['guard@acme']);
      expect(error.details['registry']).toBe('private');
      expect(error.message).toMatch(/^guard is in guard@acme, and the registry private could not/);
      expect(error.hint).toContain('hookpm install guard@acme');
      expect((await install(['guard@acme'])).installed[0]).toMatchObject({ id: 'guard@acme' });
    }));

  it('V1: a registry down whose cached index was read instead is no ambiguity: guard installs', () =>
    withPrivate('lint', async (down) => {
      await install(['lint@private']);
      goDown(down);
      clock += INDEX_MAX_AGE_MS + 1; // the cached indexes are revalidated: private's fails
      expect((await install(['guard'])).installed[0]).toMatchObject({ id: 'guard@acme' });
    }));

  it('V2 (security.md): ^1.0.0 when 1.1.0-beta.1 is newest installs 1.0.0; --include-prerelease takes the beta', async () => {
    const lone = await startPluginRegistry('lone');
    try {
      await publishPlugin(lone, 'pre', '1.0.0', ONE);
      await publishPlugin(lone, 'pre', '1.1.0-beta.1', ONE);
      ctx = contextFor(lone);
      expect((await install(['pre@^1.0.0'])).installed[0]).toMatchObject({ version: '1.0.0' });
      const beta = await install(['pre@^1.0.0'], { includePrerelease: true });
      expect(beta.installed[0]).toMatchObject({ version: '1.1.0-beta.1' });
    } finally {
      await lone.close();
    }
  });

  it('V2: a range that matches nothing is E_NO_MATCHING_VERSION listing the nearest versions', async () => {
    const error = await failsCleanly(fx.world.paths, 'E_NO_MATCHING_VERSION', () =>
      install(['guard@^5.0.0']),
    );
    expect(error.details['nearest']).toEqual(['2.0.0-beta.1', '1.1.0', '1.0.0']);
    expect(error.message).toContain('1.1.0');
  });

  it('V2: a deprecated version installs with a warning', async () => {
    fx.acme.index.plugins['guard']!.versions['1.0.0']!.deprecated = 'use 1.1.0';
    const result = await install(['guard@1.0.0']);
    expect(result.installed[0]).toMatchObject({ version: '1.0.0', status: 'installed' });
    expect(result.notes.join('\n')).toMatch(/deprecated: use 1\.1\.0/);
  });

  it('a name no registry has is E_NOT_FOUND; an unknown registry is E_NOT_FOUND naming it', async () => {
    await failsCleanly(fx.world.paths, 'E_NOT_FOUND', () => install(['nothing']));
    const error = await failsCleanly(fx.world.paths, 'E_NOT_FOUND', () =>
      install(['guard@nowhere@1.0.0']),
    );
    expect(error.message).toContain('nowhere');
  });
});

describe('V3, I3: what was downloaded must be what the index promised', () => {
  it('V3: a registry that later serves another integrity for an installed version is E_INTEGRITY_CHANGED; nothing changes', async () => {
    await publishPlugin(fx.acme, 'guard', '1.0.0', ONE);
    await install(['guard']);
    await publishPlugin(fx.acme, 'guard', '1.0.0', TWO);
    clock += INDEX_MAX_AGE_MS + 1000;
    const error = await failsCleanly(fx.world.paths, 'E_INTEGRITY_CHANGED', () =>
      install(['guard@1.0.0'], { force: true }),
    );
    expect(error.message).toContain('guard@acme 1.0.0');
  });

  it('I3: a manifest name, version, events or surfaceHash other than the index entry is E_MANIFEST_MISMATCH', async () => {
    const other = await packFiles(pluginTree('other', '1.0.0', ONE));
    fx.acme.publish('wrongname', '1.0.0', other.bytes);
    await failsCleanly(fx.world.paths, 'E_MANIFEST_MISMATCH', () => install(['wrongname']));
    const older = await packFiles(pluginTree('wrongver', '0.9.0', ONE));
    fx.acme.publish('wrongver', '1.0.0', older.bytes);
    await failsCleanly(fx.world.paths, 'E_MANIFEST_MISMATCH', () => install(['wrongver']));
    const narrow = await packFiles(pluginTree('surf', '1.0.0', ONE));
    const wide = await packFiles(pluginTree('surf', '1.0.0', TWO));
    fx.acme.publish('surf', '1.0.0', wide.bytes, {
      events: narrow.events,
      surfaceHash: narrow.surfaceHash,
    });
    const error = await failsCleanly(fx.world.paths, 'E_MANIFEST_MISMATCH', () =>
      install(['surf']),
    );
    expect(error.details['field']).toBe('surfaceHash');
    fx.acme.publish('evts', '1.0.0', (await packFiles(pluginTree('evts', '1.0.0', ONE))).bytes, {
      events: ['Stop'],
    });
    expect(
      (await failsCleanly(fx.world.paths, 'E_MANIFEST_MISMATCH', () => install(['evts']))).details[
        'field'
      ],
    ).toBe('events');
  });
});

describe('D5: the tarball cache and --offline', () => {
  beforeEach(async () => {
    await publishPlugin(fx.acme, 'guard', '1.0.0', ONE);
  });

  it('D5: a later install of the same version is served from the cache with no tarball request', async () => {
    await install(['guard']);
    expect(await readdir(tarballCacheDir(fx.world.paths))).toHaveLength(1);
    await uninstallPlugins(ctx, { names: ['guard'], keepData: false });
    const before = fx.acme.requests.filter((p) => p.endsWith('.tgz')).length;
    await install(['guard']);
    expect(fx.acme.requests.filter((p) => p.endsWith('.tgz')).length).toBe(before);
  });

  it('D5: --offline installs from the cached index and tarball with the server gone, and says so', async () => {
    await install(['guard']);
    await uninstallPlugins(ctx, { names: ['guard'], keepData: false });
    await fx.acme.close();
    const result = await installOffline(['guard']);
    expect(result.installed[0]).toMatchObject({ id: 'guard@acme', version: '1.0.0' });
    expect(result.notes.join('\n')).toMatch(/--offline: using the cached indexes of acme/);
    fx.acme = await startPluginRegistry('acme');
  });

  it('D5: --offline without a cached index or tarball is E_OFFLINE and nothing is fetched', async () => {
    await failsCleanly(fx.world.paths, 'E_OFFLINE', () => installOffline(['guard']));
    expect(fx.acme.requests).toEqual([]);
    await install(['guard'], { dryRun: true });
    for (const file of await readdir(tarballCacheDir(fx.world.paths)))
      await writeFile(join(tarballCacheDir(fx.world.paths), file), 'damaged');
    await failsCleanly(fx.world.paths, 'E_OFFLINE', () => installOffline(['guard']));
  });
});

describe('hookpm update (plugins.md Q5; V2)', () => {
  beforeEach(async () => {
    await publishPlugin(fx.acme, 'guard', '1.0.0', ONE);
    await install(['guard']);
  });

  it('Q5: a widened surface is installed as pending and is E_CONSENT_REQUIRED without --yes; the consented version stays active', async () => {
    await publishPlugin(fx.acme, 'guard', '1.1.0', TWO);
    const error = await failure(() => update());
    expect(error.code).toBe('E_CONSENT_REQUIRED');
    const record = (await readState(fx.world.paths)).plugins['guard@acme']!;
    expect(record).toMatchObject({
      version: '1.0.0',
      enabled: true,
      pending: { version: '1.1.0' },
    });
    expect(record.consent?.version).toBe('1.0.0');
    expect(await fingerprintTree(record.pending!.path)).toBe(record.pending!.fingerprint);
    expect(await fingerprintTree(record.path)).toBe(record.fingerprint);
  });

  it('Q5: --yes approves the widened surface; enable approves a waiting one', async () => {
    await publishPlugin(fx.acme, 'guard', '1.1.0', TWO);
    const result = await update([], { enable: 'yes' });
    expect(result.installed[0]).toMatchObject({
      version: '1.1.0',
      status: 'installed',
      active: true,
    });
    await publishPlugin(fx.acme, 'guard', '1.2.0', {
      PreToolUse: ['echo one', 'echo two', 'echo three'],
    });
    await failure(() => update());
    const enabled = await enablePlugin({ ...ctx, consent: 'yes' }, { name: 'guard' });
    expect(enabled).toMatchObject({ version: '1.2.0', changed: true });
    const record = (await readState(fx.world.paths)).plugins['guard@acme']!;
    expect(record).toMatchObject({
      version: '1.2.0',
      pending: null,
      consent: { version: '1.2.0' },
    });
  });

  it('Q5: a surface with only removals carries the consent over', async () => {
    await publishPlugin(fx.acme, 'guard', '1.1.0', TWO);
    await update([], { enable: 'yes' });
    await publishPlugin(fx.acme, 'guard', '1.2.0', ONE);
    const result = await update();
    expect(result.installed[0]).toMatchObject({
      version: '1.2.0',
      status: 'installed',
      active: true,
    });
    expect((await readState(fx.world.paths)).plugins['guard@acme']!.consent?.version).toBe('1.2.0');
  });

  it('V2: an index that moved backwards is reported, not followed; --allow-downgrade follows it', async () => {
    await publishPlugin(fx.acme, 'guard', '1.1.0', ONE);
    await update();
    delete fx.acme.index.plugins['guard']!.versions['1.1.0'];
    fx.acme.index.plugins['guard']!.distTags['latest'] = '1.0.0';
    const before = await hashStore(fx.world.paths);
    const result = await update();
    expect(result.installed).toEqual([]);
    expect(result.skipped).toMatchObject([
      { id: 'guard@acme', reason: 'backwards', version: '1.1.0' },
    ]);
    expect(await hashStore(fx.world.paths)).toEqual(before);
    const down = await update([], { allowDowngrade: true });
    expect(down.installed[0]).toMatchObject({ version: '1.0.0', active: true });
  });

  it('V2: a `latest` moved back below the installed version, the newer still listed, is reported, not followed; --allow-downgrade follows it', async () => {
    await publishPlugin(fx.acme, 'guard', '1.1.0', ONE);
    await update();
    fx.acme.index.plugins['guard']!.distTags['latest'] = '1.0.0';
    const before = await hashStore(fx.world.paths);
    const result = await update();
    expect(result.installed).toEqual([]);
    expect(result.skipped).toMatchObject([
      { id: 'guard@acme', reason: 'backwards', version: '1.1.0' },
    ]);
    expect(result.skipped[0]?.message).toContain('--allow-downgrade');
    expect(await hashStore(fx.world.paths)).toEqual(before);
    const down = await update([], { allowDowngrade: true });
    expect(down.installed[0]).toMatchObject({ version: '1.0.0', active: true });
  });

  it('skipped `gone` (cli-json.md): a plugin whose registry was removed is reported as such, with the command that adds it back; nothing changes', async () => {
    await publishPlugin(fx.acme, 'guard', '1.1.0', ONE);
    const before = await hashStore(fx.world.paths);
    const result = await updateNames(contextFor(), fx.world.dir);
    expect(result.installed).toEqual([]);
    expect(result.skipped).toMatchObject([{ id: 'guard@acme', reason: 'gone', version: '1.0.0' }]);
    expect(result.skipped[0]?.message).toContain(
      'registry acme it was installed from is no longer added',
    );
    expect(result.skipped[0]?.message).toContain('hookpm registry add acme <url>');
    expect(await hashStore(fx.world.paths)).toEqual(before);
  });

  it('V2: an index that withdrew the installed version and every other one in its range moved backwards: reported, and the other plugins update', async () => {
    await publishPlugin(fx.acme, 'lint', '2.0.0', ONE);
    await install(['lint']); // range ^2.0.0
    await publishPlugin(fx.acme, 'guard', '1.1.0', ONE);
    delete fx.acme.index.plugins['lint']!.versions['2.0.0'];
    await publishPlugin(fx.acme, 'lint', '1.9.0', ONE);
    const result = await update();
    expect(result.installed).toMatchObject([{ id: 'guard@acme', version: '1.1.0' }]);
    expect(result.skipped).toMatchObject([
      { id: 'lint@acme', reason: 'backwards', version: '2.0.0' },
    ]);
    expect(result.skipped[0]?.message).toContain('it offers no version in ^2.0.0');
  });

  it('V2: a dist-tag a plugin follows that the index no longer has: a plain update reports it, and updates the others; `update <name>` is E_NO_MATCHING_VERSION', async () => {
    await publishPlugin(fx.acme, 'lint', '2.0.0-beta.1', ONE, { latest: false });
    fx.acme.index.plugins['lint']!.distTags['beta'] = '2.0.0-beta.1';
    await install(['lint@beta']);
    await publishPlugin(fx.acme, 'guard', '1.1.0', ONE);
    delete fx.acme.index.plugins['lint']!.distTags['beta'];
    const result = await update();
    expect(result.installed).toMatchObject([{ id: 'guard@acme', version: '1.1.0' }]);
    expect(result.skipped).toMatchObject([
      { id: 'lint@acme', reason: 'gone', version: '2.0.0-beta.1' },
    ]);
    expect(result.skipped[0]?.message).toContain('beta');
    await expect(update(['lint'])).rejects.toMatchObject({ code: 'E_NO_MATCHING_VERSION' });
  });

  it('policy.md A20 with A18: a plain update passes over a plugin whose new version the policy refuses unconfined, and updates the others; `update <name>` of it is E_POLICY', async () => {
    const declared = (name: string, version: string) =>
      publishTree(fx.acme, name, version, {
        ...pluginTree(name, version, ONE),
        '.claude-plugin/plugin.json': {
          json: { name, version, capabilities: { network: false, write: [] } },
        },
      });
    await declared('lint', '1.0.0');
    await install(['lint']);
    await publishPlugin(fx.acme, 'lint', '1.1.0', ONE); // declares nothing
    await publishPlugin(fx.acme, 'guard', '1.1.0', ONE);
    const file = join(fx.world.dir, 'policy.json');
    ctx.policy = { status: 'ok', file, from: 'env', policy: { sandbox: { require: true } } };
    // guard 1.0.0 was installed before the policy; its update is refused too (it declares nothing).
    await declared('guard', '1.2.0');
    const result = await update([], { enable: 'yes' });
    expect(result.installed).toMatchObject([{ id: 'guard@acme', version: '1.2.0' }]);
    expect(result.skipped).toMatchObject([{ id: 'lint@acme', reason: 'policy', version: '1.0.0' }]);
    expect(result.skipped[0]?.message).toContain('sandbox.require');
    expect(result.skipped[0]?.message).toContain(file);
    await expect(update(['lint'], { enable: 'yes' })).rejects.toMatchObject({ code: 'E_POLICY' });
  });

  it('policy.md A16: `install name@registry` that the policy refuses (registries.allow, plugins.deny) is E_POLICY before the registry is asked for anything', async () => {
    const file = join(fx.world.dir, 'policy.json');
    const before = fx.acme.requests.length;
    for (const policy of [
      { registries: { allow: ['examples'] } },
      { plugins: { deny: ['lint'] } },
    ]) {
      ctx.policy = { status: 'ok', file, from: 'env', policy };
      await expect(install(['lint@acme'])).rejects.toMatchObject({ code: 'E_POLICY' });
      await expect(install(['lint@acme@^1'])).rejects.toMatchObject({ code: 'E_POLICY' });
    }
    expect(fx.acme.requests.slice(before)).toEqual([]);
  });

  it('the newest version in range is kept: nothing to do is reported as current', async () => {
    const result = await update(['guard']);
    expect(result.skipped).toMatchObject([{ reason: 'current', version: '1.0.0' }]);
  });

  it('V3 on update: a pending version the registry now serves with another integrity is E_INTEGRITY_CHANGED', async () => {
    await publishPlugin(fx.acme, 'guard', '1.1.0', TWO);
    await failure(() => update());
    await publishPlugin(fx.acme, 'guard', '1.1.0', { PreToolUse: ['echo one', 'echo three'] });
    await failsCleanly(fx.world.paths, 'E_INTEGRITY_CHANGED', () => update());
  });
});

describe('--dry-run prints the plan and changes nothing', () => {
  it('install, update and uninstall --dry-run leave the state and every tree byte-identical', async () => {
    await publishPlugin(fx.acme, 'guard', '1.0.0', ONE);
    const planned = await install(['guard'], { dryRun: true });
    expect(planned.installed[0]).toMatchObject({
      status: 'would-install',
      plan: { from: null, to: '1.0.0', files: ['.claude-plugin/plugin.json', 'hooks/hooks.json'] },
    });
    await install(['guard']);
    await publishPlugin(fx.acme, 'guard', '1.1.0', TWO);
    const before = await hashStore(fx.world.paths);
    const plan = await update([], { dryRun: true });
    expect(plan.installed[0]?.plan).toMatchObject({
      from: '1.0.0',
      to: '1.1.0',
      consent: 'required',
    });
    expect(plan.installed[0]?.plan?.diff?.added).toHaveLength(1);
    const gone = await uninstallPlugins(ctx, { names: ['guard'], keepData: false, dryRun: true });
    expect(gone).toMatchObject({ dryRun: true, uninstalled: [{ id: 'guard@acme' }] });
    expect(await hashStore(fx.world.paths)).toEqual(before);
  });
});

describe('D1b: tarball files and URLs belong to `local`', () => {
  it('install ./file.tgz and install http://127.0.0.1/.../x.tgz record <name>@local with the sha512 integrity', async () => {
    const packed = await packFiles(pluginTree('tarred', '1.0.0', ONE));
    await writeFile(join(fx.world.dir, 'tarred.tgz'), packed.bytes);
    const fromFile = await install(['./tarred.tgz']);
    expect(fromFile.installed[0]).toMatchObject({
      id: 'tarred@local',
      integrity: packed.integrity,
    });
    const served = await packFiles(pluginTree('served', '2.0.0', ONE));
    fx.acme.files.set('/x/served.tgz', served.bytes);
    const fromUrl = await install([`${fx.acme.url}x/served.tgz`]);
    expect(fromUrl.installed[0]).toMatchObject({
      id: 'served@local',
      version: '2.0.0',
      integrity: served.integrity,
    });
    const state = await readState(fx.world.paths);
    expect(state.plugins['served@local']!.source).toBe(`${fx.acme.url}x/served.tgz`);
    await failsCleanly(fx.world.paths, 'E_OFFLINE', () =>
      installOffline([`${fx.acme.url}x/served.tgz`], { force: true }),
    );
  });

  it('section 7: several specs install in one transaction; one failure changes nothing', async () => {
    await publishPlugin(fx.acme, 'a', '1.0.0', ONE);
    await publishPlugin(fx.acme, 'b', '1.0.0', ONE);
    fx.acme.publish('c', '1.0.0', Buffer.from('not a tarball'));
    await failsCleanly(fx.world.paths, 'E_ARCHIVE_CORRUPT', () => install(['a', 'b', 'c']));
    const { installed } = await install(['a', 'b']);
    expect(installed.map((e) => e.id)).toEqual(['a@acme', 'b@acme']);
  });
});
