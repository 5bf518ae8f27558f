/**
 * `installedAt` and `updatedAt` in `hookpm list` and `hookpm info`. A state file written before
 * `updatedAt` existed still loads, on the fast path and through the schema, and reports its
 * installedAt as updatedAt; one with `updatedAt` reports it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listPlugins } from '../../src/ops/plugins/list.js';
import { installedOf } from '../../src/ops/plugins/plugin-info.js';
import { homeStorePaths, stateFile } from '../../src/store/home-paths.js';
import { readQuickState } from '../../src/store/state/quick-state.js';
import { readState } from '../../src/store/state/state.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import { makePlugin, makeState } from '../helpers/state-records.js';

let dir: string;
let paths: StorePaths;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookpm-list-times-'));
  paths = homeStorePaths(dir);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeStateText(text: string): Promise<void> {
  await mkdir(join(stateFile(paths), '..'), { recursive: true });
  await writeFile(stateFile(paths), text);
}

describe('install and update times', () => {
  it('an older state without updatedAt loads on both paths, and list shows installedAt as updatedAt', async () => {
    const old = makePlugin('guard@examples');
    expect('updatedAt' in old).toBe(false);
    const text = JSON.stringify(makeState([old]));
    await writeStateText(text);
    expect(readQuickState(text)).not.toBeNull();
    expect((await readState(paths)).plugins['guard@examples']?.updatedAt).toBeUndefined();
    const { plugins } = await listPlugins(paths);
    expect(plugins[0]).toMatchObject({
      installedAt: '2026-11-30T00:00:00.000Z',
      updatedAt: '2026-11-30T00:00:00.000Z',
    });
    expect(installedOf(old).updatedAt).toBe('2026-11-30T00:00:00.000Z');
  });

  it('a recorded updatedAt is reported by list and info; a non-string one is refused by both readers', async () => {
    const updated = makePlugin('guard@examples', { updatedAt: '2026-12-01T10:00:00.000Z' });
    await writeStateText(JSON.stringify(makeState([updated])));
    const { plugins } = await listPlugins(paths);
    expect(plugins[0]?.updatedAt).toBe('2026-12-01T10:00:00.000Z');
    expect(plugins[0]?.installedAt).toBe('2026-11-30T00:00:00.000Z');
    expect(installedOf(updated).updatedAt).toBe('2026-12-01T10:00:00.000Z');
    const bad = JSON.stringify(makeState([{ ...updated, updatedAt: 5 as unknown as string }]));
    expect(readQuickState(bad)).toBeNull();
    await writeStateText(bad);
    await expect(readState(paths)).rejects.toMatchObject({ code: 'E_STATE_CORRUPT' });
  });
});
