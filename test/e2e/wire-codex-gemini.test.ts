import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CODEX_CANNOT_ASK, CODEX_NO_REASON } from '../../src/agents/codex-decision.js';
import { runBin } from '../helpers/built-bin.js';
import { printsJson } from '../helpers/hook-fixtures.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { useBubblewrap } from '../helpers/bubblewrap.js';

// `hookpm wire codex|gemini`, the handlers link writes, through the built CLI and real plugins, on
// per-session pins (engine.md R1). The payloads are the ones Codex 0.171.0 and Gemini CLI 0.61.0
// send (test/agents/codex.ts and test/agents/gemini-cli.ts list them).

const GUARD = fileURLToPath(new URL('../../registry-fixtures/plugins/guard', import.meta.url));
const FORCE_PUSH = 'git push --force origin main';
const GUARD_REASON = /^guard: `git push --force` rewrites shared history/;

// guard declares capabilities: its handlers run under bubblewrap.
useBubblewrap();

const ws = useBinWorkspace('e2e-wire-cg');

async function ok(args: string[]): Promise<void> {
  const run = await runBin(args, { cwd: ws.repo, env: ws.env() });
  expect(run.code, run.stderr).toBe(0);
}

/** A Claude Code plugin: a directory with one hooks document. */
async function plugin(name: string, hooks: Record<string, unknown>): Promise<string> {
  return writeClaudePlugin(join(ws.dir, `plugins${ws.n}`, name), name, hooks);
}

async function wire(agent: 'codex' | 'gemini', body: Record<string, unknown>) {
  const run = await runBin(['wire', agent], {
    cwd: ws.repo,
    env: ws.env(),
    stdin: JSON.stringify(body),
  });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout === '' ? null : (JSON.parse(run.stdout) as Record<string, any>);
}

const gemini = (session: string, event: string, fields: Record<string, unknown> = {}) => ({
  session_id: session,
  transcript_path: join(ws.home, 't.jsonl'),
  cwd: ws.repo,
  hook_event_name: event,
  timestamp: '2026-12-02T06:18:49.011Z',
  ...fields,
});
const shell = (command: string) => ({
  tool_name: 'run_shell_command',
  tool_input: { command },
});

const codex = (session: string, event: string, fields: Record<string, unknown> = {}) => ({
  session_id: session,
  turn_id: 't1',
  transcript_path: join(ws.home, 't.jsonl'),
  cwd: ws.repo,
  hook_event_name: event,
  model: 'gpt-5',
  permission_mode: 'bypassPermissions',
  ...fields,
});

const stopAgain = () =>
  plugin('again', {
    Stop: [{ hooks: [{ type: 'command', command: "echo 'not yet' >&2; exit 2" }] }],
  });

describe('hookpm wire gemini', () => {
  it('BeforeTool run_shell_command: guard (a Claude Code plugin matching Bash) denies with its reason; an allowed command gets `{}`', async () => {
    await ok(['install', GUARD, '--yes']);
    const denied = await wire('gemini', gemini('g1', 'BeforeTool', shell(FORCE_PUSH)));
    expect(denied?.['decision']).toBe('deny');
    expect(denied?.['reason']).toMatch(GUARD_REASON);
    expect(await wire('gemini', gemini('g1', 'BeforeTool', shell('ls')))).toEqual({});
  });

  it('AfterTool: a PostToolUse plugin matching Bash adds its context to the tool result', async () => {
    const context = printsJson({
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'ran it' },
    });
    await ok([
      'install',
      await plugin('ctx', {
        PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: context }] }],
      }),
      '--yes',
    ]);
    const response = { llmContent: 'Output: x', returnDisplay: 'x' };
    expect(
      await wire('gemini', gemini('g2', 'AfterTool', { ...shell('ls'), tool_response: response })),
    ).toEqual({ hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'ran it' } });
  });

  it('AfterAgent: a Stop block asks for another turn (decision deny with the reason), capped at 8 by the pin (O3)', async () => {
    await ok(['install', await stopAgain(), '--yes']);
    await wire('gemini', gemini('g3', 'SessionStart', { source: 'startup' }));
    const after = (active: boolean) =>
      gemini('g3', 'AfterAgent', { prompt: 'p', prompt_response: 'r', stop_hook_active: active });
    const answers = [];
    for (let i = 0; i < 9; i++) answers.push(await wire('gemini', after(i > 0)));
    expect(answers.slice(0, 8)).toEqual(Array(8).fill({ decision: 'deny', reason: 'not yet' }));
    expect(answers[8]).toEqual({});
  });

  it('R1: a plugin disabled mid-session keeps running in that Gemini CLI session; a new session is not denied; SessionEnd releases the pin', async () => {
    await ok(['install', GUARD, '--yes']);
    await wire('gemini', gemini('ga', 'SessionStart', { source: 'startup' }));
    await ok(['disable', 'guard']);
    expect(
      (await wire('gemini', gemini('ga', 'BeforeTool', shell(FORCE_PUSH))))?.['decision'],
    ).toBe('deny');
    await wire('gemini', gemini('gb', 'SessionStart', { source: 'startup' }));
    expect(await wire('gemini', gemini('gb', 'BeforeTool', shell(FORCE_PUSH)))).toEqual({});
    await wire('gemini', gemini('ga', 'SessionEnd', { reason: 'exit' }));
    expect(await wire('gemini', gemini('ga', 'BeforeTool', shell(FORCE_PUSH)))).toEqual({});
  });

  it("BeforeTool of an MCP tool: a plugin matching Claude Code's mcp__<server>__.* denies it", async () => {
    const command = "echo 'no MCP writes' >&2; exit 2";
    const hooks = {
      PreToolUse: [{ matcher: 'mcp__github__.*', hooks: [{ type: 'command', command }] }],
    };
    await ok(['install', await plugin('mcp', hooks), '--yes']);
    const call = gemini('g5', 'BeforeTool', {
      tool_name: 'mcp_github_create_issue',
      tool_input: { title: 't' },
      mcp_context: { server_name: 'github', tool_name: 'create_issue', command: 'gh-mcp' },
    });
    expect(await wire('gemini', call)).toEqual({ decision: 'deny', reason: 'no MCP writes' });
  });

  it("BeforeTool glob: a plugin reading Grep's and Glob's `path` sees the `dir_path` Gemini CLI searches, also beside a `path` the model wrote", async () => {
    // Denies a search under /secret, by the `path` of its tool_input; says nothing otherwise.
    const command = `node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{const i=JSON.parse(s).tool_input;if(String(i.path).startsWith("/secret")){console.error("no secrets");process.exit(2)}})'`;
    const hooks = { PreToolUse: [{ matcher: 'Glob', hooks: [{ type: 'command', command }] }] };
    await ok(['install', await plugin('paths', hooks), '--yes']);
    const glob = (input: Record<string, unknown>) =>
      gemini('g6', 'BeforeTool', { tool_name: 'glob', tool_input: { pattern: '*', ...input } });
    const denied = { decision: 'deny', reason: 'no secrets' };
    expect(await wire('gemini', glob({ dir_path: '/secret' }))).toEqual(denied);
    expect(await wire('gemini', glob({ dir_path: '/secret', path: '/tmp' }))).toEqual(denied);
    expect(await wire('gemini', glob({ path: '/secret', dir_path: '/tmp' }))).toEqual({});
  });

  it('an event hookpm does not link (BeforeModel) is answered with nothing', async () => {
    await ok(['install', GUARD, '--yes']);
    expect(await wire('gemini', gemini('g4', 'BeforeModel', { llm_request: {} }))).toBeNull();
  });
});

describe('hookpm wire codex', () => {
  it('PreToolUse Bash: guard denies with its reason (Codex: "Command blocked by PreToolUse hook: <reason>"); an allowed command gets no output', async () => {
    await ok(['install', GUARD, '--yes']);
    const bash = (command: string) =>
      codex('c1', 'PreToolUse', {
        tool_name: 'Bash',
        tool_input: { command },
        tool_use_id: 'call_1',
      });
    const denied = await wire('codex', bash(FORCE_PUSH));
    expect(denied?.['hookSpecificOutput']).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
    });
    expect(denied?.['hookSpecificOutput'].permissionDecisionReason).toMatch(GUARD_REASON);
    expect(await wire('codex', bash('ls'))).toBeNull();
  });

  it('PreToolUse exec_command: guard judges the `cmd` Codex runs, also when the model wrote a harmless `command` beside it', async () => {
    await ok(['install', GUARD, '--yes']);
    const exec = (input: Record<string, unknown>) =>
      codex('c1', 'PreToolUse', { tool_name: 'exec_command', tool_input: input, tool_use_id: 'c' });
    for (const input of [{ cmd: FORCE_PUSH }, { cmd: FORCE_PUSH, command: 'ls' }]) {
      const denied = await wire('codex', exec(input));
      expect(denied?.['hookSpecificOutput'].permissionDecision, JSON.stringify(input)).toBe('deny');
      expect(denied?.['hookSpecificOutput'].permissionDecisionReason).toMatch(GUARD_REASON);
    }
    expect(await wire('codex', exec({ cmd: 'ls', command: FORCE_PUSH }))).toBeNull();
  });

  it('cli.md W3: a deny without a reason, or a stop, reaches Codex as a deny with a reason (Codex runs the tool on either as sent)', async () => {
    const bare = printsJson({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
    });
    const halt = printsJson({ continue: false, stopReason: 'halt' });
    for (const [name, command] of [
      ['bare', bare],
      ['halt', halt],
    ] as const) {
      const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] };
      await ok(['install', await plugin(name, hooks), '--yes']);
    }
    const ls = (session: string) =>
      codex(session, 'PreToolUse', {
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        tool_use_id: 'call_1',
      });
    const denial = (reason: string) => ({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: reason,
      },
    });
    expect(await wire('codex', ls('c3'))).toEqual(denial('halt'));
    await ok(['disable', 'halt']);
    expect(await wire('codex', ls('c4'))).toEqual(denial(CODEX_NO_REASON));
  });

  it('cli.md W3: an ask reaches Codex as a deny that says so; an allow is left out, its context kept', async () => {
    const said = (decision: string) =>
      printsJson({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: decision,
          permissionDecisionReason: 'confirm the push',
          additionalContext: 'pushing',
        },
      });
    const hooks = {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', if: 'Bash(git push*)', command: said('ask') },
            { type: 'command', command: said('allow') },
          ],
        },
      ],
    };
    await ok(['install', await plugin('asks', hooks), '--yes']);
    const bash = (command: string) =>
      codex('c5', 'PreToolUse', { tool_name: 'Bash', tool_input: { command }, tool_use_id: 'c' });
    expect(await wire('codex', bash('git push origin main'))).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        additionalContext: 'pushing\npushing',
        permissionDecision: 'deny',
        permissionDecisionReason: `confirm the push; ${CODEX_CANNOT_ASK}`,
      },
    });
    expect(await wire('codex', bash('ls'))).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'pushing' },
    });
  });

  it('cli.md W3: a PermissionRequest deny with interrupt reaches Codex as a deny without it (Codex would ask its user instead)', async () => {
    const command = printsJson({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'not on main', interrupt: true },
      },
    });
    const hooks = {
      PermissionRequest: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }],
    };
    await ok(['install', await plugin('refuse', hooks), '--yes']);
    const request = codex('c6', 'PermissionRequest', {
      tool_name: 'Bash',
      tool_input: { command: 'git push origin main' },
    });
    expect(await wire('codex', request)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'not on main' },
      },
    });
  });

  it("cli.md W4: a plugin matching Edit|Write sees Codex's apply_patch, as Codex's own matchers do; the payload keeps apply_patch", async () => {
    const seen = join(ws.dir, `seen${ws.n}.json`);
    const command = `cat > '${seen}'; echo 'no edits here' >&2; exit 2`;
    const hooks = {
      PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command }] }],
    };
    await ok(['install', await plugin('edits', hooks), '--yes']);
    const patch = '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n';
    const call = (tool: string) =>
      codex('c7', 'PreToolUse', {
        tool_name: tool,
        tool_input: { command: patch },
        tool_use_id: 'call_1',
      });
    // The session pinned first: the event reads the pin's tables, whose buckets are by name.
    await wire('codex', codex('c7', 'SessionStart', { source: 'startup' }));
    expect((await wire('codex', call('apply_patch')))?.['hookSpecificOutput']).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: 'no edits here',
    });
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toMatchObject({
      tool_name: 'apply_patch',
      tool_input: { command: patch },
    });
    expect(await wire('codex', call('Bash'))).toBeNull();
  });

  it("cli.md W4, engine.md F2: an `if` rule naming Edit holds for Codex's apply_patch when a file the patch names matches, also one named relative to the project", async () => {
    const hooks = {
      PreToolUse: [
        {
          matcher: 'Edit|Write',
          hooks: [
            { type: 'command', command: "echo 'not in /etc' >&2; exit 2", if: 'Edit(/etc/**)' },
          ],
        },
      ],
    };
    await ok(['install', await plugin('etc-guard', hooks), '--yes']);
    const call = (...files: string[]) =>
      codex('c8', 'PreToolUse', {
        tool_name: 'apply_patch',
        tool_input: {
          command: `*** Begin Patch\n${files.map((f) => `*** Update File: ${f}\n@@\n-a\n+b\n`).join('')}*** End Patch\n`,
        },
        tool_use_id: 'call_1',
      });
    const denied = { permissionDecision: 'deny', permissionDecisionReason: 'not in /etc' };
    await wire('codex', codex('c8', 'SessionStart', { source: 'startup' }));
    expect((await wire('codex', call('/etc/passwd')))?.['hookSpecificOutput']).toMatchObject(
      denied,
    );
    const climb = `${'../'.repeat(ws.repo.split('/').length)}etc/passwd`;
    expect((await wire('codex', call('a.txt', climb)))?.['hookSpecificOutput']).toMatchObject(
      denied,
    );
    expect(await wire('codex', call('a.txt'))).toBeNull();
  });

  it('Stop: a plugin block continues the turn with decision block and the reason', async () => {
    await ok(['install', await stopAgain(), '--yes']);
    const stop = codex('c2', 'Stop', { stop_hook_active: false, last_assistant_message: 'done' });
    expect(await wire('codex', stop)).toEqual({ decision: 'block', reason: 'not yet' });
  });

  it('R1: a plugin disabled mid-session keeps running in that Codex session until it ends', async () => {
    await ok(['install', GUARD, '--yes']);
    await wire('codex', codex('ca', 'SessionStart', { source: 'startup' }));
    await ok(['disable', 'guard']);
    const bash = codex('ca', 'PreToolUse', {
      tool_name: 'Bash',
      tool_input: { command: FORCE_PUSH },
      tool_use_id: 'call_1',
    });
    expect((await wire('codex', bash))?.['hookSpecificOutput'].permissionDecision).toBe('deny');
    await wire('codex', codex('ca', 'SessionEnd', { reason: 'other' }));
    expect(await wire('codex', bash)).toBeNull();
  });
});
