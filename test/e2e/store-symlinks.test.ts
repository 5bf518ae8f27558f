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

/**
 * guard@acme installed, then its plugin directory moved out of the store (`outside`) and a symlink
 * to it left in its place.
 */
async function guardDirLinkedOut(): Promise<{ pluginDir: string; outside: string }> {
  await publishPlugin(ctx.acme, 'guard', '1.0.0');
  await ok('registry', 'add', 'acme', ctx.acme.url);
  await ok('install', 'guard@acme', '--yes');
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
    await publishPlugin(ctx.acme, 'guard', '1.0.0');
    await ok('registry', 'add', 'acme', ctx.acme.url);
    await ok('install', 'guard@acme', '--yes');
    const staging = join(ctx.home.env.HOOKPM_HOME!, 'data', '.staging');
    const outside = join(ctx.home.dir, 'documents');
    mkdirSync(join(outside, 'sub'), { recursive: true });
    writeFileSync(join(outside, 'a.txt'), 'a');
    writeFileSync(join(outside, 'sub', 'b.txt'), 'b');
    rmSync(staging, { recursive: true, force: true });
    symlinkSync(outside, staging);
    const before = filesUnder(outside);

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
    await publishPlugin(ctx.acme, 'guard', '1.0.0');
    await ok('registry', 'add', 'acme', ctx.acme.url);
    await ok('install', 'guard@acme', '--yes');
    const lists = join(ctx.home.env.HOOKPM_HOME!, 'data', 'installed-files');
    const outside = join(ctx.home.dir, 'documents');
    mkdirSync(outside);
    writeFileSync(join(outside, 'a.txt'), 'a');
    writeFileSync(join(outside, 'b.json'), '{}');
    rmSync(lists, { recursive: true, force: true });
    symlinkSync(outside, lists);
    const before = filesUnder(outside);

    await ok('uninstall', 'guard');
    expect(filesUnder(outside)).toEqual(before);
    await ok('install', 'guard@acme', '--yes');
    expect(filesUnder(outside)).toEqual(before);
    expect(lstatSync(lists).isDirectory()).toBe(true);
  });
});

describe('the plugins folder of the store as a symlink', () => {
  it('D4: doctor --fix and uninstall delete nothing where it leads; an install there is E_IO', async () => {
    await publishPlugin(ctx.acme, 'guard', '1.0.0');
    await ok('registry', 'add', 'acme', ctx.acme.url);
    await ok('install', 'guard@acme', '--yes');
    const plugins = join(ctx.home.env.HOOKPM_HOME!, 'data', 'plugins');
    const outside = join(ctx.home.dir, 'projects');
    cpSync(plugins, outside, { recursive: true });
    mkdirSync(join(outside, 'app', 'src'), { recursive: true });
    writeFileSync(join(outside, 'app', 'src', 'main.c'), 'int main;');
    rmSync(plugins, { recursive: true });
    symlinkSync(outside, plugins);
    const before = filesUnder(outside);

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
