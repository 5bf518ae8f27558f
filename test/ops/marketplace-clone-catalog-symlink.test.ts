/**
 * registry.md "Registry kinds" (a git marketplace) with security.md (nothing is read outside where
 * it belongs): a repository whose `.claude-plugin/marketplace.json` is a symlink leading out of
 * the clone (to a file of this machine, or to `/proc/self/environ`) is refused with
 * E_SYMLINK_ESCAPE naming the repository, and nothing of that file is read, listed or quoted; a
 * link to a file inside the repository is read as the catalog. Real git repositories, the built
 * CLI; the store stays byte-identical on the refusal.
 */
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveStorePaths } from '../../src/store/paths.js';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { git, gitTestEnv, makeRepo, requireGit } from '../helpers/git-repo.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { INSTALL_TIMEOUT_MS } from '../helpers/system-package.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const newDir = useTempDirs('hookpm-mkt-clone-link-');

beforeAll(async () => {
  ensureBuilt();
  await requireGit();
}, INSTALL_TIMEOUT_MS);

/** A repository at `<root>/repo` whose catalog is a symlink to `target`; returns its file URL. */
async function linkedCatalogRepo(root: string, target: string): Promise<string> {
  const repo = join(root, 'repo');
  const env = gitTestEnv(root);
  await makeRepo(repo, env, { 'README.md': 'market\n', 'inside.json': CATALOG });
  await mkdir(join(repo, '.claude-plugin'));
  await symlink(target, join(repo, '.claude-plugin', 'marketplace.json'));
  git(repo, env, 'add', '-A');
  git(repo, env, 'commit', '-q', '-m', 'catalog');
  return pathToFileURL(repo).href;
}

const CATALOG = JSON.stringify({
  name: 'm',
  owner: { name: 'o' },
  plugins: [{ name: 'listed', source: { source: 'npm', package: 'listed' } }],
});

describe("a cloned marketplace's catalog file", () => {
  it('registry.md 1, security.md: a catalog symlink leading out of the clone is E_SYMLINK_ESCAPE; the file it names is not read', async () => {
    const root = await newDir();
    const outside = join(root, 'elsewhere.json');
    const plugins = [{ name: 'stolen', source: './p', description: 'LOCAL-ONLY-TEXT' }];
    await writeFile(outside, JSON.stringify({ name: 'm', owner: { name: 'o' }, plugins }));
    const url = await linkedCatalogRepo(root, outside);
    const env = { ...gitTestEnv(root), HOOKPM_HOME: join(root, 'home') };
    const before = await hashStore(resolveStorePaths(env));
    const run = await runBin(['registry', 'add', 'mkt', url], { env, cwd: root });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error[E_SYMLINK_ESCAPE]');
    expect(run.stderr).toContain('.claude-plugin/marketplace.json as a symlink leading out');
    expect(`${run.stdout}${run.stderr}`).not.toContain('LOCAL-ONLY-TEXT');
    expect(await hashStore(resolveStorePaths(env))).toEqual(before);
  });

  it('registry.md 1: a catalog symlink to a file inside the repository is read as the catalog', async () => {
    const root = await newDir();
    const url = await linkedCatalogRepo(root, '../inside.json');
    const env = { ...gitTestEnv(root), HOOKPM_HOME: join(root, 'home') };
    const run = await runBin(['registry', 'add', 'mkt', url], { env, cwd: root });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1 plugin(s)');
  });

  it('registry.md 1: a catalog over 8 MiB in the repository is E_IO saying so, not a missing catalog', async () => {
    const root = await newDir();
    const repo = join(root, 'repo');
    const env = { ...gitTestEnv(root), HOOKPM_HOME: join(root, 'home') };
    const big = `${CATALOG.slice(0, -1)}, "padding": "${'x'.repeat(8 * 1024 * 1024)}"}`;
    await makeRepo(repo, env, { '.claude-plugin/marketplace.json': big });
    const run = await runBin(['registry', 'add', 'mkt', pathToFileURL(repo).href], {
      env,
      cwd: root,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error[E_IO]');
    expect(run.stderr).toContain('.claude-plugin/marketplace.json');
    expect(run.stderr).toContain('over the 8388608 allowed');
    expect(run.stderr).not.toContain(join(root, 'home'));
  });

  it("registry.md 1: a cloned catalog's diagnostics name the repository and the file, never the scratch clone", async () => {
    const root = await newDir();
    const repo = join(root, 'repo');
    const env = { ...gitTestEnv(root), HOOKPM_HOME: join(root, 'home') };
    const plugins = [{ name: 'BAD NAME', source: './x' }];
    await makeRepo(repo, env, {
      '.claude-plugin/marketplace.json': JSON.stringify({
        name: 'm',
        owner: { name: 'o' },
        plugins,
      }),
    });
    const url = pathToFileURL(repo).href;
    const named = `${url.replace(/\/$/, '')}/.claude-plugin/marketplace.json`;
    const warned = await runBin(['registry', 'add', 'mkt', url], { env, cwd: root });
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr).toContain(`${named}:plugins[0] ("BAD NAME")`);
    const cache = join(root, 'home', 'cache', 'indexes', 'mkt.json');
    for (const text of [warned.stderr, await readFile(cache, 'utf8')])
      expect(text).not.toContain(join(root, 'home'));
    await writeFile(join(repo, '.claude-plugin', 'marketplace.json'), '{"name": ');
    git(repo, env, 'commit', '-q', '-am', 'broken');
    const refused = await runBin(['registry', 'add', 'other', url], { env, cwd: root });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`error[E_REGISTRY_SCHEMA]: ${named}:1:10: invalid JSON`);
    expect(refused.stderr).not.toContain(join(root, 'home'));
  });

  it("registry.md 1: a plugin directory missing from a cloned marketplace or an entry's repository is named in that repository, never the scratch clone", async () => {
    const root = await newDir();
    const repo = join(root, 'repo');
    const env = { ...gitTestEnv(root), HOOKPM_HOME: join(root, 'home') };
    const url = pathToFileURL(repo).href;
    const plugins = [
      { name: 'rel', source: './plugins/nope' },
      { name: 'sub', source: { source: 'git-subdir', url, path: 'plugins/gone' } },
    ];
    const commit = await makeRepo(repo, env, {
      '.claude-plugin/marketplace.json': JSON.stringify({
        name: 'm',
        owner: { name: 'o' },
        plugins,
      }),
    });
    const added = await runBin(['registry', 'add', 'mkt', url], { env, cwd: root });
    expect(added.code, added.stderr).toBe(0);
    for (const [id, path] of [
      ['rel@mkt', 'plugins/nope'],
      ['sub@mkt', 'plugins/gone'],
    ]) {
      const run = await runBin(['install', id!, '--yes'], { env, cwd: root });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`the plugin directory ${path} in ${url} (commit ${commit})`);
      expect(run.stderr).not.toContain(join(root, 'home'));
    }
  });
});
