// The Claude Code link end to end: a real Claude Code (pinned, installed by the test setup into a
// cache outside the checkout: agent-cache.ts) running `claude -p` against the loopback fake
// Messages API, with guard installed by hookpm and `hookpm link claude`. The commands asked for are
// harmless if a hook fails to stop them: `git push --force origin main` in a repository without
// remotes, and `echo`.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandTurn, installClaudeCode } from './claude-code.js';
import type { FakeMessagesApi } from './fake-messages-api.js';
import { FORCE_PUSH, GUARD_REASON, useLinkedAgent } from '../helpers/linked-agent.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';

interface Result {
  session_id: string;
  permission_denials: Array<{ tool_name: string; tool_input: { command?: string } }>;
}

let apis: FakeMessagesApi[] = [];
const BEFORE =
  '{\n  "model": "claude-sonnet-4-5",\n  "permissions": {"allow": ["Bash(ls:*)"]},\n  "env": {"FOO": "1"}\n}\n';

const claude = useLinkedAgent({ agent: 'claude', before: BEFORE, installAgent: installClaudeCode });
const { hookpm, settingsFile } = claude;
afterEach(async () => {
  await Promise.all(apis.map((api) => api.close()));
  apis = [];
});

/** Every line of the session transcripts Claude Code wrote under HOME, parsed. */
function transcriptLines(): Array<Record<string, any>> {
  const walk = (dir: string): string[] =>
    existsSync(dir)
      ? readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
        )
      : [];
  return walk(join(claude.home, '.claude', 'projects'))
    .filter((file) => file.endsWith('.jsonl'))
    .flatMap((file) => readFileSync(file, 'utf8').split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, any>);
}

async function turn(toolCommand: string) {
  const { api, run } = await commandTurn({
    toolCommand,
    maxToolCalls: 2,
    apis,
    home: claude.home,
    cwd: claude.repo,
    binary: claude.binary,
    allowedTools: ['Bash'],
    timeoutMs: 50_000,
  });
  return { results: api.toolResults(), result: run.result as Result };
}

describe('hookpm inside a real Claude Code (the link end to end)', () => {
  it("a requested `git push --force` is denied with guard's reason", async () => {
    const { results, result } = await turn(FORCE_PUSH);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ is_error: true });
    expect(results[0]?.content).toContain(`PreToolUse:Bash hook error: ${GUARD_REASON}`);
    expect(result.permission_denials).toEqual([
      expect.objectContaining({
        tool_name: 'Bash',
        tool_input: expect.objectContaining({ command: FORCE_PUSH }),
      }),
    ]);
  }, 60_000);

  it('an allowed command runs and its output reaches the model', async () => {
    const { results, result } = await turn('echo hookpm-linked-ok');
    expect(results[0]).toMatchObject({ is_error: false });
    expect(results[0]?.content).toContain('hookpm-linked-ok');
    expect(result.permission_denials).toEqual([]);
  }, 60_000);

  it('after `hookpm disable guard`, a new session is not denied (the command runs: git says there is no origin)', async () => {
    expect((await hookpm(['disable', 'guard'])).code).toBe(0);
    const { results, result } = await turn(FORCE_PUSH);
    expect(result.permission_denials).toEqual([]);
    expect(results[0]?.content).not.toContain('hook error');
    expect(results[0]?.content).toMatch(/origin/);
    expect((await hookpm(['enable', 'guard', '--yes'])).code).toBe(0);
  }, 60_000);

  it("engine.md events: a plugin's UserPromptSubmit exit 2 erases the prompt from the conversation, as Claude Code does with the plugin's own hook (decision block, not continue:false, which keeps it)", async () => {
    const root = await writeClaudePlugin(join(claude.home, 'plugins', 'no-prompts'), 'no-prompts', {
      UserPromptSubmit: [
        { hooks: [{ type: 'command', command: "echo 'no prompts today' >&2; exit 2" }] },
      ],
    });
    expect((await hookpm(['install', root, '--yes'])).code).toBe(0);
    const { results } = await turn('echo never-asked');
    expect((await hookpm(['uninstall', 'no-prompts'])).code).toBe(0);
    expect(results).toEqual([]);
    const lines = transcriptLines();
    const ended = lines.filter((line) => line.promptSubmitEnding !== undefined);
    expect(ended.at(-1)?.promptSubmitEnding).toEqual({
      ending: { kind: 'blocked_by_hook', reason: 'no prompts today' },
      promptKept: false,
    });
  }, 60_000);

  it('after `hookpm unlink claude`, settings.json is byte-identical to before link, and guard no longer runs', async () => {
    expect((await hookpm(['unlink', 'claude'])).code).toBe(0);
    expect(readFileSync(settingsFile(), 'utf8')).toBe(BEFORE);
    const { result } = await turn(FORCE_PUSH);
    expect(result.permission_denials).toEqual([]);
  }, 60_000);
});
