import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';

// docs/reference/rules/engine.md#events (SubagentStop) and docs/design/decisions.md: Claude Code
// and Codex read SubagentStop context back as `decision: "block"`, which keeps the subagent going.
// hookpm keeps no count of subagent continuations, so while `stop_hook_active` is true neither a
// block nor an `additionalContext` keeps it going again: a handler that always adds context must
// not keep a subagent from ever ending.

const ws = useBinWorkspace('e2e-wire-subagent-stop');

const CONTEXT = `echo '{"hookSpecificOutput":{"hookEventName":"SubagentStop","additionalContext":"check the diff"}}'`;

function payload(active: boolean): string {
  return JSON.stringify({
    session_id: 's1',
    transcript_path: join(ws.home, 't.jsonl'),
    cwd: ws.repo,
    hook_event_name: 'SubagentStop',
    agent_type: 'reviewer',
    stop_hook_active: active,
  });
}

describe('SubagentStop context under wire claude and wire codex', () => {
  it.each(['claude', 'codex'])(
    'engine.md events (SubagentStop): under wire %s, context keeps the subagent going once, not again while stop_hook_active',
    async (agent) => {
      const plugin = await writeClaudePlugin(join(ws.dir, `plugins${ws.n}`, 'notes'), 'notes', {
        SubagentStop: [{ hooks: [{ type: 'command', command: CONTEXT }] }],
      });
      const installed = await ws.hookpm(['install', plugin, '--yes']);
      expect(installed.code, installed.stderr).toBe(0);
      const wire = async (active: boolean) => {
        const run = await ws.hookpm(['wire', agent, '--deadline', '600'], {
          stdin: payload(active),
        });
        expect(run.code, run.stderr).toBe(0);
        return run;
      };
      const fresh = await wire(false);
      expect(JSON.parse(fresh.stdout)).toEqual({ decision: 'block', reason: 'check the diff' });
      const active = await wire(true);
      expect(active.stdout).toBe('');
    },
    60_000,
  );
});
