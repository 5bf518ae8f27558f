/**
 * security.md "Archives" (the publisher is the attacker; the integrity check has passed), every
 * row THROUGH the install operation: each crafted tarball is published with its true sha512 on a
 * registry served on 127.0.0.1 and installed by name (a few also as ./x.tgz). Each case asserts the
 * error code, that the state file and every installed tree are byte-identical afterwards, and that
 * nothing was written outside the store.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { isHookpmError, type HookpmError } from '../../src/errors.js';
import type { OperationContext } from '../../src/ops/steps/context/operation-context.js';
import { readState } from '../../src/store/state/state.js';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { failsCleanly } from '../helpers/failure.js';
import {
  longNameEntry,
  paxEntry,
  tarEntry,
  tarHeader,
  tarOf,
  writeTgzStream,
  type RawEntry,
} from '../helpers/tar-writer.js';
import { acmeAt, installSpecs, useRegistryWorld } from '../helpers/registry-world.js';

const fx = useRegistryWorld();
let ctx: OperationContext;

beforeEach(async () => {
  ctx = {
    paths: fx.world.paths,
    defaults: acmeAt(fx.acme.url),
    fetch: { retries: 0, deadlineMs: 10_000 },
  };
  // An installed plugin, so "every installed tree byte-identical" is checked on a real tree.
  await publishPlugin(fx.acme, 'keep', '1.0.0');
  await install(['keep']);
});

function install(specs: string[]) {
  return installSpecs(ctx, fx.world.dir, specs);
}

const MANIFEST = (name: string): RawEntry => ({
  name: 'package/plugin.json',
  data: JSON.stringify({ name, version: '1.0.0' }),
});
const file = (name: string, data = 'x', mode = 0o644): RawEntry => ({ name, data, mode });
const tgz = (entries: readonly RawEntry[]): Buffer => gzipSync(tarOf(entries));
/** A name segment long enough that quoting it whole would flood a terminal. */
const LONG = 'a'.repeat(900_000);

/** Every file name under the world directory outside the store (to prove nothing was written there). */
async function outsideStore(): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const name of await readdir(dir)) {
      const path = join(dir, name);
      if (path === join(fx.world.dir, 'hookpm')) continue;
      found.push(path);
      if ((await stat(path)).isDirectory()) await walk(path);
    }
  };
  await walk(fx.world.dir);
  return found.sort();
}

/** Publishes `bytes` as `name` 1.0.0 and installs it by name: it must fail with `code` and change nothing. */
async function rejects(name: string, bytes: Buffer, code: string): Promise<HookpmError> {
  fx.acme.publish(name, '1.0.0', bytes);
  const before = await hashStore(fx.world.paths);
  const outside = await outsideStore();
  let error: unknown;
  try {
    await install([name]);
  } catch (caught) {
    error = caught;
  }
  if (!isHookpmError(error)) throw new Error(`expected a HookpmError, got ${String(error)}`);
  expect(error.code, error.message).toBe(code);
  expect(await hashStore(fx.world.paths)).toEqual(before);
  expect(await outsideStore()).toEqual(outside);
  expect(Object.keys((await readState(fx.world.paths)).plugins)).toEqual(['keep@acme']);
  return error;
}

describe('security.md Archives, through hookpm install', () => {
  it('entry package/../../outside.txt is E_ARCHIVE_UNSAFE, nothing written anywhere', async () => {
    await rejects(
      'dotdot',
      tgz([MANIFEST('dotdot'), file('package/../../outside.txt')]),
      'E_ARCHIVE_UNSAFE',
    );
    expect(existsSync(join(fx.world.paths.data, 'outside.txt'))).toBe(false);
    expect(existsSync(join(fx.world.paths.data, '..', 'outside.txt'))).toBe(false);
  });

  it.each([
    ['absolute /tmp/x/abs.txt', '/tmp/x/abs.txt'],
    ['C:../x', 'C:../x'],
    ['package\\..\\evil', 'package\\..\\evil'],
  ])('%s is E_ARCHIVE_UNSAFE', async (_what, name) => {
    const existed = existsSync('/tmp/x/abs.txt');
    await rejects('abs', tgz([MANIFEST('abs'), file(name)]), 'E_ARCHIVE_UNSAFE');
    expect(existsSync('/tmp/x/abs.txt')).toBe(existed);
  });

  it('symlink package/lnk -> /tmp/outside, then package/lnk/through.txt is E_ARCHIVE_UNSAFE (links are never extracted)', async () => {
    await rejects(
      'lnk',
      tgz([
        MANIFEST('lnk'),
        { name: 'package/lnk', type: '2', linkname: '/tmp/outside' },
        file('package/lnk/through.txt'),
      ]),
      'E_ARCHIVE_UNSAFE',
    );
  });

  it('hardlink package/passwd -> /etc/passwd is E_ARCHIVE_UNSAFE', async () => {
    await rejects(
      'hard',
      tgz([MANIFEST('hard'), { name: 'package/passwd', type: '1', linkname: '/etc/passwd' }]),
      'E_ARCHIVE_UNSAFE',
    );
  });

  it.each([
    ['character device', '3'],
    ['FIFO', '6'],
  ])('a %s entry is E_ARCHIVE_UNSAFE', async (_what, type) => {
    await rejects(
      'dev',
      tgz([MANIFEST('dev'), { name: 'package/node', type }]),
      'E_ARCHIVE_UNSAFE',
    );
  });

  it('2,000-deep directories are E_ARCHIVE_UNSAFE (too deep), quickly', async () => {
    const entries: RawEntry[] = [MANIFEST('deep')];
    for (let depth = 1; depth <= 2000; depth += 1)
      entries.push(longNameEntry(`package/${'d/'.repeat(depth)}`), {
        name: 'package/placeholder/',
        type: '5',
      });
    const started = Date.now();
    await rejects('deep', tgz(entries), 'E_ARCHIVE_UNSAFE');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a gzip bomb of 300 MB of zeros is E_ARCHIVE_TOO_LARGE before it is written', async () => {
    const bomb = join(fx.world.dir, 'bomb.tgz');
    const zeros = Buffer.alloc(1024 * 1024);
    await writeTgzStream(
      bomb,
      (function* parts() {
        yield tarEntry(MANIFEST('bomb'));
        yield tarHeader({ name: 'package/zeros.bin', size: 300 * 1024 * 1024 });
        for (let i = 0; i < 300; i += 1) yield zeros;
      })(),
    );
    const bytes = await readFile(bomb);
    await rm(bomb);
    const error = await rejects('bomb', bytes, 'E_ARCHIVE_TOO_LARGE');
    expect(error.message).toContain('limit');
  });

  it('20,000 empty files are E_ARCHIVE_TOO_LARGE (entry count)', async () => {
    const blocks = [tarEntry(MANIFEST('many'))];
    for (let n = 0; n < 20_000; n += 1) blocks.push(tarHeader({ name: `package/f${n}` }));
    await rejects(
      'many',
      gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)])),
      'E_ARCHIVE_TOO_LARGE',
    );
  });

  it('package/plugin.json twice, the second different, is E_ARCHIVE_UNSAFE (duplicate)', async () => {
    await rejects(
      'dup',
      tgz([MANIFEST('dup'), { name: 'package/plugin.json', data: '{"name":"evil"}' }]),
      'E_ARCHIVE_UNSAFE',
    );
  });

  it('Plugin.json and plugin.json collide on case-insensitive disks: E_ARCHIVE_UNSAFE', async () => {
    await rejects(
      'case',
      tgz([MANIFEST('case'), file('package/Plugin.json', '{}')]),
      'E_ARCHIVE_UNSAFE',
    );
  });

  it.each([
    ['ESC', 'package/\u001b[31mred.txt'],
    ['newline', 'package/line\nbreak.txt'],
    ['NUL', 'package/nul\u0000hidden.txt'],
  ])('a file name with %s is E_ARCHIVE_UNSAFE', async (_what, name) => {
    await rejects('ctl', tgz([MANIFEST('ctl'), file(name)]), 'E_ARCHIVE_UNSAFE');
  });

  it.each([
    ['a PAX path with a ".." segment', [paxEntry({ path: `package/${LONG}/../x` })]],
    ['a PAX path with ESC', [paxEntry({ path: `package/${LONG}\u001b` })]],
    ['a GNU long name holding a NUL', [longNameEntry(`package/${LONG}\u0000x`)]],
  ])(
    'security.md: %s 900 KB long is E_ARCHIVE_UNSAFE quoting at most its first 200 characters',
    async (_what, meta) => {
      const error = await rejects(
        'long',
        tgz([MANIFEST('long'), ...meta, file('package/short.txt')]),
        'E_ARCHIVE_UNSAFE',
      );
      expect(error.message.length).toBeLessThan(1000);
      expect(JSON.stringify(error.details).length).toBeLessThan(1000);
      expect(error.message).toContain('package/aaaa');
    },
  );

  it('registry.md A2: a path of 20 segments of 250 bytes (5 KB, too long for any file system) is E_ARCHIVE_UNSAFE, not a failed write', async () => {
    const path = `package/${Array.from({ length: 20 }, () => 's'.repeat(250)).join('/')}/run.sh`;
    const error = await rejects(
      'longpath',
      tgz([MANIFEST('longpath'), paxEntry({ path }), file('package/short.txt')]),
      'E_ARCHIVE_UNSAFE',
    );
    expect(error.message).toContain('longer than 1024 bytes');
    expect(error.message).not.toContain('.staging');
  });

  it('a setuid file (mode 4755) is installed as 0755, never setuid', async () => {
    fx.acme.publish(
      'suid',
      '1.0.0',
      tgz([MANIFEST('suid'), file('package/run.sh', '#!/bin/sh\n', 0o4755)]),
    );
    await install(['suid']);
    const record = (await readState(fx.world.paths)).plugins['suid@acme']!;
    expect((await stat(join(record.path, 'run.sh'))).mode & 0o7777).toBe(0o755);
  });

  it.each([
    [
      'truncated',
      () => tgz([MANIFEST('trunc'), file('package/a.txt', 'y'.repeat(4000))]).subarray(0, 60),
    ],
    ['random bytes', () => Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251))],
  ])('%s is E_ARCHIVE_CORRUPT', async (_what, make) => {
    await rejects('corrupt', make(), 'E_ARCHIVE_CORRUPT');
  });

  it('no package/ prefix is E_ARCHIVE_UNSAFE; no manifest is E_MANIFEST_INVALID', async () => {
    await rejects(
      'noprefix',
      tgz([{ name: 'plugin.json', data: '{"name":"noprefix","version":"1.0.0"}' }]),
      'E_ARCHIVE_UNSAFE',
    );
    await rejects(
      'nomanifest',
      tgz([file('package/hooks/hooks.json', '{"hooks":{}}')]),
      'E_MANIFEST_INVALID',
    );
  });

  it('the same rows hold for a tarball file: ./evil.tgz with ../ is E_ARCHIVE_UNSAFE and changes nothing', async () => {
    await writeFile(
      join(fx.world.dir, 'evil.tgz'),
      tgz([MANIFEST('evil'), file('package/../../outside.txt')]),
    );
    const before = await hashStore(fx.world.paths);
    let error: unknown;
    try {
      await install(['./evil.tgz']);
    } catch (caught) {
      error = caught;
    }
    expect(isHookpmError(error, 'E_ARCHIVE_UNSAFE')).toBe(true);
    expect(await hashStore(fx.world.paths)).toEqual(before);
    expect(existsSync(join(fx.world.dir, 'outside.txt'))).toBe(false);
  });

  it.each([
    ['a truncated archive', () => tgz([MANIFEST('cut')]).subarray(0, 40), 'E_ARCHIVE_CORRUPT'],
    ['an unsafe entry', () => tgz([MANIFEST('evil'), file('package/../x')]), 'E_ARCHIVE_UNSAFE'],
  ])(
    "security.md: an error about %s in ./x.tgz names the user's file and entry, never its copy in staging; the store is byte-identical",
    async (_what, bytes, code) => {
      const mine = join(fx.world.dir, 'mine.tgz');
      await writeFile(mine, bytes());
      const error = await failsCleanly(fx.world.paths, code, () => install(['./mine.tgz']));
      expect(error.message).toContain(`tarball ${mine}:`);
      expect(error.details['file']).toBe(mine);
      expect(error.message).not.toContain('.staging');
    },
  );

  it('security.md: an error about a registry tarball names its URL, not the cache file', async () => {
    const error = await rejects(
      'evil',
      tgz([MANIFEST('evil'), file('package/../x')]),
      'E_ARCHIVE_UNSAFE',
    );
    expect(error.message).toContain(`tarball ${fx.acme.url}tarballs/evil-1.0.0.tgz:`);
    expect(error.message).not.toContain(fx.world.paths.cache);
  });
});
