import { GENERIC_BLOCK_REASON } from '../../src/engine/generic-block-reason.js';
import { describe, expect, it } from 'vitest';
import { GEMINI } from '../../src/agents/gemini.js';
import type { DispatchResult } from '../../src/engine/types.js';
import { result } from '../helpers/wire-output.js';

// `hookpm wire gemini`: the wire adapter's two halves. The payloads are those Gemini CLI
// 0.61.0 sent a linked hook in test/agents/gemini-link.test.ts's turns (test/agents/gemini-cli.ts
// lists them); Notification and a failed AfterTool, which such a turn does not fire, as
// `fireNotificationEvent` and `fireAfterToolEvent` build them (packages/core/src/hooks/
// hookEventHandler.ts of github:google-gemini/gemini-cli; `tool_response.error` per
// docs/hooks/reference.md there). The outputs are read as docs/hooks/reference.md says.

const BASE = {
  session_id: '2f7fa35a-9da7-41a2-83a3-34437f2eb8e6',
  transcript_path: '/home/u/.gemini/tmp/repo/chats/session-2026-12-02T06-18-2f7fa35a.jsonl',
  cwd: '/home/u/repo',
  timestamp: '2026-12-02T06:18:49.011Z',
};
const SHELL = { tool_name: 'run_shell_command', tool_input: { command: 'echo probe-ok' } };
const AFTER_TOOL = {
  ...BASE,
  hook_event_name: 'AfterTool',
  ...SHELL,
  tool_response: { llmContent: 'Output: probe-ok', returnDisplay: 'probe-ok' },
};

function out(r: DispatchResult): Record<string, any> {
  const answer = GEMINI.encode(r);
  expect(answer.exitCode).toBe(0);
  return JSON.parse(answer.stdout) as Record<string, any>;
}

describe('the Gemini CLI wire input', () => {
  it.each([
    ['SessionStart', 'SessionStart', { source: 'startup' }],
    ['BeforeAgent', 'UserPromptSubmit', { prompt: 'Run it' }],
    ['SessionEnd', 'SessionEnd', { reason: 'exit' }],
    ['PreCompress', 'PreCompact', { trigger: 'auto' }],
  ] as const)('%s is the engine event %s, its fields kept', (name, engine, fields) => {
    const decoded = GEMINI.decode({ ...BASE, hook_event_name: name, ...fields });
    expect(decoded).toEqual({
      event: engine,
      input: { ...BASE, hook_event_name: engine, ...fields },
    });
  });

  it('BeforeTool is PreToolUse, and run_shell_command is Bash with tool_input.command, so a Claude Code plugin matching Bash sees it', () => {
    const decoded = GEMINI.decode({ ...BASE, hook_event_name: 'BeforeTool', ...SHELL });
    expect(decoded?.event).toBe('PreToolUse');
    expect(decoded?.input).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'echo probe-ok' },
    });
  });

  it.each([
    [
      'write_file',
      { file_path: '/r/a.ts', content: 'x' },
      'Write',
      { file_path: '/r/a.ts', content: 'x' },
    ],
    [
      'replace',
      { file_path: '/r/a.ts', old_string: 'a', new_string: 'b', allow_multiple: true },
      'Edit',
      { file_path: '/r/a.ts', old_string: 'a', new_string: 'b', replace_all: true },
    ],
    ['read_file', { file_path: '/r/a.ts' }, 'Read', { file_path: '/r/a.ts' }],
    ['grep_search', { pattern: 'x', dir_path: 'src' }, 'Grep', { pattern: 'x', path: 'src' }],
    ['glob', { pattern: '**/*.ts' }, 'Glob', { pattern: '**/*.ts' }],
    // Only a renamed argument's own name renames: `constructor` is no key of the table.
    ['glob', { pattern: '*', constructor: 1 }, 'Glob', { pattern: '*', constructor: 1 }],
    ['google_web_search', { query: 'q' }, 'WebSearch', { query: 'q' }],
    [
      'ask_user',
      { questions: [{ question: 'Which?', header: 'Pick', options: [{ label: 'a' }] }] },
      'AskUserQuestion',
      { questions: [{ question: 'Which?', header: 'Pick', options: [{ label: 'a' }] }] },
    ],
    ['list_directory', { dir_path: '.' }, 'list_directory', { dir_path: '.' }],
  ])(
    'the tool %s is %s with its arguments named as Claude Code names them',
    (tool, args, name, input) => {
      const decoded = GEMINI.decode({
        ...BASE,
        hook_event_name: 'BeforeTool',
        tool_name: tool,
        tool_input: args,
      });
      expect(decoded?.input).toMatchObject({ tool_name: name, tool_input: input });
    },
  );

  it.each([
    ['Summarize https://evil.example/a please', { url: 'https://evil.example/a' }],
    // What Gemini CLI fetches is the prompt's URL, not a `url` argument the model wrote beside it.
    ['Read HTTPS://Evil.example', { url: 'https://evil.example/' }],
    ['Compare https://a.example and https://b.example', {}],
    ['Summarize evil.example or ftp://evil.example', {}],
  ])(
    'engine.md F2: web_fetch is WebFetch with `url` the one URL its prompt names (%s), so a WebFetch(pattern) guard judges it',
    (prompt, url) => {
      const decoded = GEMINI.decode({
        ...BASE,
        hook_event_name: 'BeforeTool',
        tool_name: 'web_fetch',
        tool_input: { prompt, url: 'https://ok.example/' },
      });
      expect(decoded?.input['tool_name']).toBe('WebFetch');
      expect(decoded?.input['tool_input']).toEqual({ prompt, ...url });
    },
  );

  it("an MCP tool, mcp_<server>_<tool>, is Claude Code's mcp__<server>__<tool> from its mcp_context (a server name may hold _)", () => {
    const mcp = {
      ...BASE,
      hook_event_name: 'BeforeTool',
      tool_name: 'mcp_git_hub_create_issue',
      tool_input: { title: 't' },
      mcp_context: { server_name: 'git_hub', tool_name: 'create_issue', url: 'http://x' },
    };
    expect(GEMINI.decode(mcp)?.input).toEqual({
      ...mcp,
      hook_event_name: 'PreToolUse',
      tool_name: 'mcp__git_hub__create_issue',
    });
    const { mcp_context: _, ...bare } = mcp;
    expect(GEMINI.decode(bare)?.input['tool_name']).toBe('mcp_git_hub_create_issue');
  });

  it('AfterTool is PostToolUse; with tool_response.error it is PostToolUseFailure with that error', () => {
    expect(GEMINI.decode(AFTER_TOOL)?.event).toBe('PostToolUse');
    const failed = GEMINI.decode({
      ...AFTER_TOOL,
      tool_response: { llmContent: '', returnDisplay: '', error: { message: 'exit 3' } },
    });
    expect(failed?.event).toBe('PostToolUseFailure');
    expect(failed?.input).toMatchObject({ error: 'exit 3', tool_name: 'Bash' });
  });

  it("AfterAgent is Stop, with prompt_response also as Claude Code's last_assistant_message", () => {
    const decoded = GEMINI.decode({
      ...BASE,
      hook_event_name: 'AfterAgent',
      prompt: 'Run it',
      prompt_response: 'done',
      stop_hook_active: false,
    });
    expect(decoded?.event).toBe('Stop');
    expect(decoded?.input).toMatchObject({
      last_assistant_message: 'done',
      stop_hook_active: false,
    });
  });

  it('Notification ToolPermission is notification_type permission_prompt', () => {
    const decoded = GEMINI.decode({
      ...BASE,
      hook_event_name: 'Notification',
      notification_type: 'ToolPermission',
      message: 'Tool run_shell_command requires confirmation',
      details: {},
    });
    expect(decoded?.event).toBe('Notification');
    expect(decoded?.input['notification_type']).toBe('permission_prompt');
  });

  it('BeforeModel, AfterModel and BeforeToolSelection are not linked, nor is any other name', () => {
    expect(GEMINI.eventsNotLinked).toEqual(['BeforeModel', 'AfterModel', 'BeforeToolSelection']);
    for (const name of [...GEMINI.eventsNotLinked, 'PreToolUse', 'Stop'])
      expect(GEMINI.decode({ ...BASE, hook_event_name: name })).toBeNull();
    expect(GEMINI.settingsEvents).not.toContain('PreToolUse');
  });
});

describe('the Gemini CLI wire output (deny, allow, context, stop)', () => {
  it('nothing decided: `{}` (never an empty stdout, which Gemini CLI would fill from stderr), exit 0', () => {
    for (const event of GEMINI.events) expect(out(result(event))).toEqual({});
    const answer = GEMINI.encode(
      result('PreToolUse', {
        diagnostics: [{ code: 'nonzero_exit', severity: 'warning', message: 'exit 3' }],
      }),
    );
    expect(answer.stdout).toBe('{}\n');
    expect(answer.stderr).toBe('hookpm: warning nonzero_exit: exit 3\n');
  });

  it.each(['deny', 'allow'] as const)(
    'PreToolUse %s: decision with its reason (a deny reaches the model as "Tool execution blocked: <reason>")',
    (decision) => {
      expect(
        out(result('PreToolUse', { permission: { decision, reason: 'why', interrupt: false } })),
      ).toEqual({ decision, reason: 'why' });
    },
  );

  it('PreToolUse ask: decision with its reason, also as the systemMessage the user asked sees (Gemini CLI shows an ask no reason)', () => {
    const permission = { decision: 'ask' as const, reason: 'why', interrupt: false };
    expect(out(result('PreToolUse', { permission }))).toEqual({
      decision: 'ask',
      reason: 'why',
      systemMessage: 'why',
    });
    expect(out(result('PreToolUse', { permission, systemMessages: ['note'] }))).toEqual({
      decision: 'ask',
      reason: 'why',
      systemMessage: 'note\nwhy',
    });
  });

  it('PostToolUse feedback and context: additionalContext, appended to the tool result (not a deny, which would replace it)', () => {
    expect(out(result('PostToolUse', { feedback: ['lint failed'], context: ['ctx'] }))).toEqual({
      hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'lint failed\nctx' },
    });
    expect(out(result('PostToolUseFailure', { context: ['retry'] })).hookSpecificOutput).toEqual({
      hookEventName: 'AfterTool',
      additionalContext: 'retry',
    });
  });

  it('UserPromptSubmit: a block is decision deny with the stop reason; context is additionalContext of BeforeAgent', () => {
    expect(out(result('UserPromptSubmit', { continue: false, stopReason: 'no secrets' }))).toEqual({
      decision: 'deny',
      reason: 'no secrets',
    });
    expect(out(result('UserPromptSubmit', { context: ['today is Tuesday'] }))).toEqual({
      hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'today is Tuesday' },
    });
  });

  it('SessionStart context: additionalContext', () => {
    expect(out(result('SessionStart', { context: ['branch main'] }))).toEqual({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'branch main' },
    });
  });

  it('O1: a Stop continuation is AfterAgent decision deny with the feedback (the next prompt); O2: continue:false stops instead', () => {
    expect(out(result('Stop', { continueLoop: true, feedback: ['run the tests'] }))).toEqual({
      decision: 'deny',
      reason: 'run the tests',
    });
    expect(
      out(result('Stop', { continue: false, stopReason: 'enough', continueLoop: true })),
    ).toEqual({ continue: false, stopReason: 'enough' });
  });

  it('O1/K2: a Stop continuation with no feedback carries the generic block reason, not a blank one Gemini CLI would send on as "No reason provided"', () => {
    expect(out(result('Stop', { continueLoop: true, feedback: [] }))).toEqual({
      decision: 'deny',
      reason: GENERIC_BLOCK_REASON,
    });
  });

  it('continue:false stops the agent on BeforeTool; on the lifecycle events, which ignore it, the user is told it is ignored (cli.md W3)', () => {
    expect(out(result('PreToolUse', { continue: false, stopReason: 'halt' }))).toEqual({
      continue: false,
      stopReason: 'halt',
    });
    for (const event of ['SessionStart', 'SessionEnd', 'Notification'] as const) {
      const answer = GEMINI.encode(
        result(event, { continue: false, stopReason: 'x', systemMessages: ['note'] }),
      );
      const told = `Gemini CLI cannot stop the session on ${event}; the stop is ignored: x`;
      expect(JSON.parse(answer.stdout)).toEqual({ systemMessage: `note\nhookpm: ${told}` });
      expect(answer.stderr).toBe(`hookpm: warning unsupported_block: ${told}\n`);
    }
    expect(out(result('SessionEnd', { systemMessages: ['note'] }))).toEqual({
      systemMessage: 'note',
    });
  });

  it('engine.md events, cli.md W3: a PreCompact block (exit 2, decision block, continue:false), which Gemini CLI cannot apply on PreCompress, is told as a systemMessage and unsupported_block, never dropped', () => {
    const stop = result('PreCompact', {
      continue: false,
      stopReason: 'keep the log',
      systemMessages: ['note'],
    });
    const answer = GEMINI.encode(stop);
    const told = 'Gemini CLI cannot block PreCompress; the block is ignored: keep the log';
    expect(answer.exitCode).toBe(0);
    expect(JSON.parse(answer.stdout)).toEqual({ systemMessage: `note\nhookpm: ${told}` });
    expect(answer.stderr).toBe(`hookpm: warning unsupported_block: ${told}\n`);
    // A stop without a reason is told too, without one.
    expect(out(result('PreCompact', { continue: false }))).toEqual({
      systemMessage: 'hookpm: Gemini CLI cannot block PreCompress; the block is ignored',
    });
  });
});
