import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built-bin.js';
import { CLAUDE_FACTS_FILE } from './compare-claude.js';
import { compareFacts, formatChecks, type Check, type SideFacts } from './compare-facts.js';
import { askHookpm } from './compare-hookpm.js';
import { buildCompareWorld, type WorldMarketplace } from './compare-world.js';
import { DIFFERENCES } from './claude-differences.js';

/**
 * The corpus side by side with Claude Code (plugins.md G12): every marketplace of
 * ../shared/corpus as a local directory marketplace, and every plugin folder in its catalog
 * (compare-world.ts), asked of hookpm (compare-hookpm.ts) and of the real Claude Code 2.1.332
 * (compare-claude.ts). What a check is: compare-facts.ts. Claude Code's answers are recorded in
 * claude-code-facts.json: asking it takes minutes (a `marketplace add`, an `install` and a
 * `details` per plugin, and a few turns), so the recording is checked against the real binary by
 * `npm run test:claude-compare` (claude-compare.live.ts), not on every test run.
 */
/** The bar: at least 305 of 310 checks agree. */
const AGREED_AT_LEAST = 305 / 310;

let scratch: string;
let world: WorldMarketplace[];
let hookpm: SideFacts;

beforeAll(async () => {
  ensureBuilt();
  scratch = await mkdtemp(join(tmpdir(), 'hookpm-compare-'));
  world = await buildCompareWorld(join(scratch, 'world'));
  const home = join(scratch, 'hookpm-home');
  const env = { PATH: process.env.PATH ?? '', HOME: home, HOOKPM_HOME: join(home, 'hookpm') };
  hookpm = await askHookpm(world, env, scratch);
}, 400_000);

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function key(check: Check): string {
  return `${check.subject} | ${check.fact}`;
}

describe('the corpus side by side with Claude Code 2.1.332 (plugins.md G12)', () => {
  it('G12: at least 305 of 310 checks agree, and every difference is a documented one', () => {
    const claude = JSON.parse(readFileSync(CLAUDE_FACTS_FILE, 'utf8')) as SideFacts;
    const checks = compareFacts(claude, hookpm);
    const agreed = checks.filter((c) => c.claude === c.hookpm);
    console.log(
      `${formatChecks(checks)}\n${agreed.length} of ${checks.length} checks agree ` +
        `(${world.length} catalogs, ${Object.keys(hookpm.plugins).length} plugins)`,
    );
    const differences = checks.filter((c) => c.claude !== c.hookpm).map(key);
    expect(differences.sort()).toEqual(Object.keys(DIFFERENCES).sort());
    expect(agreed.length / checks.length).toBeGreaterThanOrEqual(AGREED_AT_LEAST);
  });

  it('G12: the world holds every plugin folder of the corpus, each in one catalog', () => {
    const placed = world.flatMap((m) => Object.values(m.plugins));
    expect(new Set(placed).size).toBe(placed.length);
    expect(Object.keys(hookpm.plugins).sort()).toEqual([...placed].sort());
  });
});
