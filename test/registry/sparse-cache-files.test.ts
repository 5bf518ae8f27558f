/**
 * The cache of a sparse registry holds only files hookpm wrote (registry.md D7, N11): a cached
 * document, its `.meta` or a search page's rows replaced by a FIFO, a symlink or an oversized file
 * counts as absent. It is never read through, never waited on, and fetched again over it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  lstat,
  mkdir,
  readdir,
  readFile,
  rm,
  symlink,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { addRegistry } from '../../src/ops/registries/add.js';
import { searchPlugins } from '../../src/ops/registries/search.js';
import { describePlugin } from '../../src/ops/plugins/info.js';
import { serveRegistry, type ServedRequest } from '../../src/registry/http/http-server.js';
import {
  readCachedRows,
  sparseCacheDir,
  writeCachedRows,
} from '../../src/registry/sparse/cache-sparse.js';
import { indexCacheDir } from '../../src/store/paths.js';
import { useSparseWorld } from '../helpers/sparse-world.js';
import { writeSparseRegistry } from '../helpers/sparse-registry.js';

const GUARD = fileURLToPath(new URL('../../registry-fixtures/plugins/guard', import.meta.url));

const world = useSparseWorld('hookpm-sparse-cache-');

/** A served sparse registry of 10 plugins, added as `acme`; its cache folder and request log. */
async function added(): Promise<{ cache: string; log: ServedRequest[] }> {
  const dir = join(world.root, 'reg');
  await writeSparseRegistry(dir, 10, GUARD);
  const log: ServedRequest[] = [];
  const server = await serveRegistry(dir, { onRequest: (r) => log.push(r) });
  world.closers.push(() => server.close());
  await addRegistry(world.ctx, {
    name: 'acme',
    location: `${server.url}registry.json`,
    cwd: world.root,
  });
  return { cache: sparseCacheDir(indexCacheDir(world.ctx.paths), 'acme'), log };
}

async function replaceWithFifo(file: string): Promise<void> {
  await unlink(file);
  execFileSync('mkfifo', [file]);
}

describe('sparse cache files that are not hookpm’s (D7)', () => {
  it('D7, N11: a cached plugin document and its .meta that are FIFOs are not waited on: the document is fetched again and replaces them', async () => {
    const { cache, log } = await added();
    await describePlugin(world.ctx, 'guard@acme');
    const doc = join(cache, 'plugins', 'gu', 'guard.json');
    await replaceWithFifo(doc);
    expect(await describePlugin(world.ctx, 'guard@acme')).toMatchObject({ name: 'guard' });
    expect((await lstat(doc)).isFile()).toBe(true);
    await replaceWithFifo(`${doc}.meta`);
    expect(await describePlugin(world.ctx, 'guard@acme')).toMatchObject({ name: 'guard' });
    expect((await lstat(`${doc}.meta`)).isFile()).toBe(true);
    expect(log.filter((r) => r.path === '/plugins/gu/guard.json')).toHaveLength(3);
  }, 15_000);

  it('D7, N11: a cached root document that is a symlink is not read through, and the file it names is left as it was', async () => {
    const { cache } = await added();
    const target = join(world.root, 'user-file.json');
    const user =
      '{"formatVersion":1,"layout":"sparse","plugins":"x/","search":"s.json","pluginCount":7}\n';
    await writeFile(target, user);
    const doc = join(cache, 'registry.json');
    await unlink(doc);
    await symlink(target, doc);
    const info = await describePlugin({ ...world.ctx, indexMaxAgeMs: 0 }, 'guard@acme');
    expect(info).toMatchObject({ name: 'guard' });
    expect(await readFile(target, 'utf8')).toBe(user);
    expect((await lstat(doc)).isSymbolicLink()).toBe(false);
  }, 15_000);

  it('D7, N11: a folder where a cached document goes fails the command with E_IO and a fix: delete the registry’s cache folder', async () => {
    const { cache } = await added();
    const doc = join(cache, 'registry.json');
    await unlink(doc);
    await mkdir(doc);
    const error = await describePlugin({ ...world.ctx, indexMaxAgeMs: 0 }, 'guard@acme').catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: 'E_IO',
      hint: expect.stringContaining(`Delete ${cache},`),
    });
    await rm(cache, { recursive: true });
    expect(await describePlugin(world.ctx, 'guard@acme')).toMatchObject({ name: 'guard' });
  }, 15_000);

  it('D7, N8: a cache folder that is a symlink is neither written nor pruned through: the user’s folder it names is left as it was', async () => {
    const { cache } = await added();
    await searchPlugins(world.ctx, { query: 'guard' });
    const user = join(world.root, 'user-folder');
    await mkdir(user);
    await writeFile(join(user, 'notes.rows'), 'mine\n');
    await rm(join(cache, 'search'), { recursive: true });
    await symlink(user, join(cache, 'search'));
    await searchPlugins({ ...world.ctx, indexMaxAgeMs: 0 }, { query: 'guard' }).catch(() => null);
    expect(await readdir(user)).toEqual(['notes.rows']);
  }, 15_000);

  it('D7, N8: a search page’s cached rows that are a FIFO are not waited on: the page is fetched again', async () => {
    const { cache, log } = await added();
    await searchPlugins(world.ctx, { query: 'guard' });
    const rows = join(cache, 'search', 'gu.json.rows');
    await replaceWithFifo(rows);
    const found = await searchPlugins(world.ctx, { query: 'guard' });
    expect(found.results.map((r) => r.id)).toContain('guard@acme');
    expect(log.filter((r) => r.path === '/search/gu.json')).toHaveLength(2);
    expect((await lstat(rows)).isFile()).toBe(true);
  }, 15_000);
});

describe('writes of one command into a new cache folder (D7, N8)', () => {
  it('D7, N8: search pages cached at once into a missing search folder all land: a folder another write made first is used, not an E_IO', async () => {
    // Ten fresh cache folders, one after another: the race is in the timing of the file system.
    for (let round = 0; round < 10; round += 1) {
      const cache = join(world.root, `fresh-cache-${round}`);
      const pages = Array.from({ length: 16 }, (_, i) => `p${i}.json`);
      await Promise.all(pages.map((path) => writeCachedRows(cache, path, 'h', [path])));
      for (const path of pages) expect(await readCachedRows(cache, path, 'h')).toEqual([path]);
    }
  });
});

describe('a cached document and its .meta from two responses (N4, N11)', () => {
  it('N4, N11: a cached document replaced by another response’s bytes after its .meta was written is fetched again, not confirmed by a 304 for the .meta’s ETag', async () => {
    const { cache } = await added();
    const served = join(world.root, 'reg', 'registry.json');
    const doc = join(cache, 'registry.json');
    const first = await readFile(doc);
    const root = JSON.parse(await readFile(served, 'utf8')) as Record<string, unknown>;
    await writeFile(served, `${JSON.stringify({ ...root, description: 'second' })}\n`);
    const ctx = { ...world.ctx, indexMaxAgeMs: 0 };
    await describePlugin(ctx, 'guard@acme');
    expect(await readFile(doc)).toEqual(await readFile(served));
    // What a second process writing the same document leaves when its body lands between this
    // process's body and .meta, or a process killed between them: the bytes of the first response.
    await writeFile(doc, first);
    await describePlugin(ctx, 'guard@acme');
    expect(await readFile(doc)).toEqual(await readFile(served));
  }, 15_000);
});

describe('temporary files of killed cache writes (D2, N11)', () => {
  it('D2, N11: a write into a cache folder removes the temporary files there of writers no longer running (over a minute old) or over an hour old, and nothing else', async () => {
    const { cache } = await added();
    const folder = join(cache, 'plugins', 'gu');
    await mkdir(folder, { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const minutes = (n: number) => new Date(Date.now() - n * 60_000);
    const plant = async (name: string, age: number): Promise<string> => {
      const file = join(folder, name);
      await writeFile(file, 'partial');
      await utimes(file, minutes(age), minutes(age));
      return name;
    };
    const removed = [
      await plant(`.guard.json.tmp-${dead}-0123456789ab`, 2),
      await plant(`.guard.json.meta.tmp-${dead}-0123456789ac`, 2),
      await plant(`.guard.json.tmp-${process.pid}-0123456789ad`, 120),
    ];
    const kept = [
      // Perhaps another host's write (its pid means nothing here), or one still under way.
      await plant(`.guard.json.tmp-${dead}-0123456789ae`, 0),
      await plant(`.guard.json.tmp-${process.pid}-0123456789af`, 2),
      await plant('.guard.json.tmp-notes', 120),
    ];
    const outside = join(world.root, 'user-file');
    await writeFile(outside, 'user\n');
    await symlink(outside, join(folder, `.x.json.tmp-${dead}-0123456789b0`));
    kept.push(`.x.json.tmp-${dead}-0123456789b0`);
    await describePlugin(world.ctx, 'guard@acme');
    const names = await readdir(folder);
    for (const name of removed) expect(names).not.toContain(name);
    for (const name of kept) expect(names).toContain(name);
    expect(names).toEqual(expect.arrayContaining(['guard.json', 'guard.json.meta']));
    expect(await readFile(outside, 'utf8')).toBe('user\n');
  }, 15_000);
});
