/**
 * D5 end to end: with --offline an npm source makes no request at all (the fake npm registry on
 * 127.0.0.1 counts them) and fails with E_OFFLINE, whose message names --offline; the store is
 * left as it was.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin, type BinRun } from '../helpers/built-bin.js';
import {
  QUIET_PACKAGE,
  startFakeNpmRegistry,
  type FakeNpmRegistry,
} from '../helpers/fake-npm-registry.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

let npm: FakeNpmRegistry;
let home: TempHome;

beforeAll(async () => {
  ensureBuilt();
  npm = await startFakeNpmRegistry({ 'hookpm-plugin-quiet': QUIET_PACKAGE });
});
afterAll(() => npm.close());
beforeEach(async () => {
  home = await makeTempHome('hookpm-offline-npm-');
});
afterEach(() => home.cleanup());

function hookpm(...args: string[]): Promise<BinRun> {
  return runBin(args, { env: { ...home.env, HOOKPM_NPM_REGISTRY: npm.url }, cwd: home.dir });
}

const paths = () => resolveStorePaths({ HOOKPM_HOME: home.env.HOOKPM_HOME });

function errorOf(run: BinRun): { code: string; message: string } {
  return (JSON.parse(run.stdout) as { error: { code: string; message: string } }).error;
}

describe('D5: --offline never reaches an npm registry', () => {
  it('D5: `install npm:<pkg> --offline` makes no request and is E_OFFLINE naming --offline', async () => {
    const before = npm.requests.length;
    const run = await hookpm('install', 'npm:hookpm-plugin-quiet', '--offline', '--yes', '--json');
    expect(run.code).toBe(1);
    expect(errorOf(run).code).toBe('E_OFFLINE');
    expect(errorOf(run).message).toMatch(/^--offline: .*hookpm-plugin-quiet/);
    expect(npm.requests.length - before).toBe(0);
    const text = await hookpm('install', 'npm:hookpm-plugin-quiet', '--offline', '--yes');
    expect(text.stderr).toMatch(/^hookpm: error\[E_OFFLINE\]: --offline: /);
    expect(npm.requests.length - before).toBe(0);
  });

  it('D5: offline after an online install of the same package still requests nothing and changes nothing', async () => {
    const online = await hookpm('install', 'npm:hookpm-plugin-quiet', '--yes');
    expect(online.code, online.stderr).toBe(0);
    const store = await hashStore(paths());
    expect(Object.keys(store).length).toBeGreaterThan(0);
    const before = npm.requests.length;
    const run = await hookpm('install', 'npm:hookpm-plugin-quiet', '--offline', '--yes', '--json');
    expect(errorOf(run).code).toBe('E_OFFLINE');
    const review = await hookpm('review', 'npm:hookpm-plugin-quiet', '--offline', '--json');
    expect(errorOf(review).code).toBe('E_OFFLINE');
    expect(npm.requests.length - before).toBe(0);
    expect(await hashStore(paths())).toEqual(store);
  });
});
