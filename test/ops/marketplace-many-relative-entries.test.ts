/**
 * registry.md "Registry kinds" (a marketplace) with security.md (bad input gets a clear answer,
 * never a hang): a catalog naming one plugin directory for more entries than MAX_STAGED_ENTRIES
 * (20,000 of them took minutes, each staged in turn) is read in bounded time. The first relative
 * entries are staged as install stages them; the rest are listed as a remote source's entries are,
 * with one warning, and are staged when installed. Real directories and staging; the bound is
 * lowered to 3 here so that the test stages a handful of trees, not a thousand.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stageMarketplacePlugin } from '../../src/ops/steps/catalogs/fetch-marketplace.js';
import {
  buildMarketplaceIndex,
  UNKNOWN_VERSION,
} from '../../src/ops/steps/catalogs/marketplace-index.js';
import {
  readMarketplace,
  type ReadMarketplace,
} from '../../src/ops/steps/catalogs/read-marketplace.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import { marketplaceCatalog } from '../helpers/claude-plugin.js';
import { writeFiles } from '../helpers/git-repo.js';

const HOOKS = { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] } };
const BOUND = 3;
const COUNT = BOUND + 2;

let root: string;
let read: ReadMarketplace;
const ctx = () => ({
  paths: resolveStorePaths({ HOOKPM_HOME: join(root, 'home') }),
  env: {},
  cwd: root,
});

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hookpm-mkt-relative-'));
  const plugins = Array.from({ length: COUNT }, (_, i) => ({ name: `p-${i}`, source: './p' }));
  const market = join(root, 'market');
  await writeFiles(market, {
    '.claude-plugin/marketplace.json': JSON.stringify(marketplaceCatalog('Market', plugins)),
    'p/hooks/hooks.json': JSON.stringify(HOOKS),
  });
  read = await readMarketplace(market, { cwd: root, env: {}, paths: ctx().paths });
});
afterAll(async () => {
  await read.dispose();
  await rm(root, { recursive: true, force: true });
});

describe('a marketplace naming one directory for more entries than are staged', () => {
  it('the first entries are staged, the rest listed unread with one warning; an unread entry stages at install', async () => {
    const { index, excluded } = await buildMarketplaceIndex(read, ctx(), BOUND);
    const listed = Object.entries(index.plugins).map(([name, p]) => {
      const version = p.distTags['latest']!;
      return [name, version === UNKNOWN_VERSION ? 'unread' : p.versions[version]!.events];
    });
    expect(listed).toEqual([
      ['p-0', ['PreToolUse']],
      ['p-1', ['PreToolUse']],
      ['p-2', ['PreToolUse']],
      ['p-3', 'unread'],
      ['p-4', 'unread'],
    ]);
    expect(excluded).toEqual([
      {
        name: null,
        message: expect.stringContaining(
          `2 entries with relative sources past the first ${BOUND} are listed without being read`,
        ),
      },
    ]);
    const staged = await stageMarketplacePlugin(read, read.marketplace.plugins[4]!, ctx());
    try {
      expect(staged).toMatchObject({ name: 'p-4', version: expect.stringMatching(/^0\.0\.0-t/) });
    } finally {
      await rm(staged.dir, { recursive: true, force: true });
    }
  });
});
