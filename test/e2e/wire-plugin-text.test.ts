/**
 * cli.md conventions through `hookpm wire <agent>` (the command `hookpm link` writes): text a
 * plugin supplied that hookpm prints on stderr (the end of a failed handler's stderr, quoted in
 * its diagnostic) has its control characters escaped, as `hookpm run` prints it, so a handler
 * cannot move the cursor, retitle the terminal or reorder text where the agent shows hookpm's
 * stderr. Such a quote is the end of that stderr, 500 characters at most (engine.md K3), on Claude
 * Code's own events as on the engine's.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { claudeBashPayload, claudePayload } from '../helpers/claude-payload.js';

const ws = useBinWorkspace('e2e-wire-plugin-text');

/** ESC ] 0 (retitle), ESC [ 2J (clear), C1 CSI (U+009B) and a right-to-left override (U+202E). */
const HOSTILE = String.raw`oops \033]0;owned\007 \033[2J \302\233 \342\200\256 rtl`;
const ESCAPED = String.raw`oops \u001b]0;owned\u0007 \u001b[2J \u009b \u202e rtl`;

async function installNoisy(): Promise<void> {
  const fail = { type: 'command', command: `printf '${HOSTILE}' >&2; exit 1` };
  const root = await writeClaudePlugin(join(ws.dir, `noisy${ws.n}`), 'noisy', {
    PreToolUse: [{ hooks: [fail] }],
    PostToolBatch: [{ hooks: [fail] }],
  });
  const run = await ws.hookpm(['install', root, '--yes']);
  expect(run.code, run.stderr).toBe(0);
}

describe('hookpm wire: plugin text on stderr (cli.md conventions)', () => {
  it('cli.md: a failed handler quoted in a diagnostic has its control characters escaped, for every agent and for Claude Code own events', async () => {
    await installNoisy();
    const bash = claudeBashPayload(ws, 's1', 'ls');
    const gemini = JSON.stringify({
      ...JSON.parse(bash),
      hook_event_name: 'BeforeTool',
      tool_name: 'run_shell_command',
    });
    const cases: Array<[string, string]> = [
      ['claude', bash],
      ['codex', bash],
      ['deepagents', bash],
      ['gemini', gemini],
      ['claude', claudePayload(ws, 'PostToolBatch', 's1', { tool_calls: [] })],
    ];
    for (const [agent, payload] of cases) {
      const run = await ws.hookpm(['wire', agent], { stdin: payload });
      expect(run.code, agent).toBe(0);
      expect(run.stderr, agent).toContain(`nonzero_exit: `);
      expect(run.stderr, agent).toContain(ESCAPED);
      expect(run.stderr, agent).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
    }
  });

  it('K3: the stderr of a failed handler of a Claude Code own event is quoted by its end, 500 characters at most, on stderr and in systemMessage', async () => {
    const loud = {
      type: 'command',
      command: `head -c 90000 /dev/zero | tr '\\0' e >&2; echo END >&2; exit 1`,
    };
    const root = await writeClaudePlugin(join(ws.dir, `loud${ws.n}`), 'loud', {
      PostToolBatch: [{ hooks: [loud] }],
    });
    expect((await ws.hookpm(['install', root, '--yes'])).code).toBe(0);
    const payload = claudePayload(ws, 'PostToolBatch', 's1', { tool_calls: [] });
    const run = await ws.hookpm(['wire', 'claude'], { stdin: payload });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^hookpm: warning nonzero_exit: handler PostToolBatch:0:0 exited 1: e+END\n$/,
    );
    expect(run.stderr).toMatch(/exited 1: e{480,500}END\n$/);
    const told = JSON.parse(run.stdout) as { systemMessage: string };
    expect(told.systemMessage).toMatch(
      /^hookpm: hook error \(loud@local\): handler PostToolBatch:0:0 exited 1: e+\.\.\.$/,
    );
  });
});
