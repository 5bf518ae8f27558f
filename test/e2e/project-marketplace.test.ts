/**
 * docs/reference/rules/registry.md J10 with the built binary: a project holds a plugin of a
 * marketplace committed in the project; `install --project` records it in hookpm.json and
 * hookpm.lock (the entry's directory and the tree's integrity), `ci` from another HOME installs the
 * same bytes, and a lock or a marketplace from a cloned repository cannot reach outside it.
 */
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built-bin.js';
import { projectCli } from '../helpers/project-cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { REPO } from '../corpus/corpus-plugins.js';

/** The corpus-style `.agents/plugins` marketplace of this repository (plugins.md G10). */
const LAYOUTS = join(REPO, 'test/corpus/layouts/agents-catalog');
const GUARD = 'plugins/codex-guard/scripts/guard.mjs';

let author: TempHome;
let teammate: TempHome;
let work: string;
let project: string;
const { hookpm, ok, refused, store, readLock, denyReason } = projectCli(() => project);

beforeAll(() => ensureBuilt());
beforeEach(async () => {
  author = await makeTempHome('hookpm-mkt-author-');
  teammate = await makeTempHome('hookpm-mkt-teammate-');
  work = await mkdtemp(join(tmpdir(), 'hookpm-mkt-project-'));
  project = join(work, 'project');
  await mkdir(join(project, '.git'), { recursive: true });
  await cp(LAYOUTS, join(project, 'vendor', 'mkt'), { recursive: true });
});
afterEach(async () => {
  await author.cleanup();
  await teammate.cleanup();
  await rm(work, { recursive: true, force: true });
});

/** The author adds the marketplace and installs codex-guard into the project. */
async function authorInstalls(): Promise<void> {
  await ok(author, 'registry', 'add', 'mkt', './vendor/mkt');
  await ok(author, 'install', '--project', 'codex-guard@mkt', '--yes');
}

describe('marketplace plugins in hookpm.json and hookpm.lock (J10)', () => {
  it("J10: install --project records the marketplace directory and the tree's integrity; ci from another HOME installs the same bytes", async () => {
    await authorInstalls();
    const manifest = JSON.parse(await readFile(join(project, 'hookpm.json'), 'utf8')) as unknown;
    expect(manifest).toEqual({
      plugins: { 'codex-guard@mkt': '^1.0.0' },
      registries: { mkt: 'vendor/mkt' },
    });
    const locked = (await readLock()).plugins['codex-guard@mkt']!;
    expect(locked).toMatchObject({ version: '1.0.0', resolved: 'plugins/codex-guard' });
    expect(locked.integrity).toMatch(/^sha512-/);
    expect(await denyReason(author)).toBe('codex-guard: rm -rf is refused');

    const lockBefore = await readFile(join(project, 'hookpm.lock'), 'utf8');
    await ok(teammate, 'ci', '--yes');
    expect(await readFile(join(project, 'hookpm.lock'), 'utf8')).toBe(lockBefore);
    const listed = JSON.parse((await ok(teammate, 'list', '--project', '--json')).stdout) as {
      plugins: unknown[];
    };
    expect(listed.plugins).toEqual([
      expect.objectContaining({
        id: 'codex-guard@mkt',
        locked: '1.0.0',
        installed: '1.0.0',
        enabled: true,
      }),
    ]);
    const state = JSON.parse(
      await readFile(join(teammate.env.HOOKPM_HOME!, 'data', 'state.json'), 'utf8'),
    ) as unknown;
    expect(JSON.stringify(state)).toContain(locked.integrity!);
    expect(await denyReason(teammate)).toBe('codex-guard: rm -rf is refused');
  });

  it('J10: a plugin tree changed since the lock fails ci from a fresh HOME with E_INTEGRITY, and the store is untouched', async () => {
    await authorInstalls();
    const script = join(project, 'vendor', 'mkt', GUARD);
    await writeFile(script, `${await readFile(script, 'utf8')}\n// changed\n`);
    const before = await store(teammate);
    await refused(teammate, 'E_INTEGRITY', 'ci', '--yes');
    expect(await store(teammate)).toEqual(before);
  });

  it('J11: the E_INTEGRITY of a changed marketplace tree names the plugin directory checked and the fix; `install --project` re-locks a deliberate change', async () => {
    await authorInstalls();
    const script = join(project, 'vendor', 'mkt', GUARD);
    await writeFile(script, `${await readFile(script, 'utf8')}\n// changed\n`);
    const run = await refused(teammate, 'E_INTEGRITY', 'ci', '--yes');
    expect(run.stderr).toContain(
      "codex-guard@mkt: the marketplace mkt's plugin directory vendor/mkt/plugins/codex-guard is not the tree hookpm.lock pins",
    );
    expect(run.stderr).toContain('hookpm checked the files of vendor/mkt/plugins/codex-guard');
    expect(run.stderr).toContain('`hookpm install --project codex-guard@mkt`');
    expect(run.stderr).toContain('`git checkout -- vendor/mkt/plugins/codex-guard`');
    expect(run.stderr).not.toMatch(/registry serves/);

    // From a home that never installed 1.0.0, the hint's command locks the changed tree.
    const before = (await readLock()).plugins['codex-guard@mkt']!.integrity;
    await ok(teammate, 'install', '--project', 'codex-guard@mkt', '--yes');
    expect((await readLock()).plugins['codex-guard@mkt']!.integrity).not.toBe(before);
    // Where 1.0.0 is installed with other bytes, a version's bytes never change (V3): the
    // author bumps the version, as the hint says, and the same command locks it.
    const manifest = join(
      project,
      'vendor',
      'mkt',
      'plugins/codex-guard/.codex-plugin/plugin.json',
    );
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('"1.0.0"', '"1.0.1"'));
    await ok(author, 'install', '--project', 'codex-guard@mkt', '--yes');
    expect((await readLock()).plugins['codex-guard@mkt']).toMatchObject({ version: '1.0.1' });
    await ok(teammate, 'ci', '--yes');
  });

  it("J10: a lock whose resolved names another directory than the catalog's entry is E_LOCK_MISMATCH before anything is read", async () => {
    await authorInstalls();
    const lock = await readLock();
    lock.plugins['codex-guard@mkt']!.resolved = 'plugins/cursor-guard';
    await writeFile(join(project, 'hookpm.lock'), `${JSON.stringify(lock, null, 2)}\n`);
    const before = await store(teammate);
    await refused(teammate, 'E_LOCK_MISMATCH', 'ci', '--yes');
    expect(await store(teammate)).toEqual(before);
  });

  it('J10: a marketplace plugin directory that is a symlink out of the project is E_REGISTRY_LOCATION; nothing is read from it', async () => {
    await authorInstalls();
    const outside = join(work, 'outside-plugin');
    await cp(join(project, 'vendor', 'mkt', 'plugins', 'codex-guard'), outside, {
      recursive: true,
    });
    await rm(join(project, 'vendor', 'mkt', 'plugins', 'codex-guard'), { recursive: true });
    await symlink(outside, join(project, 'vendor', 'mkt', 'plugins', 'codex-guard'));
    const run = await refused(teammate, 'E_REGISTRY_LOCATION', 'ci', '--yes');
    expect(run.stderr).toContain('names a plugin outside the project');
  });

  it('J10, J3: a catalog file that is a symlink out of the project is E_REGISTRY_LOCATION', async () => {
    await authorInstalls();
    const catalog = join(project, 'vendor', 'mkt', '.agents', 'plugins', 'marketplace.json');
    const outside = join(work, 'outside-marketplace.json');
    await cp(catalog, outside);
    await rm(catalog);
    await symlink(outside, catalog);
    await refused(teammate, 'E_REGISTRY_LOCATION', 'ci', '--yes');
  });

  it('J10: install --project refuses a marketplace outside the project, and an entry that is not a directory of it (E_USAGE)', async () => {
    const elsewhere = join(work, 'elsewhere');
    await cp(LAYOUTS, elsewhere, { recursive: true });
    await ok(author, 'registry', 'add', 'far', elsewhere);
    const far = await refused(
      author,
      'E_USAGE',
      'install',
      '--project',
      'codex-guard@far',
      '--yes',
    );
    expect(far.stderr).toContain('is not a directory inside the project');
    const catalog = join(project, 'vendor', 'mkt', '.agents', 'plugins', 'marketplace.json');
    const doc = JSON.parse(await readFile(catalog, 'utf8')) as { plugins: unknown[] };
    // An entry's own git repository is locked by its commit (J13); an npm entry stays refused.
    doc.plugins.push({ name: 'remote', source: { source: 'npm', package: 'acme-remote' } });
    await writeFile(catalog, JSON.stringify(doc));
    await ok(author, 'registry', 'add', 'mkt', './vendor/mkt');
    const remote = await refused(author, 'E_USAGE', 'install', '--project', 'remote@mkt', '--yes');
    expect(remote.stderr).toContain('its source is npm');
  });

  it('J10: after the plugin moves to a new version in the marketplace, update --project locks the new tree, and ci from another HOME installs it', async () => {
    await authorInstalls();
    const before = (await readLock()).plugins['codex-guard@mkt']!;
    const dir = join(project, 'vendor', 'mkt', 'plugins', 'codex-guard');
    const manifest = join(dir, '.codex-plugin', 'plugin.json');
    const doc = JSON.parse(await readFile(manifest, 'utf8')) as Record<string, unknown>;
    await writeFile(manifest, JSON.stringify({ ...doc, version: '1.1.0' }));
    await writeFile(
      join(dir, 'scripts', 'guard.mjs'),
      await readFile(join(LAYOUTS, GUARD), 'utf8'),
    );
    await ok(author, 'update', '--project', '--yes');
    const after = (await readLock()).plugins['codex-guard@mkt']!;
    expect(after).toMatchObject({ version: '1.1.0', resolved: 'plugins/codex-guard' });
    expect(after.integrity).not.toBe(before.integrity);
    await ok(teammate, 'ci', '--yes');
    expect(await denyReason(teammate)).toBe('codex-guard: rm -rf is refused');
  });

  it("J10, G13: a project's marketplace whose only catalog is Cursor's .cursor-plugin/marketplace.json locks like any other; ci from another HOME installs the same bytes", async () => {
    await cp(join(REPO, 'test/corpus/layouts/cursor-catalog'), join(project, 'vendor', 'cur'), {
      recursive: true,
    });
    await ok(author, 'registry', 'add', 'cur', './vendor/cur');
    await ok(author, 'install', '--project', 'cursor-audit@cur', '--yes');
    const locked = (await readLock()).plugins['cursor-audit@cur']!;
    expect(locked).toMatchObject({ version: '3.0.0', resolved: 'plugins/cursor-audit' });
    await ok(teammate, 'ci', '--yes');
    expect(await denyReason(teammate)).toBe('cursor-audit: rm -rf is refused');
  });
});
