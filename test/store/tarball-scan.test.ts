import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar';
import { describe, expect, it } from 'vitest';
import { HookpmError } from '../../src/errors.js';
import type { ErrorCode } from '../../src/errors.js';
import { fingerprintOf, fingerprintTree } from '../../src/store/fingerprint.js';
import { extractTarball, scanTarball } from '../../src/store/tar/tarball-scan.js';
import type { TarballListing } from '../../src/store/tar/tarball-scan.js';
import {
  longNameEntry,
  paxEntry,
  tarEntry,
  tarHeader,
  tarOf,
  writeTgz,
  writeTgzStream,
} from '../helpers/tar-writer.js';
import type { RawEntry } from '../helpers/tar-writer.js';
import { failure } from '../helpers/failure.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs('hookpm-tar-');

/** A sandbox whose staging directory sits two levels down, so `../../x` would still land inside it. */
async function sandbox(): Promise<{ root: string; tarball: string; staging: string }> {
  const root = await tempDir();
  const staging = join(root, 'store', 'a', 'staging');
  await mkdir(staging, { recursive: true });
  return { root, tarball: join(root, 'plugin.tgz'), staging };
}

/** Every path under `root` with its type, mode and content hash. */
async function snapshot(root: string): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name);
      const info = await lstat(path);
      const hash = info.isFile()
        ? createHash('sha256')
            .update(await readFile(path))
            .digest('hex')
        : '';
      lines.push(`${path.slice(root.length)} ${info.mode.toString(8)} ${hash}`);
      if (info.isDirectory()) await walk(path);
    }
  };
  await walk(root);
  return lines;
}

const EMPTY_LISTING = (file: string): TarballListing => ({ file, entries: [], totalBytes: 0 });

/**
 * A3 and the security.md invariant: the scan fails with `code`, writing nothing anywhere (the
 * staging directory untouched); an extraction attempted anyway fails the same way, writes nothing
 * outside the staging directory, and removes it. The same holds, with the same message, when the
 * archive's bytes are in memory (a small tarball is read once, tar-reader.ts).
 */
async function expectRejected(
  content: readonly RawEntry[] | Buffer | ((file: string) => Promise<void>),
  code: ErrorCode,
): Promise<HookpmError> {
  const box = await sandbox();
  if (typeof content === 'function') await content(box.tarball);
  else await writeTgz(box.tarball, content);
  const before = await snapshot(box.root);
  const scanned = await failure(scanTarball(box.tarball));
  expect(scanned.code).toBe(code);
  expect(scanned.details.file).toBe(box.tarball);
  expect(await snapshot(box.root)).toEqual(before);
  const extracted = await failure(
    extractTarball(box.tarball, box.staging, EMPTY_LISTING(box.tarball)),
  );
  expect(extracted.code).toBe(code);
  expect(await snapshot(box.root)).toEqual(
    before.filter((line) => !line.startsWith('/store/a/staging ')),
  );
  const input = { file: box.tarball, bytes: await readFile(box.tarball) };
  const inMemory = await failure(scanTarball(input));
  expect([inMemory.code, inMemory.message]).toEqual([code, scanned.message]);
  expect(inMemory.details.file).toBe(box.tarball);
  await mkdir(box.staging, { recursive: true });
  const extractedInMemory = await failure(
    extractTarball(input, box.staging, EMPTY_LISTING(box.tarball)),
  );
  expect(extractedInMemory.code).toBe(code);
  expect(await snapshot(box.root)).toEqual(
    before.filter((line) => !line.startsWith('/store/a/staging ')),
  );
  return scanned;
}

const file = (name: string, data = 'x', mode = 0o644): RawEntry => ({ name, data, mode });
const dir = (name: string): RawEntry => ({ name, type: '5' });

/** A sandbox holding a tarball of `entries`, and its scan. */
async function scanned(entries: RawEntry[]) {
  const box = await sandbox();
  await writeTgz(box.tarball, entries);
  return { box, listing: await scanTarball(box.tarball) };
}

describe('scanTarball and extractTarball on accepted archives', () => {
  it('A1/A3: an npm-pack style archive is listed, then extracted with package/ stripped and modes masked', async () => {
    const { box, listing } = await scanned([
      file('package/plugin.json', '{"name":"guard","version":"1.0.0"}'),
      file('package/hooks/hooks.json', '{"hooks":{}}'),
      file('package/bin/run.sh', '#!/bin/sh\nexit 0\n', 0o775),
      dir('package/empty/'),
    ]);
    expect(listing.entries.map((e) => [e.path, e.type, e.mode])).toEqual([
      ['plugin.json', 'file', 0o644],
      ['hooks/hooks.json', 'file', 0o644],
      ['bin/run.sh', 'file', 0o755],
      ['empty', 'directory', 0o755],
    ]);
    expect(await readdir(box.staging)).toEqual([]);
    const files = await extractTarball(box.tarball, box.staging, listing);
    // Q6: what the extraction reports it wrote fingerprints the same as the tree read back.
    expect(fingerprintOf(files)).toBe(await fingerprintTree(box.staging));
    expect(files.map(([path]) => path).sort()).toEqual([
      'bin/run.sh',
      'hooks/hooks.json',
      'plugin.json',
    ]);
    expect(await readFile(join(box.staging, 'hooks', 'hooks.json'), 'utf8')).toBe('{"hooks":{}}');
    expect((await stat(join(box.staging, 'bin', 'run.sh'))).mode & 0o7777).toBe(0o755);
    expect((await stat(join(box.staging, 'plugin.json'))).mode & 0o7777).toBe(0o644);
    expect((await stat(join(box.staging, 'hooks'))).mode & 0o7777).toBe(0o755);
    expect((await stat(join(box.staging, 'empty'))).isDirectory()).toBe(true);
  });

  it.each([
    ['decompressed in one step', 100],
    ['streamed (24 MiB unpacked)', 9 * 1024 * 1024],
  ])(
    'A1/A3: a tarball whose bytes are in memory (read once for its hash) gives the same listing and tree, %s',
    async (_how, size) => {
      const box = await sandbox();
      const data = randomBytes(size).toString('base64');
      await writeTgz(box.tarball, [
        file('package/plugin.json', '{"name":"guard","version":"1.0.0"}'),
        file('package/bin/run.sh', '#!/bin/sh\nexit 0\n', 0o775),
        file('package/data/a.txt', data),
        file('package/data/b.txt', data),
      ]);
      const listing = await scanTarball(box.tarball);
      await extractTarball(box.tarball, box.staging, listing);
      const fromFile = await snapshot(box.staging);
      const input = { file: box.tarball, bytes: await readFile(box.tarball) };
      expect(await scanTarball(input)).toEqual(listing);
      await rm(box.staging, { recursive: true });
      const files = await extractTarball(input, box.staging, listing);
      expect(await snapshot(box.staging)).toEqual(fromFile);
      expect(fingerprintOf(files)).toBe(await fingerprintTree(box.staging));
    },
  );

  it('A1: a tarball made by tar (npm pack uses it), with a long PAX path, is read and extracted', async () => {
    const box = await sandbox();
    const src = join(box.root, 'src', 'package');
    const deep = join(src, 'a'.repeat(90), 'b'.repeat(90));
    await mkdir(deep, { recursive: true });
    await writeFile(join(src, 'plugin.json'), '{}');
    await writeFile(join(deep, 'c'.repeat(80) + '.json'), 'deep');
    await tar.c({ gzip: true, file: box.tarball, cwd: join(box.root, 'src'), portable: true }, [
      'package',
    ]);
    const listing = await scanTarball(box.tarball);
    const longPath = `${'a'.repeat(90)}/${'b'.repeat(90)}/${'c'.repeat(80)}.json`;
    expect(listing.entries.map((e) => e.path)).toContain(longPath);
    await extractTarball(box.tarball, box.staging, listing);
    expect(await readFile(join(box.staging, ...longPath.split('/')), 'utf8')).toBe('deep');
  });

  it('A2: PAX path records and GNU long names are honoured, so the scan sees the path extraction writes', async () => {
    const box = await sandbox();
    const long = `package/${'d'.repeat(120)}/file.txt`;
    await writeTgz(box.tarball, [
      paxEntry({ path: 'package/from-pax.txt' }),
      file('package/ignored-name.txt', 'pax'),
      longNameEntry(long),
      file('package/short.txt', 'gnu'),
    ]);
    const listing = await scanTarball(box.tarball);
    expect(listing.entries.map((e) => e.path)).toEqual([
      'from-pax.txt',
      `${'d'.repeat(120)}/file.txt`,
    ]);
    await extractTarball(box.tarball, box.staging, listing);
    expect(await readdir(box.staging)).toEqual(['d'.repeat(120), 'from-pax.txt']);
  });

  it('security.md: a setuid file (mode 4755) is installed as 0755, never setuid', async () => {
    const { box, listing } = await scanned([
      file('package/plugin.json', '{}'),
      file('package/bin/suid', 'x', 0o4755),
      file('package/g', 'x', 0o2644),
    ]);
    await extractTarball(box.tarball, box.staging, listing);
    expect((await stat(join(box.staging, 'bin', 'suid'))).mode & 0o7777).toBe(0o755);
    expect((await stat(join(box.staging, 'g'))).mode & 0o7777).toBe(0o644);
  });

  it('A3: the modes are exact whatever the umask (a restrictive 077 here), for files and directories', async () => {
    const { box, listing } = await scanned([
      file('package/plugin.json', '{}'),
      file('package/bin/run.sh', '#!/bin/sh\n', 0o700),
      file('package/docs/a.md', 'x', 0o600),
    ]);
    const previous = process.umask(0o077);
    try {
      await extractTarball(box.tarball, box.staging, listing);
    } finally {
      process.umask(previous);
    }
    const mode = async (...path: string[]) =>
      (await stat(join(box.staging, ...path))).mode & 0o7777;
    expect(await mode('plugin.json')).toBe(0o644);
    expect(await mode('bin', 'run.sh')).toBe(0o755);
    expect(await mode('docs', 'a.md')).toBe(0o644);
    expect(await mode('bin')).toBe(0o755);
    expect(await mode('docs')).toBe(0o755);
  });

  it('A3: extraction refuses an archive that differs from the scanned listing and removes the staging directory', async () => {
    const box = await sandbox();
    await writeTgz(box.tarball, [file('package/plugin.json', '{}')]);
    const listing = await scanTarball(box.tarball);
    await writeTgz(box.tarball, [file('package/plugin.json', '{"name":"swapped"}')]);
    const error = await failure(extractTarball(box.tarball, box.staging, listing));
    expect(error.code).toBe('E_ARCHIVE_CORRUPT');
    await expect(stat(box.staging)).rejects.toThrow();
  });
});

describe('security.md Archives: hostile archives', () => {
  it('security.md: entry package/../../outside.txt is E_ARCHIVE_UNSAFE, nothing written anywhere', async () => {
    const error = await expectRejected(
      [file('package/plugin.json', '{}'), file('package/../../outside.txt', 'pwned')],
      'E_ARCHIVE_UNSAFE',
    );
    expect(error.details.entry).toBe('package/../../outside.txt');
    expect(error.message).toContain('package/../../outside.txt');
  });

  it.each(['/tmp/x/abs.txt', 'C:../x', 'package\\..\\evil', 'package/C:evil'])(
    'A2: the absolute or drive/backslash entry %j is E_ARCHIVE_UNSAFE',
    async (name) => {
      await expectRejected([file(name)], 'E_ARCHIVE_UNSAFE');
    },
  );

  it('security.md: a symlink package/lnk -> /tmp/outside then package/lnk/through.txt is E_ARCHIVE_UNSAFE', async () => {
    await expectRejected(
      [
        { name: 'package/lnk', type: '2', linkname: '/tmp/outside' },
        file('package/lnk/through.txt', 'through'),
      ],
      'E_ARCHIVE_UNSAFE',
    );
  });

  it('security.md: a hardlink package/passwd -> /etc/passwd is E_ARCHIVE_UNSAFE', async () => {
    await expectRejected(
      [{ name: 'package/passwd', type: '1', linkname: '/etc/passwd' }],
      'E_ARCHIVE_UNSAFE',
    );
  });

  it.each([
    ['character device', '3'],
    ['block device', '4'],
    ['FIFO', '6'],
    ['contiguous file', '7'],
    ['GNU sparse file', 'S'],
  ])('A1: a %s entry is E_ARCHIVE_UNSAFE', async (_what, type) => {
    await expectRejected(
      [file('package/plugin.json', '{}'), { name: 'package/node', type }],
      'E_ARCHIVE_UNSAFE',
    );
  });

  it('security.md: 2,000-deep directories are E_ARCHIVE_UNSAFE (too deep), quickly', async () => {
    const entries: RawEntry[] = [];
    for (let depth = 1; depth <= 2000; depth += 1) {
      entries.push(longNameEntry(`package/${'d/'.repeat(depth)}`), dir('package/placeholder/'));
    }
    const started = Date.now();
    const error = await expectRejected(entries, 'E_ARCHIVE_UNSAFE');
    expect(error.message).toContain('deeper than 32');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('A2: a path segment over 255 bytes is E_ARCHIVE_UNSAFE', async () => {
    await expectRejected(
      [paxEntry({ path: `package/${'é'.repeat(128)}` }), file('package/x')],
      'E_ARCHIVE_UNSAFE',
    );
  });

  it('security.md: a gzip bomb of 300 MB of zeros in one entry is E_ARCHIVE_TOO_LARGE before writing it, in well under 5 s', async () => {
    const zeros = Buffer.alloc(1024 * 1024);
    const started = Date.now();
    const error = await expectRejected(async (tarball) => {
      await writeTgzStream(
        tarball,
        (function* parts() {
          yield tarHeader({ name: 'package/zeros.bin', size: 300 * 1024 * 1024 });
          for (let i = 0; i < 300; i += 1) yield zeros;
        })(),
      );
    }, 'E_ARCHIVE_TOO_LARGE');
    expect(error.message).toContain('limit');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('security.md: 300 MB of zeros after the end marker is E_ARCHIVE_TOO_LARGE, stopped while streaming', async () => {
    const zeros = Buffer.alloc(1024 * 1024);
    const box = await sandbox();
    await writeTgzStream(
      box.tarball,
      (function* parts() {
        yield tarEntry(file('package/plugin.json', '{}'));
        for (let i = 0; i < 300; i += 1) yield zeros;
      })(),
    );
    const started = Date.now();
    const error = await failure(scanTarball(box.tarball));
    expect(error.code).toBe('E_ARCHIVE_TOO_LARGE');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('A2: files each under 20 MiB but over 50 MiB in total are E_ARCHIVE_TOO_LARGE', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 1);
    const error = await expectRejected(async (tarball) => {
      await writeTgzStream(
        tarball,
        (function* parts() {
          for (let n = 0; n < 4; n += 1) {
            yield tarHeader({ name: `package/part${n}.bin`, size: 19 * 1024 * 1024 });
            for (let i = 0; i < 19; i += 1) yield chunk;
          }
          yield Buffer.alloc(1024);
        })(),
      );
    }, 'E_ARCHIVE_TOO_LARGE');
    expect(error.details.entry).toBe('package/part2.bin');
  });

  it('security.md: 2,001 empty files, one over the 2,000, are E_ARCHIVE_TOO_LARGE (entry count)', async () => {
    const blocks: Buffer[] = [];
    for (let n = 0; n < 2_001; n += 1) blocks.push(tarHeader({ name: `package/f${n}` }));
    const error = await expectRejected(
      Buffer.concat([...blocks, Buffer.alloc(1024)]),
      'E_ARCHIVE_TOO_LARGE',
    );
    expect(error.message).toContain('2000 entries');
  });

  it('security.md: package/plugin.json twice, the second different, is E_ARCHIVE_UNSAFE (duplicate)', async () => {
    await expectRejected(
      [file('package/plugin.json', '{"name":"a"}'), file('package/plugin.json', '{"name":"evil"}')],
      'E_ARCHIVE_UNSAFE',
    );
  });

  it.each([
    ['case', 'package/Plugin.json', 'package/plugin.json'],
    ['./ and //', 'package/hooks/hooks.json', 'package/.//hooks//hooks.json'],
    ['Unicode NFC/NFD', 'package/caf\u00e9.json', 'package/cafe\u0301.json'],
    ['Unicode NFKC', 'package/\ufb01le.json', 'package/file.json'],
    ['directory case', 'package/Hooks/a.json', 'package/hooks/b.json'],
    ['file and directory', 'package/hooks', 'package/hooks/hooks.json'],
  ])(
    'A2: names colliding after normalisation (%s) are E_ARCHIVE_UNSAFE',
    async (_what, first, second) => {
      await expectRejected([file(first), file(second)], 'E_ARCHIVE_UNSAFE');
    },
  );

  it.each([
    ['ESC', 'package/\u001b[31mred.txt'],
    ['newline', 'package/line\nbreak.txt'],
    ['NUL in the name field', 'package/nul\u0000hidden.txt'],
    ['DEL', 'package/del\u007f.txt'],
  ])('security.md: a file name with %s is E_ARCHIVE_UNSAFE', async (_what, name) => {
    await expectRejected([file(name)], 'E_ARCHIVE_UNSAFE');
  });

  it('security.md: a NUL inside a PAX path or a GNU long name is E_ARCHIVE_UNSAFE', async () => {
    await expectRejected(
      [paxEntry({ path: 'package/a\u0000b.txt' }), file('package/a')],
      'E_ARCHIVE_UNSAFE',
    );
    await expectRejected(
      [
        { name: '././@LongLink', type: 'L', data: 'package/a\u0000../../b\u0000' },
        file('package/a'),
      ],
      'E_ARCHIVE_UNSAFE',
    );
  });

  it('security.md: an entry without the package/ prefix is E_ARCHIVE_UNSAFE', async () => {
    await expectRejected([file('plugin.json', '{}')], 'E_ARCHIVE_UNSAFE');
    await expectRejected([file('Package/plugin.json', '{}')], 'E_ARCHIVE_UNSAFE');
  });

  it('A1: a global PAX header that sets a path is E_ARCHIVE_UNSAFE', async () => {
    await expectRejected(
      [paxEntry({ path: 'package/global' }, 'g'), file('package/x')],
      'E_ARCHIVE_UNSAFE',
    );
  });

  it('A1: a directory entry that carries data is E_ARCHIVE_UNSAFE', async () => {
    await expectRejected([{ name: 'package/dir/', type: '5', data: 'hidden' }], 'E_ARCHIVE_UNSAFE');
  });

  it('A2: a PAX size is honoured, so a header hidden in file data is checked like any other', async () => {
    const hidden = tarHeader({ name: 'package/../../smuggled.txt' });
    await expectRejected(
      [paxEntry({ size: '0' }), { name: 'package/cover.txt', data: hidden }],
      'E_ARCHIVE_UNSAFE',
    );
  });

  it('A3: extraction into a staging directory that is not empty is refused before reading', async () => {
    const box = await sandbox();
    await writeTgz(box.tarball, [file('package/plugin.json', '{}')]);
    const listing = await scanTarball(box.tarball);
    await writeFile(join(box.staging, 'stray'), 'x');
    await expect(extractTarball(box.tarball, box.staging, listing)).rejects.toThrow(
      /Assertion failed/,
    );
    expect(await readdir(box.staging)).toEqual(['stray']);
  });

  it('security.md: a truncated tarball is E_ARCHIVE_CORRUPT', async () => {
    const whole = gzipSync(tarOf([file('package/plugin.json', 'x'.repeat(5000))]));
    await expectRejected(
      (tarball) => writeFile(tarball, whole.subarray(0, Math.floor(whole.length / 2))),
      'E_ARCHIVE_CORRUPT',
    );
  });

  it('security.md: random bytes are E_ARCHIVE_CORRUPT', async () => {
    await expectRejected((tarball) => writeFile(tarball, randomBytes(4096)), 'E_ARCHIVE_CORRUPT');
  });

  it.each([
    [
      'a tar cut inside an entry',
      () => tarOf([file('package/a', 'x'.repeat(3000))]).subarray(0, 1024),
    ],
    ['a tar without its end marker', () => tarEntry(file('package/a'))],
    [
      'a bad header checksum',
      () => Buffer.concat([Buffer.from('corrupted'), tarOf([file('package/a')]).subarray(9)]),
    ],
    ['random bytes inside valid gzip', () => randomBytes(4096)],
    [
      'data after the end marker',
      () => Buffer.concat([tarOf([file('package/a')]), Buffer.from('smuggled')]),
    ],
    [
      'a lone zero block between entries',
      () =>
        Buffer.concat([tarEntry(file('package/a')), Buffer.alloc(512), tarOf([file('package/b')])]),
    ],
  ])('A3: %s is E_ARCHIVE_CORRUPT', async (_what, make) => {
    await expectRejected(make(), 'E_ARCHIVE_CORRUPT');
  });
});
