import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installClaudeCode } from '../agents/claude-code.js';
import { ensureBuilt } from '../helpers/built-bin.js';
import { askClaude } from './compare-claude.js';
import { compareFacts, formatChecks, type Check, type SideFacts } from './compare-facts.js';
import { askHookpm } from './compare-hookpm.js';
import { buildCompareWorld, type WorldMarketplace } from './compare-world.js';
import { REPO } from './corpus-plugins.js';
import { DIFFERENCES } from './claude-differences.js';

/**
 * The corpus side by side with Claude Code (plugins.md G11): every marketplace of
 * ../shared/corpus as a local directory marketplace, and every plugin folder in its catalog
 * (compare-world.ts), asked of hookpm (compare-hookpm.ts) and of the real Claude Code 2.1.332
 * (compare-claude.ts). What a check is: compare-facts.ts. Claude Code's answers are recorded in
 * claude-code-facts.json: asking it takes minutes (a `marketplace add`, an `install` and a
 * `details` per plugin, and a few turns), so the recording is checked against the real binary
 * only with HOOKPM_COMPARE_CLAUDE=1 (installed into the agent cache on first use); with
 * HOOKPM_COMPARE_RECORD=1 as well, the recording is rewritten.
 */
const RECORDED = join(REPO, 'test/corpus/claude-code-facts.json');

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

describe('the corpus side by side with Claude Code 2.1.332 (plugins.md G11)', () => {
  it('G11: at least 305 of 310 checks agree, and every difference is a documented one', () => {
    const claude = JSON.parse(readFileSync(RECORDED, 'utf8')) as SideFacts;
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

  it('G11: the world holds every plugin folder of the corpus, each in one catalog', () => {
    const placed = world.flatMap((m) => Object.values(m.plugins));
    expect(new Set(placed).size).toBe(placed.length);
    expect(Object.keys(hookpm.plugins).sort()).toEqual([...placed].sort());
  });
});

describe.runIf(process.env.HOOKPM_COMPARE_CLAUDE === '1')(
  'Claude Code 2.1.332 asked again (HOOKPM_COMPARE_CLAUDE=1)',
  () => {
    it('G11: the real Claude Code answers what claude-code-facts.json records', async () => {
      const home = join(scratch, 'claude-home');
      const facts = await askClaude({
        binary: await installClaudeCode(),
        home,
        cwd: scratch,
        world,
      });
      if (process.env.HOOKPM_COMPARE_RECORD === '1') {
        writeFileSync(RECORDED, `${JSON.stringify(facts, null, 2)}\n`);
      }
      expect(facts).toEqual(JSON.parse(readFileSync(RECORDED, 'utf8')));
    }, 900_000);
  },
);
