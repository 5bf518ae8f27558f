/**
 * End to end with the built binary in a fresh HOME and HOOKPM_HOME per test: a Claude-style
 * marketplace added as a registry from a local directory and from a file:// git repository,
 * searched, reviewed and installed by name with its hooks resolved and enabled (`hookpm run
 * PreToolUse` shows the plugin's decision); a plugin published to a real npm registry (Verdaccio)
 * on 127.0.0.1, installed by package name with its integrity checked; and a tampered tarball,
 * which only a stand-in registry will serve, refused.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { integrityOf } from '../../src/registry/integrity.js';
import { resolveStorePaths, tarballCacheDir } from '../../src/store/paths.js';
import { ensureBuilt, runBin, type BinRun } from '../helpers/built-bin.js';
import { startFakeNpmRegistry } from '../helpers/fake-npm-registry.js';
import { gitTestEnv, makeRepo, requireGit, writeFiles } from '../helpers/git-repo.js';
import { INSTALL_TIMEOUT_MS } from '../helpers/system-package.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import {
  startVerdaccio,
  VERDACCIO_START_TIMEOUT_MS,
  type Verdaccio,
} from '../helpers/verdaccio.js';

/** A PreToolUse handler that denies every Bash command with `reason`. */
function denyPlugin(name: string, reason: string, manifest: Record<string, unknown> | null) {
  const script = `process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse',permissionDecision:'deny',permissionDecisionReason:${JSON.stringify(reason)}}}));\n`;
  const hooks = {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'command', command: 'node "${CLAUDE_PLUGIN_ROOT}/scripts/deny.mjs"' }],
        },
      ],
    },
  };
  const files: Record<string, string> = {
    'hooks/hooks.json': JSON.stringify(hooks),
    'scripts/deny.mjs': script,
  };
  if (manifest !== null)
    files['.claude-plugin/plugin.json'] = JSON.stringify({ name, ...manifest });
  return files;
}

function prefixed(prefix: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(files).map(([path, text]) => [`${prefix}/${path}`, text]),
  );
}

/** A marketplace with a versioned plugin (`deny`) and one without a manifest (`bare`). */
function marketplaceFiles(): Record<string, string> {
  const catalog = {
    name: 'Acme Hooks',
    owner: { name: 'Acme' },
    plugins: [
      { name: 'deny', source: './plugins/deny', description: 'Denies Bash', keywords: ['safety'] },
      { name: 'bare', source: './plugins/bare', description: 'No manifest, denies Bash too' },
    ],
  };
  return {
    '.claude-plugin/marketplace.json': JSON.stringify(catalog),
    ...prefixed('plugins/deny', denyPlugin('deny', 'deny says no', { version: '1.2.0' })),
    ...prefixed('plugins/bare', denyPlugin('bare', 'bare says no', null)),
  };
}

let scratch: string;
let localDir: string;
let repoDir: string;
let repoCommit: string;
let home: TempHome;

beforeAll(requireGit, INSTALL_TIMEOUT_MS);
beforeAll(async () => {
  ensureBuilt();
  scratch = await mkdtemp(join(tmpdir(), 'hookpm-mkt-e2e-'));
  localDir = join(scratch, 'local');
  await writeFiles(localDir, marketplaceFiles());
  repoDir = join(scratch, 'repo');
  repoCommit = await makeRepo(repoDir, gitTestEnv(scratch), marketplaceFiles());
}, 120_000);
afterAll(() => rm(scratch, { recursive: true, force: true }));
beforeEach(async () => {
  home = await makeTempHome('hookpm-mkt-home-');
});
afterEach(() => home.cleanup());

function hookpm(args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}) {
  return runBin(args, {
    env: { ...home.env, ...opts.env },
    cwd: home.dir,
    ...(opts.stdin === undefined ? {} : { stdin: opts.stdin }),
  });
}

async function ok(args: string[], env?: Record<string, string>): Promise<BinRun> {
  const run = await hookpm(args, env === undefined ? {} : { env });
  expect(run.code, run.stderr).toBe(0);
  return run;
}

async function json<T>(args: string[], env?: Record<string, string>): Promise<T> {
  return JSON.parse((await ok([...args, '--json'], env)).stdout) as T;
}

async function decisionOnBash(): Promise<{ decision: string; reason: string } | null> {
  const payload = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } });
  const run = await hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], { stdin: payload });
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { permission: { decision: string; reason: string } | null })
    .permission;
}

interface Installed {
  installed: Array<{
    id: string;
    version: string;
    integrity: string;
    enabled: boolean;
    events: string[];
  }>;
}
interface Listed {
  plugins: Array<{ id: string; version: string; enabled: boolean; source: string }>;
}

describe('a Claude-style marketplace as a registry (registry.md section 1, kind marketplace)', () => {
  it('1: a local marketplace directory is added as kind marketplace, searched by event, and `install deny@acme --yes` makes `hookpm run PreToolUse` deny', async () => {
    const added = await json<{ added: { kind: string; plugins: number } }>([
      'registry',
      'add',
      'acme',
      localDir,
    ]);
    expect(added.added).toMatchObject({ kind: 'marketplace', plugins: 2 });
    const found = await json<{ results: Array<{ id: string; version: string; events: string[] }> }>(
      ['search', '--event', 'PreToolUse'],
    );
    expect(found.results.filter((r) => r.id.endsWith('@acme'))).toEqual([
      expect.objectContaining({ id: 'bare@acme', events: ['PreToolUse'] }),
      expect.objectContaining({ id: 'deny@acme', version: '1.2.0', events: ['PreToolUse'] }),
    ]);
    const info = await json<{
      latest: { version: string; surfaceHash: string; integrity: string };
    }>(['info', 'deny@acme']);
    expect(info.latest.version).toBe('1.2.0');
    const review = await json<{ surfaceHash: string; consented: boolean }>(['review', 'deny@acme']);
    expect(review).toMatchObject({ surfaceHash: info.latest.surfaceHash, consented: false });
    expect(await decisionOnBash()).toBeNull();
    const result = await json<Installed>(['install', 'deny@acme', '--yes']);
    expect(result.installed).toEqual([
      expect.objectContaining({
        id: 'deny@acme',
        version: '1.2.0',
        enabled: true,
        events: ['PreToolUse'],
      }),
    ]);
    expect(result.installed[0]?.integrity).toBe(info.latest.integrity);
    expect(result.installed[0]?.integrity).toMatch(/^sha512-/);
    expect(await decisionOnBash()).toEqual(
      expect.objectContaining({ decision: 'deny', reason: 'deny says no' }),
    );
    const listed = await json<Listed>(['list']);
    expect(listed.plugins).toEqual([
      expect.objectContaining({ id: 'deny@acme', enabled: true, source: 'deny@acme' }),
    ]);
  });

  it('1: a plugin without a manifest installs by its entry name with a tree-digest version, and a bare name finds it', async () => {
    await ok(['registry', 'add', 'acme', localDir]);
    const result = await json<Installed>(['install', 'bare', '--yes']);
    expect(result.installed[0]).toMatchObject({ id: 'bare@acme', enabled: true });
    expect(result.installed[0]?.version).toMatch(/^0\.0\.0-t[0-9a-f]{12}$/);
    expect(await decisionOnBash()).toEqual(expect.objectContaining({ reason: 'bare says no' }));
  });

  it('1: a file:// git repository of a marketplace is cloned; versions of unversioned plugins name the commit, and both plugins run', async () => {
    const url = pathToFileURL(repoDir).href;
    const added = await json<{ added: { kind: string; plugins: number } }>([
      'registry',
      'add',
      'acmegit',
      url,
    ]);
    expect(added.added).toMatchObject({ kind: 'marketplace', plugins: 2 });
    const result = await json<Installed>(['install', 'deny@acmegit', 'bare@acmegit', '--yes']);
    expect(result.installed.map((p) => [p.id, p.version, p.enabled])).toEqual([
      ['deny@acmegit', '1.2.0', true],
      ['bare@acmegit', `0.0.0-g${repoCommit.slice(0, 12)}`, true],
    ]);
    const hooks = await json<{ handlers: Array<{ plugin: string | null; event: string }> }>([
      'hooks',
    ]);
    expect(hooks.handlers.map((h) => [h.plugin, h.event])).toEqual([
      ['bare@acmegit', 'PreToolUse'],
      ['deny@acmegit', 'PreToolUse'],
    ]);
    expect((await decisionOnBash())?.decision).toBe('deny');
  });

  it('V1: a bare name in two registries is E_AMBIGUOUS listing both ids; nothing is installed', async () => {
    await ok(['registry', 'add', 'acme', localDir]);
    await ok(['registry', 'add', 'acmegit', pathToFileURL(repoDir).href]);
    const run = await hookpm(['install', 'deny', '--yes', '--json']);
    expect(run.code).toBe(1);
    const error = (JSON.parse(run.stdout) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('E_AMBIGUOUS');
    expect(error.message).toContain('deny@acme, deny@acmegit');
    expect((await json<Listed>(['list'])).plugins).toEqual([]);
  });
});

describe('the npm registry as a source (registry.md section 1, kind npm)', () => {
  let npm: Verdaccio;
  const packageFiles = {
    'package.json': JSON.stringify({ name: 'hookpm-plugin-deny', version: '2.0.0' }),
    ...denyPlugin('npm-deny', 'npm-deny says no', { version: '2.0.0' }),
  };

  beforeAll(async () => {
    // A real npm registry (Verdaccio): the package is published with `npm publish`.
    npm = await startVerdaccio();
    await npm.publishFiles(packageFiles, await npm.addUser('publisher', 'publisher-password'));
  }, VERDACCIO_START_TIMEOUT_MS);
  afterAll(() => npm.stop());

  it('1: `registry add npm npm` records the URL of HOOKPM_NPM_REGISTRY; search skips it with a note; info reads the package document; review fetches the plugin', async () => {
    const env = { HOOKPM_NPM_REGISTRY: npm.url };
    const added = await json<{ added: { kind: string; location: string } }>(
      ['registry', 'add', 'npm', 'npm'],
      env,
    );
    expect(added.added).toMatchObject({ kind: 'npm', location: npm.url });
    const search = await hookpm(['search', 'deny', '--json']);
    expect(search.code, search.stderr).toBe(0);
    expect((JSON.parse(search.stdout) as { notes: string[] }).notes).toEqual([
      expect.stringContaining('registry npm (npm) is not searched'),
    ]);
    expect(search.stderr).toContain('is not searched');
    const info = await json<{ versions: string[]; latest: { version: string; integrity: string } }>(
      ['info', 'hookpm-plugin-deny@npm'],
    );
    expect(info.versions).toEqual(['2.0.0']);
    expect(info.latest.integrity).toMatch(/^sha512-/);
    const review = await json<{ id: string; version: string; events: string[] }>([
      'review',
      'hookpm-plugin-deny@npm',
    ]);
    expect(review).toMatchObject({ id: 'npm-deny@npm', version: '2.0.0', events: ['PreToolUse'] });
  });

  it('1, D5: `install <package>@npm --yes` installs the manifest-named plugin `npm-deny@npm` with the published integrity, cached by integrity, and it denies', async () => {
    const env = { HOOKPM_NPM_REGISTRY: npm.url };
    await ok(['registry', 'add', 'npm', 'npm'], env);
    const result = await json<Installed>(['install', 'hookpm-plugin-deny@npm', '--yes']);
    expect(result.installed).toEqual([
      expect.objectContaining({ id: 'npm-deny@npm', version: '2.0.0', enabled: true }),
    ]);
    const published = (
      await json<{ latest: { integrity: string } }>(['info', 'hookpm-plugin-deny@npm'])
    ).latest.integrity;
    expect(result.installed[0]?.integrity).toBe(published);
    const cacheDir = tarballCacheDir(resolveStorePaths({ HOOKPM_HOME: home.env.HOOKPM_HOME }));
    const hex = Buffer.from(published.slice('sha512-'.length), 'base64').toString('hex');
    expect(await readdir(cacheDir)).toContain(`${hex}.tgz`);
    expect(await decisionOnBash()).toEqual(expect.objectContaining({ reason: 'npm-deny says no' }));
    const byPrefix = await json<Installed>(['install', 'npm:hookpm-plugin-deny@^2', '--yes'], env);
    expect(byPrefix.installed[0]).toMatchObject({ id: 'npm-deny@npm', status: 'unchanged' });
    // The package's installed plugin, whatever its manifest names it (registry.md, kind npm).
    for (const spec of ['hookpm-plugin-deny@npm', 'npm:hookpm-plugin-deny']) {
      const info = await json<{ installed: { version: string; source: string } | null }>(
        ['info', spec],
        env,
      );
      expect(info.installed, spec).toMatchObject({
        version: '2.0.0',
        source: 'npm:hookpm-plugin-deny@2.0.0',
      });
    }
  });

  it('security.md: a tarball that does not match its dist.integrity is E_INTEGRITY and the store is byte-identical', async () => {
    // A stand-in npm registry (test/helpers/fake-npm-registry.ts): a real one will not publish a
    // document whose integrity lies about its tarball.
    const fake = await startFakeNpmRegistry({
      'hookpm-plugin-deny': {
        distTags: { latest: '2.0.0' },
        versions: { '2.0.0': { files: packageFiles } },
      },
      'hookpm-plugin-tampered': {
        distTags: { latest: '1.0.0' },
        versions: {
          '1.0.0': {
            files: { ...packageFiles, 'package.json': '{"name":"hookpm-plugin-tampered"}' },
            integrity: integrityOf(Buffer.from('some other bytes')),
          },
        },
      },
    });
    try {
      await ok(['registry', 'add', 'npm', 'npm'], { HOOKPM_NPM_REGISTRY: fake.url });
      await ok(['install', 'hookpm-plugin-deny@npm', '--yes']);
      const paths = resolveStorePaths({ HOOKPM_HOME: home.env.HOOKPM_HOME });
      const before = await hashStore(paths);
      const run = await hookpm(['install', 'hookpm-plugin-tampered@npm', '--yes', '--json']);
      expect(run.code).toBe(1);
      const error = (JSON.parse(run.stdout) as { error: { code: string } }).error;
      expect(error.code).toBe('E_INTEGRITY');
      expect(await hashStore(paths)).toEqual(before);
    } finally {
      await fake.close();
    }
  });
});
