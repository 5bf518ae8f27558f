/**
 * docs/reference/errors.md, E_PROJECT_FILE and E_LOCK_MISMATCH, with the built binary: what a
 * project's files hold, however large, reaches stderr cut short. A value is quoted up to 60
 * characters (describeValue), and `ci` names the first MISMATCHES_SHOWN differences and counts the
 * rest, so the error stays a few lines for a 5 MB range or a lock of 40,000 plugins.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MISMATCHES_SHOWN } from '../../src/project/lock-agreement.js';
import { MAX_PROJECT_REGISTRIES, MAX_RANGE_LENGTH } from '../../src/project/project-manifest.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { hashStore } from '../helpers/store-snapshot.js';

const ws = useBinWorkspace('e2e-project-messages');

const hookpm = (...args: string[]) => ws.hookpm(args);

const entry = {
  version: '1.0.0',
  resolved: 'tarballs/p-1.0.0.tgz',
  integrity: 'sha512-AAAA',
  surfaceHash: 'abc',
  fingerprint: 'sha256-BBBB',
};

describe('errors.md: errors about project files stay short whatever the files hold', () => {
  it('E_PROJECT_FILE: a 5 MB range in hookpm.json is quoted cut short, stderr under 1 KB', async () => {
    const range = `1.${'0'.repeat(5_000_000)}`;
    await writeFile(
      join(ws.repo, 'hookpm.json'),
      JSON.stringify({ plugins: { 'guard@examples': range }, registries: {} }),
    );
    const run = await hookpm('install', '--yes');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `error[E_PROJECT_FILE]: ${join(ws.repo, 'hookpm.json')}: plugins.guard@examples: "1.${'0'.repeat(58)}..." is not a version range or dist-tag`,
    );
    expect(Buffer.byteLength(run.stderr)).toBeLessThan(1024);
  });

  it(`E_USAGE: install --project with a range longer than ${MAX_RANGE_LENGTH} characters writes nothing (hookpm.json could not hold it)`, async () => {
    const range = `${'^1.0.0 || '.repeat(MAX_RANGE_LENGTH / 10)}^1.0.0`;
    const before = await hashStore(resolveStorePaths({ HOOKPM_HOME: join(ws.home, 'hookpm') }));
    const run = await hookpm('install', '--project', `guard@examples@${range}`, '--yes');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error[E_USAGE]: guard@examples@^1.0.0 || ^1.0.0');
    expect(run.stderr).toContain(`at most ${MAX_RANGE_LENGTH} characters`);
    expect(Buffer.byteLength(run.stderr)).toBeLessThan(1024);
    await expect(readFile(join(ws.repo, 'hookpm.json'))).rejects.toThrow(/ENOENT/);
    await expect(readFile(join(ws.repo, 'hookpm.lock'))).rejects.toThrow(/ENOENT/);
    expect(await hashStore(resolveStorePaths({ HOOKPM_HOME: join(ws.home, 'hookpm') }))).toEqual(
      before,
    );
  });

  it('E_LOCK_MISMATCH: ci with a lock of 40,000 plugins hookpm.json does not name lists the first ones and counts the rest, stderr under 2 KB', async () => {
    const plugins = Object.fromEntries(
      Array.from({ length: 40_000 }, (_, i) => [`p${i}@examples`, entry]),
    );
    await writeFile(join(ws.repo, 'hookpm.json'), JSON.stringify({ plugins: {}, registries: {} }));
    await writeFile(join(ws.repo, 'hookpm.lock'), JSON.stringify({ lockfileVersion: 1, plugins }));
    const run = await hookpm('ci', '--yes');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'error[E_LOCK_MISMATCH]: hookpm.json and hookpm.lock disagree on 40000 plugin(s): p0@examples "1.0.0" is in hookpm.lock but not in hookpm.json; ',
    );
    expect(run.stderr).toContain(`; and ${40_000 - MISMATCHES_SHOWN} more\n`);
    expect(run.stderr.match(/is in hookpm\.lock but not in hookpm\.json/g)).toHaveLength(
      MISMATCHES_SHOWN,
    );
    expect(Buffer.byteLength(run.stderr)).toBeLessThan(2048);
  });

  it("J3: a hookpm.json registry with no index.json is E_NOT_FOUND naming that file, never called a built-in registry hookpm's package lacks", async () => {
    await mkdir(join(ws.repo, 'vendor', 'foo'), { recursive: true });
    await writeFile(
      join(ws.repo, 'hookpm.json'),
      JSON.stringify({ plugins: { 'guard@foo': '^1.0.0' }, registries: { foo: 'vendor/foo' } }),
    );
    const run = await hookpm('install', '--yes');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error[E_NOT_FOUND]');
    expect(run.stderr).toContain(join(ws.repo, 'vendor', 'foo', 'index.json'));
    expect(run.stderr).not.toContain('built-in');
    expect(run.stderr).not.toContain('registry remove');
  });

  it('E_PROJECT_FILE: a hookpm.json that is not UTF-8 is refused, never rewritten with its bytes replaced', async () => {
    const manifest = Buffer.concat([
      Buffer.from('{"plugins":{},"registries":{"other":"https://r.example/'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('/index.json"}}\n'),
    ]);
    await writeFile(join(ws.repo, 'hookpm.json'), manifest);
    const store = await hashStore(resolveStorePaths(ws.env()));
    const run = await hookpm('install', '--project', 'guard@examples', '--yes');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `error[E_PROJECT_FILE]: ${join(ws.repo, 'hookpm.json')}: the file is not valid UTF-8`,
    );
    expect(await readFile(join(ws.repo, 'hookpm.json'))).toEqual(manifest);
    expect(await hashStore(resolveStorePaths(ws.env()))).toEqual(store);
  });

  it.each(['version', 'resolved', 'integrity', 'surfaceHash', 'fingerprint'])(
    'E_PROJECT_FILE: a 200 KB %s in hookpm.lock is refused when the lock is read, stderr under 1 KB',
    async (key) => {
      const locked = { ...entry, version: '1.3.0', integrity: `sha512-${'A'.repeat(86)}==` };
      const big = {
        ...locked,
        [key]: `${locked[key as keyof typeof locked]}${'9'.repeat(200_000)}`,
      };
      await writeFile(
        join(ws.repo, 'hookpm.json'),
        JSON.stringify({ plugins: { 'guard@examples': 'latest' }, registries: {} }),
      );
      await writeFile(
        join(ws.repo, 'hookpm.lock'),
        JSON.stringify({ lockfileVersion: 1, plugins: { 'guard@examples': big } }),
      );
      const run = await hookpm('ci', '--yes');
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `error[E_PROJECT_FILE]: ${join(ws.repo, 'hookpm.lock')}: plugins.guard@examples.${key}`,
      );
      expect(Buffer.byteLength(run.stderr)).toBeLessThan(1024);
    },
  );

  it('E_PROJECT_FILE: hookpm.json listing 200,000 registries on disk is refused before any is checked (J3), the file untouched', async () => {
    const registries = Object.fromEntries(
      Array.from({ length: 200_000 }, (_, i) => [`r${i}`, `./registries/r${i}`]),
    );
    const text = JSON.stringify({ plugins: { 'p@r0': '^1.0.0' }, registries });
    await writeFile(join(ws.repo, 'hookpm.json'), text);
    const run = await hookpm('list', '--project');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `error[E_PROJECT_FILE]: ${join(ws.repo, 'hookpm.json')}: registries: 200000 registries listed, more than the ${MAX_PROJECT_REGISTRIES} a project may name`,
    );
    expect(Buffer.byteLength(run.stderr)).toBeLessThan(1024);
    expect(await readFile(join(ws.repo, 'hookpm.json'), 'utf8')).toBe(text);
  });

  it(`J3: hookpm.json listing ${MAX_PROJECT_REGISTRIES} registries is read`, async () => {
    const registries = Object.fromEntries(
      Array.from({ length: MAX_PROJECT_REGISTRIES }, (_, i) => [`r${i}`, `./registries/r${i}`]),
    );
    await writeFile(join(ws.repo, 'hookpm.json'), JSON.stringify({ plugins: {}, registries }));
    const run = await hookpm('list', '--project');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('E_PROJECT_FILE: a 200 KB registry location in hookpm.json is refused when it is read, stderr under 1 KB', async () => {
    const location = `https://r.example/${'x'.repeat(200_000)}`;
    await writeFile(
      join(ws.repo, 'hookpm.json'),
      JSON.stringify({ plugins: { 'p@foo': '^1.0.0' }, registries: { foo: location } }),
    );
    const run = await hookpm('install', '--yes', '--offline');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `error[E_PROJECT_FILE]: ${join(ws.repo, 'hookpm.json')}: registries.foo: the location is longer than 2048 characters`,
    );
    expect(Buffer.byteLength(run.stderr)).toBeLessThan(1024);
  });
});
