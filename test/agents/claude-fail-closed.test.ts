// docs/reference/rules/engine.md#fail-closed inside a real Claude Code (installed into the agent
// cache, agent-cache.ts) running `claude -p` against the loopback fake Messages API, with guard
// installed by hookpm and `hookpm link claude`, then guard's installed files changed. The command
// asked for is harmless if nothing stops it: `git push --force origin main` in a repository
// without remotes.
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandTurn, installClaudeCode } from './claude-code.js';
import type { FakeMessagesApi } from './fake-messages-api.js';
import { FORCE_PUSH, useLinkedAgent } from '../helpers/linked-agent.js';
import { installedTree } from '../helpers/installed-tree.js';

interface Result {
  permission_denials: Array<{ tool_name: string; tool_input: { command?: string } }>;
}

const apis: FakeMessagesApi[] = [];
const claude = useLinkedAgent({ agent: 'claude', before: '{}\n', installAgent: installClaudeCode });
afterEach(async () => {
  await Promise.all(apis.splice(0).map((api) => api.close()));
});

/** One turn of Claude Code whose model asks to run FORCE_PUSH (at most twice). */
function forcePushTurn() {
  const { home, repo: cwd, binary } = claude;
  const turn = { home, cwd, binary, allowedTools: ['Bash'], timeoutMs: 50_000 };
  return commandTurn({ ...turn, toolCommand: FORCE_PUSH, maxToolCalls: 2, apis });
}

describe('a tampered guard inside a real Claude Code', () => {
  it('B2, Q6: with guard tampered, `git push --force` is still denied, by hookpm, naming guard and the fix', async () => {
    const tree = installedTree(claude.home, 'guard');
    await appendFile(join(tree, 'scripts', 'guard.mjs'), '\nprocess.exit(0);\n');
    const { api, run } = await forcePushTurn();
    const results = api.toolResults();
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ is_error: true });
    expect(results[0]?.content).toContain(
      'PreToolUse:Bash hook error: hookpm fails closed: plugin guard@local 1.3.0 cannot run as consented',
    );
    expect(results[0]?.content).toContain('hookpm install --force');
    expect((run.result as Result).permission_denials).toEqual([
      expect.objectContaining({
        tool_name: 'Bash',
        tool_input: expect.objectContaining({ command: FORCE_PUSH }),
      }),
    ]);
  }, 60_000);

  it('B9: with the node the link runs gone (moved or uninstalled), the prompt is refused by the link itself (UserPromptSubmit blocks), naming the fix; the model is never asked', async () => {
    const settings = await readFile(claude.settingsFile(), 'utf8');
    const node = JSON.stringify(process.execPath).slice(1, -1);
    expect(settings).toContain(node);
    await writeFile(claude.settingsFile(), settings.replaceAll(node, '/nonexistent/node/bin/node'));
    const { api, run } = await forcePushTurn();
    const result = (run.result as { result: string }).result;
    expect(result).toContain('UserPromptSubmit operation blocked by hook');
    expect(result).toContain(
      'hookpm fails closed: the node or the hookpm that this link runs is gone',
    );
    expect(result).toContain('`hookpm link claude`');
    expect(api.mainRequests()).toHaveLength(0);
  }, 60_000);
});
