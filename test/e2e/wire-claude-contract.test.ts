import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { claudePayload } from '../helpers/claude-payload.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { printsJson } from '../helpers/hook-fixtures.js';

// `hookpm wire claude` answers a plugin written for Claude Code as Claude Code would have read the
// plugin's own output (code.claude.com/docs/en/hooks: exit codes and JSON output per event), with
// the payloads Claude Code 2.1.332 sends.

const ws = useBinWorkspace('e2e-wire-claude-contract', '.claude');

const cmd = (command: string) => ({ type: 'command', command });

/** Installs (consented, enabled) a Claude Code plugin with one hooks document. */
async function install(name: string, hooks: Record<string, unknown>): Promise<void> {
  const root = await writeClaudePlugin(join(ws.dir, `plugins${ws.n}`, name), name, hooks);
  const run = await ws.hookpm(['install', root, '--yes']);
  expect(run.code, run.stderr).toBe(0);
}

async function wire(event: string, extra: Record<string, unknown>, agent = 'claude') {
  const run = await ws.hookpm(['wire', agent], {
    stdin: claudePayload(ws, event, `s-${ws.n}`, extra),
  });
  return { code: run.code, stdout: run.stdout, stderr: run.stderr };
}

describe('hookpm wire claude keeps the Claude Code hooks contract', () => {
  it("engine.md M3: a plugin's systemMessage beside suppressOutput reaches Claude Code, which shows it (suppressOutput hides only a hook's stdout there); Deep Agents Code's wire keeps M3", async () => {
    await install('formatter', {
      PostToolUse: [
        {
          matcher: 'Write',
          hooks: [cmd(printsJson({ suppressOutput: true, systemMessage: 'formatted 3 files' }))],
        },
      ],
    });
    const fields = { tool_name: 'Write', tool_input: { file_path: 'a.ts' }, tool_response: {} };
    expect(await wire('PostToolUse', fields)).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ systemMessage: 'formatted 3 files' })}\n`,
      stderr: '',
    });
    expect(await wire('PostToolUse', fields, 'deepagents')).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('engine.md events, PreCompact: an exit 2 or decision "block" blocks compaction as decision "block" with the reason, not continue:false', async () => {
    await install('compact-gate', {
      PreCompact: [
        { matcher: 'auto', hooks: [cmd("echo 'save notes first' >&2; exit 2")] },
        { matcher: 'manual', hooks: [cmd(printsJson({ decision: 'block', reason: 'not now' }))] },
      ],
    });
    const auto = await wire('PreCompact', { trigger: 'auto', custom_instructions: '' });
    expect(auto).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ decision: 'block', reason: 'save notes first' })}\n`,
      stderr: '',
    });
    const manual = await wire('PreCompact', { trigger: 'manual', custom_instructions: '' });
    expect(JSON.parse(manual.stdout)).toEqual({ decision: 'block', reason: 'not now' });
  });
});
