import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHookpmError } from '../../src/errors.js';
import { stageNpmPlugin, type NpmStageContext } from '../../src/ops/steps/catalogs/fetch-npm.js';
import { integrityOf } from '../../src/registry/integrity.js';
import { DEFAULT_NPM_REGISTRY, resolveNpmRegistry } from '../../src/registry/npm/npm-client.js';
import { resolveStorePaths, stagingRoot } from '../../src/store/paths.js';
import {
  onlyVersion,
  startFakeNpmRegistry,
  type FakeNpmRegistry,
} from '../helpers/fake-npm-registry.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { codeOf, failure } from '../helpers/failure.js';

// A stand-in npm registry (test/helpers/fake-npm-registry.ts): these tests read the requests
// staging makes, and most of them need documents a real registry will not publish (a lying
// integrity, a sha1-only version, a tarball URL naming a local file). Installs from a real
// registry (Verdaccio) are in test/e2e/marketplace-install.test.ts and verdaccio-npmrc.test.ts.
const HOOKS = JSON.stringify({
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
});
const manifest = (version: string, name = 'guard'): string => JSON.stringify({ name, version });

let home: TempHome;
let registry: FakeNpmRegistry;
/** Another origin, where `via-cdn` and `swapped-on-cdn` redirect their tarballs (N2). */
let cdn: FakeNpmRegistry;
let ctx: NpmStageContext;

beforeAll(async () => {
  home = await makeTempHome();
  const cdnFiles = { 'plugin.json': manifest('1.0.0', 'cdn'), 'hooks/hooks.json': HOOKS };
  // Other bytes than via-cdn's, so that its tarball is not in the cache already.
  const swapped = { ...cdnFiles, 'README.md': 'published' };
  cdn = await startFakeNpmRegistry({
    'via-cdn': onlyVersion('1.0.0', cdnFiles),
    'swapped-on-cdn': onlyVersion('1.0.0', { ...swapped, 'hooks/hooks.json': '{"hooks":{}}' }),
  });
  registry = await startFakeNpmRegistry({
    'via-cdn': {
      distTags: { latest: '1.0.0' },
      versions: { '1.0.0': { files: cdnFiles, redirect: cdn.url } },
    },
    'swapped-on-cdn': {
      distTags: { latest: '1.0.0' },
      versions: { '1.0.0': { files: swapped, redirect: cdn.url } },
    },
    '@acme/guard-plugin': {
      distTags: { latest: '1.1.0', beta: '2.0.0-beta.1' },
      versions: {
        '1.0.0': {
          files: { '.claude-plugin/plugin.json': manifest('1.0.0'), 'hooks/hooks.json': HOOKS },
        },
        '1.1.0': {
          files: { '.claude-plugin/plugin.json': manifest('1.1.0'), 'hooks/hooks.json': HOOKS },
        },
        '2.0.0-beta.1': {
          files: { 'plugin.json': manifest('2.0.0-beta.1'), 'hooks/hooks.json': HOOKS },
        },
      },
    },
    tampered: {
      distTags: { latest: '1.0.0' },
      versions: {
        '1.0.0': {
          files: { 'plugin.json': manifest('1.0.0', 'tampered') },
          integrity: integrityOf(Buffer.from('other bytes')),
        },
      },
    },
    'sha1-only': {
      distTags: { latest: '1.0.0' },
      versions: { '1.0.0': { files: { 'plugin.json': manifest('1.0.0', 'x') }, integrity: null } },
    },
    'not-a-plugin': {
      distTags: { latest: '1.0.0' },
      versions: {
        '1.0.0': { files: { 'package.json': '{"name":"not-a-plugin"}', 'index.js': '' } },
      },
    },
    'version-lies': {
      distTags: { latest: '1.0.0' },
      versions: { '1.0.0': { files: { 'plugin.json': manifest('9.9.9', 'lies') } } },
    },
    'local-tarball': {
      distTags: { latest: '1.0.0' },
      versions: {
        '1.0.0': {
          files: { 'plugin.json': manifest('1.0.0', 'l') },
          tarball: 'file:///etc/hostname',
        },
      },
    },
  });
  ctx = {
    paths: resolveStorePaths(home.env),
    env: { ...home.env, HOOKPM_NPM_REGISTRY: registry.url },
    cwd: home.dir,
  };
});

afterAll(async () => {
  await registry.close();
  await cdn.close();
  await home.cleanup();
});

async function stagingLeft(): Promise<string[]> {
  return readdir(stagingRoot(ctx.paths)).catch(() => []);
}

describe('stageNpmPlugin (registry.md 1: the npm registry as a source)', () => {
  it('fetches the document (scoped name encoded, abbreviated form asked), picks latest in range, checks integrity and reads the plugin by its manifest name', async () => {
    const staged = await stageNpmPlugin({ package: '@acme/guard-plugin', range: '^1.0.0' }, ctx);
    expect(staged).toMatchObject({
      name: 'guard',
      version: '1.1.0',
      package: '@acme/guard-plugin',
      registry: registry.url,
    });
    expect(staged.integrity).toMatch(/^sha512-/);
    expect(staged.plugin.documents.length).toBe(1);
    expect(staged.plugin.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(await readFile(join(staged.dir, 'hooks', 'hooks.json'), 'utf8')).toBe(HOOKS);
    const doc = registry.requests.find((r) => r.path === '/@acme%2fguard-plugin');
    expect(doc?.headers.accept).toContain('application/vnd.npm.install-v1+json');
    expect(existsSync('/tmp/hookpm-never-run')).toBe(false);
  });

  it('V2: a dist-tag picks its version, prerelease included', async () => {
    const staged = await stageNpmPlugin({ package: '@acme/guard-plugin', tag: 'beta' }, ctx);
    expect(staged.version).toBe('2.0.0-beta.1');
    expect(staged.plugin.manifestFile).toBe('plugin.json');
  });

  it('V2: a range nothing matches is E_NO_MATCHING_VERSION', async () => {
    expect(
      await codeOf(stageNpmPlugin({ package: '@acme/guard-plugin', range: '^3.0.0' }, ctx)),
    ).toBe('E_NO_MATCHING_VERSION');
  });

  it('V2: the errors name the package as install takes it (npm:<pkg>), never a registry to add', async () => {
    const range = await failure(
      stageNpmPlugin({ package: '@acme/guard-plugin', range: '^3.0.0' }, ctx),
    );
    expect(range.message).toContain('no version of npm:@acme/guard-plugin matches ^3.0.0');
    expect(range.hint).toContain('e.g. npm:@acme/guard-plugin@');
    const tag = await failure(stageNpmPlugin({ package: '@acme/guard-plugin', tag: 'nope' }, ctx));
    expect(tag.message).toContain('npm:@acme/guard-plugin has no dist-tag `nope`; tags: ');
    expect(`${tag.message} ${tag.hint ?? ''}`).not.toContain('registry');
  });

  it('security.md: a tarball that does not match dist.integrity is E_INTEGRITY and nothing is extracted', async () => {
    const before = await stagingLeft();
    expect(await codeOf(stageNpmPlugin({ package: 'tampered' }, ctx))).toBe('E_INTEGRITY');
    expect(await stagingLeft()).toEqual(before);
  });

  it('N2: a tarball whose sha512 the document records follows a redirect to another origin', async () => {
    const staged = await stageNpmPlugin({ package: 'via-cdn' }, ctx);
    expect(staged.name).toBe('cdn');
    expect(await readFile(join(staged.dir, 'hooks', 'hooks.json'), 'utf8')).toBe(HOOKS);
    expect(registry.requests.map((r) => r.path)).toContain('/via-cdn/-/via-cdn-1.0.0.tgz');
    expect(cdn.requests.map((r) => r.path)).toEqual(['/via-cdn/-/via-cdn-1.0.0.tgz']);
  });

  it('N2, I1: what the other origin serves is held to the recorded sha512', async () => {
    const before = await stagingLeft();
    expect(await codeOf(stageNpmPlugin({ package: 'swapped-on-cdn' }, ctx))).toBe('E_INTEGRITY');
    expect(cdn.requests.map((r) => r.path)).toContain('/swapped-on-cdn/-/swapped-on-cdn-1.0.0.tgz');
    expect(await stagingLeft()).toEqual(before);
  });

  it('I1: a version publishing only a sha1 shasum is E_INTEGRITY (sha512 required)', async () => {
    expect(await codeOf(stageNpmPlugin({ package: 'sha1-only' }, ctx))).toBe('E_INTEGRITY');
  });

  it('registry.md 1: a package without a plugin manifest is E_MANIFEST_INVALID, staging removed', async () => {
    const before = await stagingLeft();
    expect(await codeOf(stageNpmPlugin({ package: 'not-a-plugin' }, ctx))).toBe(
      'E_MANIFEST_INVALID',
    );
    expect(await stagingLeft()).toEqual(before);
  });

  it('security.md: a manifest version other than the package version is E_MANIFEST_MISMATCH', async () => {
    expect(await codeOf(stageNpmPlugin({ package: 'version-lies' }, ctx))).toBe(
      'E_MANIFEST_MISMATCH',
    );
  });

  it('a remote document cannot point the tarball at a local file', async () => {
    expect(await codeOf(stageNpmPlugin({ package: 'local-tarball' }, ctx))).toBe('E_INSECURE_URL');
  });

  it('N3: an unknown package is E_NOT_FOUND', async () => {
    expect(await codeOf(stageNpmPlugin({ package: 'nobody-published-this' }, ctx))).toBe(
      'E_NOT_FOUND',
    );
  });
});

describe('resolveNpmRegistry (registry.md K4: HOOKPM_NPM_REGISTRY, else npm configuration)', () => {
  it('HOOKPM_NPM_REGISTRY wins, ending in "/"', async () => {
    expect(
      await resolveNpmRegistry({
        env: { HOOKPM_NPM_REGISTRY: 'http://127.0.0.1:9/r' },
        cwd: home.dir,
      }),
    ).toBe('http://127.0.0.1:9/r/');
  });

  it('otherwise npm configuration answers, without running npm (here npm_config_registry)', async () => {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home.dir,
      npm_config_registry: 'https://npm.example.test/',
    };
    expect(await resolveNpmRegistry({ env, cwd: home.dir })).toBe('https://npm.example.test/');
  });

  it('with no configuration it falls back to registry.npmjs.org; plain http off loopback is E_INSECURE_URL', async () => {
    expect(
      await resolveNpmRegistry({ env: { PATH: '/nonexistent', HOME: home.dir }, cwd: home.dir }),
    ).toBe(DEFAULT_NPM_REGISTRY);
    expect(
      await codeOf(
        resolveNpmRegistry({
          env: { HOOKPM_NPM_REGISTRY: 'http://npm.example.test/' },
          cwd: home.dir,
        }),
      ),
    ).toBe('E_INSECURE_URL');
  });
});
