/**
 * K4 for `.npmrc` files a cloned project may hold: one that is not a regular file once its
 * symlinks are followed, or that holds more than 1 MiB (counted as read, whatever size it claims),
 * is an empty layer, read quickly and without holding its bytes, and so is one whose `${VAR}`
 * substitutions bring in over 1 MiB; the user's own file still counts.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readNpmConfig } from '../../src/registry/npm/read-npmrc.js';
import { failure } from '../helpers/failure.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('npmrc-special');

/** A home whose ~/.npmrc sets `registry`, and a project whose `.npmrc` `make` creates. */
async function projectWith(make: (file: string) => Promise<void>): Promise<{
  home: string;
  project: string;
}> {
  const root = join(tmp.dir, Math.random().toString(36).slice(2));
  const home = join(root, 'home');
  const project = join(root, 'project');
  await mkdir(home, { recursive: true });
  await mkdir(project, { recursive: true });
  await writeFile(join(home, '.npmrc'), 'registry=https://user.example.test/\n');
  await writeFile(join(project, 'package.json'), '{}');
  await make(join(project, '.npmrc'));
  return { home, project };
}

async function projectLayer(make: (file: string) => Promise<void>): Promise<unknown> {
  const { home, project } = await projectWith(make);
  const config = await readNpmConfig({ env: { HOME: home }, cwd: project });
  expect(config.get('registry')).toBe('https://user.example.test/');
  return config.layers.find((layer) => layer.source === 'project')?.values;
}

describe('special project .npmrc files (registry.md K4)', () => {
  it('K4: a FIFO, a directory, /dev/zero and a file over 1 MiB are empty layers', async () => {
    const makers: Array<(file: string) => Promise<void>> = [
      async (file) => {
        execFileSync('mkfifo', [file]);
      },
      (file) => mkdir(file).then(() => undefined),
      (file) => symlink('/dev/zero', file),
      (file) => writeFile(file, `registry=https://big.example.test/\n${'#'.repeat(1024 * 1024)}\n`),
    ];
    for (const make of makers) expect(await projectLayer(make)).toEqual({});
  });

  it('K4: a file whose ${VAR} substitutions bring in over 1 MiB is an empty layer', async () => {
    const big = 'x'.repeat(64 * 1024);
    const line = (n: number): string => `k${n}=${'${BIG}'.repeat(8)}\n`;
    const text = Array.from({ length: 4 }, (_, n) => line(n)).join('');
    const { home, project } = await projectWith((file) => writeFile(file, text));
    const config = await readNpmConfig({ env: { HOME: home, BIG: big }, cwd: project });
    expect(config.layers.find((layer) => layer.source === 'project')?.values).toEqual({});
    expect(config.get('registry')).toBe('https://user.example.test/');
    const within = await projectWith((file) => writeFile(file, line(0)));
    const small = await readNpmConfig({
      env: { HOME: within.home, BIG: big },
      cwd: within.project,
    });
    expect(small.get('k0')).toBe(big.repeat(8));
  });

  it('K4: npm_config_* variables whose ${VAR} substitutions bring in over 1 MiB are E_CONFIG naming the variable, never dropped in silence', async () => {
    const { home, project } = await projectWith(async () => undefined);
    const big = 'x'.repeat(64 * 1024);
    const env = {
      HOME: home,
      BIG: big,
      npm_config_registry: 'https://env.example.test/',
      'npm_config_//env.example.test/:_authToken': '${BIG}'.repeat(17),
    };
    const error = await failure(readNpmConfig({ env, cwd: project }));
    expect(error.code).toBe('E_CONFIG');
    expect(error.message).toContain('npm_config_//env.example.test/:_authToken');
    expect(error.message).toContain('1 MiB');
    expect(error.message).not.toContain('xxxx');
    expect(error.hint).toMatch(/npm_config_/);
    // Within the budget, the variables are read.
    env['npm_config_//env.example.test/:_authToken'] = '${BIG}'.repeat(15);
    const within = await readNpmConfig({ env, cwd: project });
    expect(within.get('registry')).toBe('https://env.example.test/');
  });

  it('K4: a symlink to a /proc file (it claims 0 bytes) is cut at 1 MiB, not read whole', async () => {
    // Read whole, /proc/self/pagemap is hundreds of megabytes (620 MB of RSS, seconds).
    const before = process.memoryUsage().rss;
    const started = Date.now();
    expect(await projectLayer((file) => symlink('/proc/self/pagemap', file))).toEqual({});
    expect(Date.now() - started).toBeLessThan(2000);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });
});
