/**
 * registry.md "Registry kinds" (a marketplace) with security.md (never read a FIFO or a device as a
 * file): an entry whose `./` source is a regular file or a FIFO is left out naming the entry, not
 * a crash of `registry add`; the FIFO is never opened, and `install` of the entry is
 * E_REGISTRY_SCHEMA with the store byte-identical. Real directories and a FIFO, the built CLI.
 */
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { localMarketplace, refusedInstall } from '../helpers/local-marketplace.js';

let root: string;
let market: string;
let env: Record<string, string>;

beforeAll(async () => {
  ensureBuilt();
  const plugins = [
    { name: 'good', source: './plugins/good' },
    { name: 'file', source: './plugins/file' },
    { name: 'fifo', source: './plugins/fifo' },
  ];
  ({ root, market, env } = await localMarketplace('hookpm-mkt-notdir-', plugins, {
    'plugins/good/plugin.json': JSON.stringify({ name: 'good', version: '1.0.0' }),
    'plugins/file': '{"name":"file"}\n',
  }));
  execFileSync('mkfifo', [join(market, 'plugins', 'fifo')]);
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('a marketplace entry whose source is not a directory', () => {
  it('1: `registry add` keeps the valid entry and warns of the file and the FIFO', async () => {
    const added = await runBin(['registry', 'add', 'mkt', market], { env, cwd: root });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('1 plugin(s)');
    for (const name of ['file', 'fifo'])
      expect(added.stderr).toContain(`(${name}): the plugin directory`);
    expect(added.stderr).toContain('is not a directory');
  });

  it.each(['file', 'fifo'])(
    '1: `install %s` is E_REGISTRY_SCHEMA naming the entry; the store is byte-identical',
    async (name) => {
      const run = await refusedInstall({ root, env }, name);
      expect(run.stderr).toContain(`error[E_REGISTRY_SCHEMA]: ${name}@mkt`);
      expect(run.stderr).toContain('is not a directory');
    },
  );
});
