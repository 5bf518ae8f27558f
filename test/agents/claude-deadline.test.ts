// docs/reference/rules/cli.md#w1 in a real Claude Code (pinned, from the agent cache) against the
// loopback fake Messages API: guard and a plugin whose handler hangs (timeout 3600) are installed,
// and `hookpm link claude --timeout 12` gives hookpm 12 s (handlers end 2 s before: room for
// guard's own start on a busy machine). hookpm must end the hung handler and answer guard's deny
// before Claude Code kills it; were it killed, Claude Code would run the command (a harmless
// `git push --force` in a repository without remotes).
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commandTurn, installClaudeCode } from './claude-code.js';
import type { FakeMessagesApi } from './fake-messages-api.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { FORCE_PUSH, GUARD_REASON, useLinkedAgent } from '../helpers/linked-agent.js';

let apis: FakeMessagesApi[] = [];
const claude = useLinkedAgent({ agent: 'claude', before: '{}\n', installAgent: installClaudeCode });
afterEach(async () => {
  await Promise.all(apis.map((api) => api.close()));
  apis = [];
});

beforeAll(async () => {
  const hung = await writeClaudePlugin(join(claude.home, 'plugins', 'hung'), 'hung', {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'sleep 3600', timeout: 3600 }] },
    ],
  });
  expect((await claude.hookpm(['install', hung, '--yes'])).code).toBe(0);
  const link = await claude.hookpm(['link', 'claude', '--timeout', '12']);
  expect(link.code, link.stderr).toBe(0);
}, 60_000);

describe('hookpm inside a real Claude Code, under its deadline (cli.md W1)', () => {
  it("W1: with a hung handler of timeout 3600 and a 12 s link, Claude Code still gets guard's deny for `git push --force`", async () => {
    const { api } = await commandTurn({
      home: claude.home,
      cwd: claude.repo,
      binary: claude.binary,
      allowedTools: ['Bash'],
      timeoutMs: 50_000,
      toolCommand: FORCE_PUSH,
      maxToolCalls: 2,
      apis,
    });
    const results = api.toolResults();
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ is_error: true });
    expect(results[0]?.content).toContain(`PreToolUse:Bash hook error: ${GUARD_REASON}`);
  }, 60_000);
});
