import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installClaudeCode } from '../agents/claude-code.js';
import { askClaude, CLAUDE_FACTS_FILE } from './compare-claude.js';
import { buildCompareWorld, type WorldMarketplace } from './compare-world.js';

/**
 * Claude Code's half of the corpus comparison (plugins.md G12), asked of the real Claude Code
 * 2.1.332 (installed into the agent cache on first use): `npm run test:claude-compare`. It takes
 * minutes, so it is not part of `npm test`, which compares hookpm with the recorded answers
 * (claude-compare.test.ts). With HOOKPM_COMPARE_RECORD=1 the recording is rewritten; without it,
 * the test fails when Claude Code's answers differ from the recording.
 */
let scratch: string;
let world: WorldMarketplace[];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'hookpm-compare-live-'));
  world = await buildCompareWorld(join(scratch, 'world'));
}, 120_000);

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('Claude Code 2.1.332 asked about the corpus (plugins.md G12)', () => {
  it('G12: the real Claude Code answers what claude-code-facts.json records', async () => {
    const facts = await askClaude({
      binary: await installClaudeCode(),
      home: join(scratch, 'claude-home'),
      cwd: scratch,
      world,
    });
    if (process.env.HOOKPM_COMPARE_RECORD === '1')
      writeFileSync(CLAUDE_FACTS_FILE, `${JSON.stringify(facts, null, 2)}\n`);
    expect(facts).toEqual(JSON.parse(readFileSync(CLAUDE_FACTS_FILE, 'utf8')));
  }, 1_800_000);
});
