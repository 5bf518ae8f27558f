// docs/reference/rules/policy.md#a13 inside a real Claude Code (installed into the agent cache,
// agent-cache.ts) running `claude -p` against the loopback fake Messages API, with guard installed
// by hookpm and `hookpm link claude`: guard denies `git push --force` until the administrator's
// policy denies guard, then the next turn's command runs. The command is harmless if nothing stops
// it: `git push --force origin main` in a repository without remotes.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandTurn, installClaudeCode } from './claude-code.js';
import type { FakeMessagesApi } from './fake-messages-api.js';
import { FORCE_PUSH, GUARD_REASON, useLinkedAgent } from '../helpers/linked-agent.js';

interface Result {
  permission_denials: unknown[];
}

const apis: FakeMessagesApi[] = [];
const claude = useLinkedAgent({ agent: 'claude', before: '{}\n', installAgent: installClaudeCode });
afterEach(async () => {
  await Promise.all(apis.splice(0).map((api) => api.close()));
});

async function turn(extraEnv: Record<string, string>) {
  const { home, repo: cwd, binary } = claude;
  const options = { home, cwd, binary, allowedTools: ['Bash'], timeoutMs: 50_000, extraEnv };
  const { api, run } = await commandTurn({
    ...options,
    toolCommand: FORCE_PUSH,
    maxToolCalls: 2,
    apis,
  });
  return { run, results: api.toolResults() };
}

describe("the administrator's policy inside a real Claude Code", () => {
  it('A13: guard denies the force push; once the policy denies guard, the next turn no longer runs it and the command runs', async () => {
    const before = await turn({});
    expect(before.results[0]?.content).toContain(GUARD_REASON);
    expect((before.run.result as Result).permission_denials).toHaveLength(1);

    const file = join(claude.home, 'policy.json');
    await writeFile(file, JSON.stringify({ plugins: { deny: ['guard'] } }));
    const after = await turn({ HOOKPM_POLICY_FILE: file });
    expect(after.results).toHaveLength(1);
    expect(after.results[0]?.content).not.toContain(GUARD_REASON);
    expect(after.results[0]?.content).not.toContain('hook error');
    expect((after.run.result as Result).permission_denials).toEqual([]);
  }, 120_000);
});
