// plugins.md G1-G2 inside a real Claude Code (pinned, from the agent cache): a plugin hooking one
// of Claude Code's own events, PostToolBatch, installed after `hookpm link claude` (the install
// relinks), fires in a `-p` turn whose one Bash call is allowed; its context reaches the model.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandTurn, installClaudeCode } from './claude-code.js';
import type { FakeMessagesApi } from './fake-messages-api.js';
import { useLinkedAgent } from '../helpers/linked-agent.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { printsJson } from '../helpers/hook-fixtures.js';

let apis: FakeMessagesApi[] = [];
const claude = useLinkedAgent({ agent: 'claude', before: '{}\n', installAgent: installClaudeCode });
afterEach(async () => {
  await Promise.all(apis.map((api) => api.close()));
  apis = [];
});

const CONTEXT = 'hookpm-batch-context-7f3a';

describe("Claude Code's own events inside a real Claude Code (plugins.md G1)", () => {
  it('G1, G2: a PostToolBatch handler installed after link is linked by the install, runs on the payload Claude Code sends, and its additionalContext reaches the next model request', async () => {
    const seen = join(claude.home, 'batch-payload.json');
    const root = await writeClaudePlugin(join(claude.home, 'plugins', 'batch'), 'batch', {
      PostToolBatch: [
        {
          hooks: [
            {
              type: 'command',
              command: printsJson(
                {
                  hookSpecificOutput: {
                    hookEventName: 'PostToolBatch',
                    additionalContext: CONTEXT,
                  },
                },
                ` ; cat > '${seen}'`,
              ),
            },
          ],
        },
      ],
    });
    const installed = await claude.hookpm(['install', root, '--yes']);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stderr).toContain('relinked Claude Code (user)');
    const settings = JSON.parse(readFileSync(claude.settingsFile(), 'utf8')) as {
      hooks: Record<string, unknown>;
    };
    expect(Object.keys(settings.hooks)).toContain('PostToolBatch');
    const started = performance.now();
    const { api } = await commandTurn({
      toolCommand: 'echo batch-ok',
      maxToolCalls: 1,
      apis,
      home: claude.home,
      cwd: claude.repo,
      binary: claude.binary,
      allowedTools: ['Bash'],
      timeoutMs: 50_000,
    });
    const turnMs = performance.now() - started;
    expect(existsSync(seen), 'PostToolBatch reached the plugin').toBe(true);
    const payload = JSON.parse(readFileSync(seen, 'utf8')) as Record<string, unknown>;
    expect(payload).toMatchObject({ hook_event_name: 'PostToolBatch', cwd: claude.repo });
    expect(payload['tool_calls']).toEqual([
      expect.objectContaining({
        tool_name: 'Bash',
        tool_input: expect.objectContaining({ command: 'echo batch-ok' }),
      }),
    ]);
    const after = api.requests.slice(1).map((r) => JSON.stringify(r.body));
    expect(after.some((body) => body.includes(CONTEXT))).toBe(true);
    console.log(
      `PostToolBatch turn: ${Math.round(turnMs)} ms; payload keys: ${Object.keys(payload).sort().join(', ')}`,
    );
  }, 120_000);

  // Measured with Claude Code 2.1.332: a `-p` turn does not wait for the background entry, and
  // when the turn ends Claude Code ends it, so a handler still running then is ended with its host
  // (security.md: handlers die with their host); in an interactive session it runs to its end.
  it('G3: an async PostToolUse handler runs in the background: the turn goes on without waiting for it', async () => {
    const started = join(claude.home, 'bg-started');
    const done = join(claude.home, 'bg-done');
    const root = await writeClaudePlugin(join(claude.home, 'plugins', 'slow'), 'slow', {
      PostToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'command',
              command: `date +%s%N > '${started}'; sleep 10; date +%s%N > '${done}'`,
              async: true,
              timeout: 30,
            },
          ],
        },
      ],
    });
    const installed = await claude.hookpm(['install', root, '--yes']);
    expect(installed.code, installed.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(claude.settingsFile(), 'utf8')) as {
      hooks: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>>;
    };
    expect(settings.hooks['PostToolUse']?.map((g) => g.hooks[0]?.['async'] === true)).toEqual([
      false,
      true,
    ]);
    const t0 = Date.now();
    await commandTurn({
      toolCommand: 'echo bg-ok',
      maxToolCalls: 1,
      apis,
      home: claude.home,
      cwd: claude.repo,
      binary: claude.binary,
      allowedTools: ['Bash'],
      timeoutMs: 50_000,
    });
    const turnEnded = Date.now();
    const startedAt = existsSync(started) ? Number(readFileSync(started, 'utf8')) / 1e6 : null;
    const doneAtTurnEnd = existsSync(done);
    expect(startedAt, 'the background handler started').not.toBeNull();
    expect(doneAtTurnEnd, 'the turn did not wait for the 10 s handler').toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    console.log(
      `background PostToolUse: turn ${turnEnded - t0} ms; handler started ${Math.round(startedAt! - t0)} ms in; finished after the turn: ${existsSync(done)}`,
    );
  }, 120_000);
});
