// The agent cache's contracts (agent-cache.ts), with a small real package from the npm registry
// (semver, one of hookpm's own dependencies, so usually in npm's cache already) in a private
// XDG_CACHE_HOME.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  agentCacheDir,
  agentCacheRoot,
  installCachedPackage,
  packageDirIn,
} from './agent-cache.js';

const NAME = 'semver';
const VERSION = '7.8.6';
const saved = process.env.XDG_CACHE_HOME;
let cache: string;
const made: string[] = [];

beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), 'hookpm-agent-cache-'));
  made.push(cache);
  process.env.XDG_CACHE_HOME = cache;
});
afterAll(() => {
  if (saved === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved;
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function marker(dir: string): { installedAt: string } {
  return JSON.parse(readFileSync(join(dir, '.hookpm-agent-cache.json'), 'utf8')) as {
    installedAt: string;
  };
}

describe('agent cache', () => {
  it('lives under $XDG_CACHE_HOME/hookpm-dev/agents, a scoped name with + for /', () => {
    expect(agentCacheRoot()).toBe(join(cache, 'hookpm-dev', 'agents'));
    expect(agentCacheDir('@scope/pkg', '1.2.3')).toBe(
      join(cache, 'hookpm-dev', 'agents', '@scope+pkg@1.2.3'),
    );
  });

  it('installs once for concurrent callers, leaving no lock or scratch directory', async () => {
    const dirs = await Promise.all([1, 2, 3].map(() => installCachedPackage(NAME, VERSION)));
    const dir = agentCacheDir(NAME, VERSION);
    expect(dirs).toEqual([dir, dir, dir]);
    const pkg = JSON.parse(readFileSync(join(packageDirIn(dir, NAME), 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(pkg.version).toBe(VERSION);
    expect(readdirSync(agentCacheRoot())).toEqual([`${NAME}@${VERSION}`]);
    const first = marker(dir).installedAt;
    expect(await installCachedPackage(NAME, VERSION)).toBe(dir);
    expect(marker(dir).installedAt).toBe(first);
  }, 120_000);

  it('ignores what a killed install left (scratch, dead lock, unmarked directory) and replaces it', async () => {
    const dir = agentCacheDir(NAME, VERSION);
    mkdirSync(join(`${dir}.tmp-1-dead`, 'node_modules'), { recursive: true });
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    mkdirSync(`${dir}.lock`);
    writeFileSync(join(`${dir}.lock`, 'pid'), String(dead));
    expect(await installCachedPackage(NAME, VERSION)).toBe(dir);
    expect(existsSync(join(packageDirIn(dir, NAME), 'package.json'))).toBe(true);
    expect(readdirSync(agentCacheRoot())).toEqual([`${NAME}@${VERSION}`]);
  }, 120_000);

  it('rejects with npm’s error for a version that does not exist, caching nothing', async () => {
    await expect(installCachedPackage(NAME, '0.0.0-no-such-version')).rejects.toThrow(
      /npm install/,
    );
    expect(readdirSync(agentCacheRoot())).toEqual([]);
  }, 120_000);
});
