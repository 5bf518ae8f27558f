/**
 * D5 end to end: with --offline an npm source makes no request at all (the fake npm registry on
 * 127.0.0.1 counts them) and fails with E_OFFLINE, whose message names --offline; the store is
 * left as it was.
 */
import { describe, expect, it } from 'vitest';
import { useQuietNpm } from '../helpers/quiet-npm.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import { hashStore } from '../helpers/store-snapshot.js';

const world = useQuietNpm('hookpm-offline-npm-');

const { hookpm } = world;

const paths = () => resolveStorePaths({ HOOKPM_HOME: world.home.env.HOOKPM_HOME });

function errorOf(run: BinRun): { code: string; message: string } {
  return (JSON.parse(run.stdout) as { error: { code: string; message: string } }).error;
}

describe('D5: --offline never reaches an npm registry', () => {
  it('D5: `install npm:<pkg> --offline` makes no request and is E_OFFLINE naming --offline', async () => {
    const before = world.npm.requests.length;
    const run = await hookpm('install', 'npm:hookpm-plugin-quiet', '--offline', '--yes', '--json');
    expect(run.code).toBe(1);
    expect(errorOf(run).code).toBe('E_OFFLINE');
    expect(errorOf(run).message).toMatch(/^--offline: .*hookpm-plugin-quiet/);
    expect(world.npm.requests.length - before).toBe(0);
    const text = await hookpm('install', 'npm:hookpm-plugin-quiet', '--offline', '--yes');
    expect(text.stderr).toMatch(/^hookpm: error\[E_OFFLINE\]: --offline: /);
    expect(world.npm.requests.length - before).toBe(0);
  });

  it('D5: offline after an online install of the same package still requests nothing and changes nothing', async () => {
    const online = await hookpm('install', 'npm:hookpm-plugin-quiet', '--yes');
    expect(online.code, online.stderr).toBe(0);
    const store = await hashStore(paths());
    expect(Object.keys(store).length).toBeGreaterThan(0);
    const before = world.npm.requests.length;
    const run = await hookpm('install', 'npm:hookpm-plugin-quiet', '--offline', '--yes', '--json');
    expect(errorOf(run).code).toBe('E_OFFLINE');
    const review = await hookpm('review', 'npm:hookpm-plugin-quiet', '--offline', '--json');
    expect(errorOf(review).code).toBe('E_OFFLINE');
    expect(world.npm.requests.length - before).toBe(0);
    expect(await hashStore(paths())).toEqual(store);
  });
});
