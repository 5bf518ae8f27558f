/**
 * registry.md D4 with the built binary: a plugin directory, the plugins folder, the staging
 * directory or the installed-files folder of the store that is a symlink (none hookpm made) leads
 * out of the store, and no command deletes or writes anything through it.
 */
import {
  cpSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { useRegistryHome } from '../helpers/registry-home.js';

const ctx = useRegistryHome('hookpm-store-symlinks-');
const { hookpm, ok, store } = ctx;

/** The installed path of `id`, as the state names it. */
function pathOf(id: string): string {
  const state = JSON.parse(
    readFileSync(join(ctx.home.env.HOOKPM_HOME!, 'data', 'state.json'), 'utf8'),
  ) as { plugins: Record<string, { path: string }> };
  return state.plugins[id]!.path;
}

/** Every file under `dir` (relative paths, sorted). */
function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).sort();
}

/** guard 1.0.0 published to acme, and installed from it. */
async function installGuard(): Promise<void> {
  await publishPlugin(ctx.acme, 'guard', '1.0.0');
  await ok('registry', 'add', 'acme', ctx.acme.url);
  await ok('install', 'guard@acme', '--yes');
}

/**
 * The store's data folder `name` replaced by a symlink to `<home>/<outsideName>`, which `fill`
 * makes first (given where it goes and the folder it stands for): the link, where it leads, and
 * the files there before any command runs.
 */
function linkedOut(
  name: string,
  outsideName: string,
  fill: (outside: string, folder: string) => void,
): { link: string; outside: string; before: string[] } {
  const link = join(ctx.home.env.HOOKPM_HOME!, 'data', name);
  const outside = join(ctx.home.dir, outsideName);
  fill(outside, link);
  rmSync(link, { recursive: true, force: true });
  symlinkSync(outside, link);
  return { link, outside, before: filesUnder(outside) };
}

/**
 * guard@acme installed, then its plugin directory moved out of the store (`outside`) and a symlink
 * to it left in its place.
 */
async function guardDirLinkedOut(): Promise<{ pluginDir: string; outside: string }> {
  await installGuard();
  const pluginDir = dirname(pathOf('guard@acme'));
  const outside = join(ctx.home.dir, 'outside');
  cpSync(pluginDir, outside, { recursive: true });
  rmSync(pluginDir, { recursive: true });
  symlinkSync(outside, pluginDir);
  return { pluginDir, outside };
}

describe('a plugin directory of the store that is a symlink', () => {
  it('D4: uninstall deletes nothing through it: the directory it leads to keeps every file', async () => {
    const { pluginDir, outside } = await guardDirLinkedOut();
    const before = filesUnder(outside);
    expect(before.length).toBeGreaterThan(0);

    await ok('uninstall', 'guard');
    expect(filesUnder(outside)).toEqual(before);
  });

  it('D4: update installs no tree through it: E_IO naming it, the store and the directory it leads to unchanged', async () => {
    const { pluginDir, outside } = await guardDirLinkedOut();
    await publishPlugin(ctx.acme, 'guard', '1.1.0');
    const before = filesUnder(outside);
    const stored = await store();

    const run = await hookpm(['update', '--yes']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('E_IO');
    expect(run.stderr).toContain(`${pluginDir}: it is a symlink`);
    expect(filesUnder(outside)).toEqual(before);
    expect(await store()).toEqual(stored);
  });
});

describe('the staging directory of the store as a symlink', () => {
  it('D4: update, uninstall and collection delete nothing where it leads; staging is a directory again', async () => {
    await installGuard();
    const {
      link: staging,
      outside,
      before,
    } = linkedOut('.staging', 'documents', (dir) => {
      mkdirSync(join(dir, 'sub'), { recursive: true });
      writeFileSync(join(dir, 'a.txt'), 'a');
      writeFileSync(join(dir, 'sub', 'b.txt'), 'b');
    });

    await publishPlugin(ctx.acme, 'guard', '1.1.0');
    await ok('update', '--yes');
    expect(filesUnder(outside)).toEqual(before);
    expect(lstatSync(staging).isDirectory()).toBe(true);
    rmSync(staging, { recursive: true });
    symlinkSync(outside, staging);
    await ok('uninstall', 'guard');
    expect(filesUnder(outside)).toEqual(before);
  });
});

describe('the installed-files folder of the store as a symlink', () => {
  it('D4: uninstall and install delete and write nothing where it leads; the folder is a directory again', async () => {
    await installGuard();
    const {
      link: lists,
      outside,
      before,
    } = linkedOut('installed-files', 'documents', (dir) => {
      mkdirSync(dir);
      writeFileSync(join(dir, 'a.txt'), 'a');
      writeFileSync(join(dir, 'b.json'), '{}');
    });

    await ok('uninstall', 'guard');
    expect(filesUnder(outside)).toEqual(before);
    await ok('install', 'guard@acme', '--yes');
    expect(filesUnder(outside)).toEqual(before);
    expect(lstatSync(lists).isDirectory()).toBe(true);
  });
});

describe('the plugins folder of the store as a symlink', () => {
  it('D4: doctor --fix and uninstall delete nothing where it leads; an install there is E_IO', async () => {
    await installGuard();
    const {
      link: plugins,
      outside,
      before,
    } = linkedOut('plugins', 'projects', (dir, folder) => {
      cpSync(folder, dir, { recursive: true });
      mkdirSync(join(dir, 'app', 'src'), { recursive: true });
      writeFileSync(join(dir, 'app', 'src', 'main.c'), 'int main;');
    });

    await ok('doctor', '--fix');
    expect(filesUnder(outside)).toEqual(before);
    await ok('uninstall', 'guard');
    expect(filesUnder(outside)).toEqual(before);
    const run = await hookpm(['install', 'guard@acme', '--yes']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${plugins}: it is a symlink`);
    expect(filesUnder(outside)).toEqual(before);
  });
});
