// End-to-end checks of the harness and of the Claude Code behaviour it relies on (a real, pinned
// Claude Code against the loopback fake model): not tests of hookpm. The facts they pin are listed
// at the top of claude-code.ts. Every command the fake model asks for is harmless if a hook fails
// to stop it (`echo`, `exit 3`, or `touch` of a marker file inside the temporary repository).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_VERSION, commandTurn, installClaudeCode } from './claude-code.js';
import type { ClaudeTurn } from './claude-code.js';
import type { FakeMessagesApi } from './fake-messages-api.js';
import { GIT, requireTool } from '../helpers/system-package.js';

const TURN_MS = 60_000;
const EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'Stop',
  'SessionEnd',
  'Notification',
  'PermissionRequest',
  'PreCompact',
  'SubagentStart',
  'SubagentStop',
  'PostToolUseFailure',
];
const TOOL_EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'PermissionRequest',
  'PostToolUseFailure',
]);

interface Workspace {
  root: string;
  home: string;
  repo: string;
  log: string;
}
interface Result {
  is_error: boolean;
  result: string;
  session_id: string;
  terminal_reason: string;
  stop_reason: string;
  permission_denials: { tool_name: string; tool_use_id: string; tool_input: unknown }[];
}
type Hooks = Record<string, { matcher?: string; hooks: { type: 'command'; command: string }[] }[]>;

let binary: string;
let top: string;
let apis: FakeMessagesApi[] = [];
let n = 0;
let gitPath: string;

beforeAll(async () => {
  gitPath = await requireTool(GIT);
  top = mkdtempSync(join(tmpdir(), 'hookpm-agents-'));
  // The first install downloads about 400 MB into the agent cache.
  binary = await installClaudeCode();
}, 600_000);
afterEach(async () => {
  await Promise.all(apis.map((api) => api.close()));
  apis = [];
});
afterAll(() => {
  if (top) rmSync(top, { recursive: true, force: true });
});

function workspace(): Workspace {
  n += 1;
  const root = join(top, `w${n}`);
  const ws = { root, home: join(root, 'home'), repo: join(root, 'repo'), log: join(root, 'log') };
  mkdirSync(ws.home, { recursive: true });
  mkdirSync(ws.repo, { recursive: true });
  execFileSync(gitPath, ['init', '-q', ws.repo]);
  return ws;
}

/** A POSIX shell word holding `text` exactly. */
function sh(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A script file in the workspace; the hook command is `sh <file>`. */
function script(ws: Workspace, name: string, body: string): string {
  const file = join(ws.root, name);
  writeFileSync(file, body);
  return `sh ${sh(file)}`;
}

/** A hook command that appends its stdin payload as one line to `ws.log`. */
function logger(ws: Workspace): string {
  return script(ws, 'log-hook.sh', `cat >> ${sh(ws.log)}\necho >> ${sh(ws.log)}\n`);
}

/** A hook command that prints `json` on stdout and exits 0. */
function prints(json: unknown): string {
  return `printf '%s\\n' ${sh(JSON.stringify(json))}`;
}

function writeSettings(dir: string, hooks: Hooks): void {
  mkdirSync(join(dir, '.claude'), { recursive: true });
  writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks }, null, 2));
}

function group(command: string, matcher?: string): Hooks[string][number] {
  return { ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command }] };
}

function payloads(ws: Workspace): Record<string, unknown>[] {
  if (!existsSync(ws.log)) return [];
  return readFileSync(ws.log, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function turn(
  ws: Workspace,
  toolCommand: string,
  /** null: no --allowedTools (a default parameter would take undefined for ['Bash']). */
  allowedTools: string[] | null = ['Bash'],
): Promise<{ api: FakeMessagesApi; run: ClaudeTurn; result: Result }> {
  const { api, run } = await commandTurn({
    toolCommand,
    maxToolCalls: 3,
    apis,
    home: ws.home,
    cwd: ws.repo,
    binary,
    timeoutMs: TURN_MS - 10_000,
    ...(allowedTools ? { allowedTools } : {}),
  });
  return { api, run, result: run.result as Result };
}

describe('Claude Code harness', () => {
  it('installs the pinned Claude Code outside the checkout', () => {
    expect(binary).toMatch(new RegExp(`@anthropic-ai\\+claude-code@${CLAUDE_CODE_VERSION}`));
    expect(binary.startsWith(process.cwd())).toBe(false);
    expect(execFileSync(binary, ['--version'], { encoding: 'utf8' })).toContain(
      CLAUDE_CODE_VERSION,
    );
  });

  it(
    'runs an allowed Bash call with no hooks, and its output comes back as the tool_result',
    async () => {
      const ws = workspace();
      const { api, result } = await turn(ws, 'echo hookpm-harness-ok');
      expect(api.toolResults()).toEqual([
        expect.objectContaining({ content: 'hookpm-harness-ok', is_error: false }),
      ]);
      expect(api.mainRequests().map((r) => r.answer)).toEqual(['tool_use', 'final']);
      expect(
        api.requests.every((r) => r.method === 'POST' && r.url === '/v1/messages?beta=true'),
      ).toBe(true);
      expect(result).toMatchObject({ is_error: false, result: 'done', permission_denials: [] });
      // Its temporary files stay in the private TMPDIR.
      expect(existsSync(join(ws.home, 'tmp'))).toBe(true);
    },
    TURN_MS,
  );

  it(
    'a PreToolUse deny keeps the command from running and reaches the model as an error tool_result',
    async () => {
      const ws = workspace();
      const deny = {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'harness-deny',
        },
      };
      writeSettings(ws.home, { PreToolUse: [group(prints(deny), 'Bash')] });
      const { api, result } = await turn(ws, 'touch hookpm-harness-marker');
      expect(existsSync(join(ws.repo, 'hookpm-harness-marker'))).toBe(false);
      const [denied] = api.toolResults();
      expect(denied).toMatchObject({
        content: 'PreToolUse:Bash hook error: harness-deny',
        is_error: true,
      });
      expect(result.permission_denials).toEqual([
        {
          tool_name: 'Bash',
          tool_use_id: denied?.tool_use_id,
          tool_input: { command: 'touch hookpm-harness-marker' },
        },
      ]);
      expect(result).toMatchObject({ is_error: false, result: 'done' });
    },
    TURN_MS,
  );

  it(
    'runs the hooks of six events in a -p turn, with one session_id, and the PreToolUse payload',
    async () => {
      const ws = workspace();
      const log = logger(ws);
      writeSettings(
        ws.home,
        Object.fromEntries(
          EVENTS.map((event) => [event, [group(log, TOOL_EVENTS.has(event) ? '*' : undefined)]]),
        ),
      );
      const { result } = await turn(ws, 'echo hookpm-harness-ok');
      const seen = payloads(ws);
      expect(seen.map((p) => p.hook_event_name)).toEqual([
        'SessionStart',
        'UserPromptSubmit',
        'PreToolUse',
        'PostToolUse',
        'Stop',
        'SessionEnd',
      ]);
      expect(new Set(seen.map((p) => p.session_id))).toEqual(new Set([result.session_id]));
      for (const p of seen)
        expect(p).toMatchObject({ cwd: ws.repo, transcript_path: expect.any(String) });
      const keys = Object.fromEntries(seen.map((p) => [p.hook_event_name, Object.keys(p).sort()]));
      const common = ['cwd', 'hook_event_name', 'session_id', 'transcript_path'];
      const turnKeys = [...common, 'permission_mode', 'prompt_id'];
      const toolKeys = [...turnKeys, 'effort', 'tool_input', 'tool_name', 'tool_use_id'];
      expect(keys).toEqual({
        SessionStart: [...common, 'source'].sort(),
        UserPromptSubmit: [...turnKeys, 'prompt'].sort(),
        PreToolUse: toolKeys.sort(),
        PostToolUse: [...toolKeys, 'duration_ms', 'tool_response'].sort(),
        Stop: [
          ...turnKeys,
          'effort',
          'stop_hook_active',
          'last_assistant_message',
          'background_tasks',
          'session_crons',
        ].sort(),
        SessionEnd: [...common, 'prompt_id', 'reason'].sort(),
      });
      const pre = seen.find((p) => p.hook_event_name === 'PreToolUse');
      expect(pre).toMatchObject({
        tool_name: 'Bash',
        tool_input: { command: 'echo hookpm-harness-ok' },
        permission_mode: 'default',
      });
      const post = seen.find((p) => p.hook_event_name === 'PostToolUse');
      expect(post).toMatchObject({ tool_response: { stdout: 'hookpm-harness-ok', stderr: '' } });
      expect(seen[0]).toMatchObject({ source: 'startup' });
      expect(seen[1]).toMatchObject({ prompt: 'Run the command.' });
      expect(seen[4]).toMatchObject({ stop_hook_active: false, last_assistant_message: 'done' });
      expect(seen[5]).toMatchObject({ reason: 'other' });
    },
    TURN_MS,
  );

  it(
    'fires PermissionRequest for a call -p mode does not allow, and PostToolUseFailure for a failing one',
    async () => {
      const ws = workspace();
      const log = logger(ws);
      writeSettings(ws.home, Object.fromEntries(EVENTS.map((event) => [event, [group(log, '*')]])));
      const denied = await turn(ws, 'touch hookpm-harness-marker', null);
      expect(existsSync(join(ws.repo, 'hookpm-harness-marker'))).toBe(false);
      expect(denied.result.permission_denials).toHaveLength(1);
      const events = payloads(ws).map((p) => p.hook_event_name);
      expect(events).toEqual([
        'SessionStart',
        'UserPromptSubmit',
        'PreToolUse',
        'PermissionRequest',
        'Stop',
        'SessionEnd',
      ]);

      rmSync(ws.log);
      await turn(ws, 'exit 3');
      const failure = payloads(ws).find((p) => p.hook_event_name === 'PostToolUseFailure');
      expect(payloads(ws).map((p) => p.hook_event_name)).not.toContain('PostToolUse');
      expect(failure).toMatchObject({
        error: 'Exit code 3',
        is_interrupt: false,
        tool_name: 'Bash',
      });
    },
    TURN_MS * 2,
  );

  it(
    'runs a command listed in both user and project settings once; a different one in each',
    async () => {
      const ws = workspace();
      const log = logger(ws);
      writeSettings(ws.home, { PreToolUse: [group(log, 'Bash')] });
      writeSettings(ws.repo, { PreToolUse: [group(log, 'Bash')] });
      await turn(ws, 'echo hookpm-harness-ok');
      expect(payloads(ws).map((p) => p.hook_event_name)).toEqual(['PreToolUse']);

      rmSync(ws.log);
      writeSettings(ws.repo, { PreToolUse: [group(`${log} `, 'Bash')] });
      await turn(ws, 'echo hookpm-harness-ok');
      expect(payloads(ws).map((p) => p.hook_event_name)).toEqual(['PreToolUse', 'PreToolUse']);
    },
    TURN_MS * 2,
  );

  it(
    'PreToolUse exit 2 blocks with the stderr as the reason; exit 1 does not block',
    async () => {
      const ws = workspace();
      const two = 'echo harness-exit2 >&2; exit 2';
      writeSettings(ws.home, { PreToolUse: [group(two, 'Bash')] });
      const blocked = await turn(ws, 'touch hookpm-harness-marker');
      expect(existsSync(join(ws.repo, 'hookpm-harness-marker'))).toBe(false);
      expect(blocked.api.toolResults()).toEqual([
        expect.objectContaining({
          content: `PreToolUse:Bash hook error: [${two}]: harness-exit2\n`,
          is_error: true,
        }),
      ]);
      expect(blocked.result.permission_denials).toHaveLength(1);

      writeSettings(ws.home, { PreToolUse: [group('echo harness-exit1 >&2; exit 1', 'Bash')] });
      const ran = await turn(ws, 'touch hookpm-harness-marker');
      expect(existsSync(join(ws.repo, 'hookpm-harness-marker'))).toBe(true);
      expect(ran.api.toolResults()).toEqual([expect.objectContaining({ is_error: false })]);
      expect(JSON.stringify(ran.api.requests)).not.toContain('harness-exit1');
      expect(ran.run.stderr).not.toContain('harness-exit1');
    },
    TURN_MS * 2,
  );

  it(
    'PreToolUse {"continue": false} lets the command run, then ends the turn without asking the model again',
    async () => {
      const ws = workspace();
      const stop = prints({ continue: false, stopReason: 'harness-stop' });
      writeSettings(ws.home, { PreToolUse: [group(stop, 'Bash')] });
      const { api, run, result } = await turn(ws, 'touch hookpm-harness-marker');
      expect(existsSync(join(ws.repo, 'hookpm-harness-marker'))).toBe(true);
      expect(api.mainRequests().map((r) => r.answer)).toEqual(['tool_use']);
      expect(result).toMatchObject({
        terminal_reason: 'hook_stopped',
        stop_reason: 'tool_use',
        result: '',
        is_error: false,
        permission_denials: [],
      });
      expect(run.stdout).not.toContain('harness-stop');
    },
    TURN_MS,
  );

  it(
    'Stop {"decision": "block"} sends the reason to the model in one more request',
    async () => {
      const ws = workspace();
      const flag = join(ws.root, 'stop-blocked');
      const block = JSON.stringify({ decision: 'block', reason: 'harness-stop-block' });
      const stop = script(
        ws,
        'stop-hook.sh',
        [
          `cat >> ${sh(ws.log)}; echo >> ${sh(ws.log)}`,
          `if [ ! -e ${sh(flag)} ]; then : > ${sh(flag)}; printf '%s\\n' ${sh(block)}; fi`,
          '',
        ].join('\n'),
      );
      writeSettings(ws.home, { Stop: [group(stop)] });
      const { api, result } = await turn(ws, 'echo hookpm-harness-ok');
      const main = api.mainRequests();
      expect(main.map((r) => r.answer)).toEqual(['tool_use', 'final', 'tool_use', 'final']);
      const messages = (main[2]?.body as { messages: { role: string; content: unknown }[] })
        .messages;
      const lastUser = [...messages].reverse().find((m) => m.role === 'user');
      expect(lastUser?.content).toEqual(
        expect.stringContaining('Stop hook feedback:\nharness-stop-block'),
      );
      expect(payloads(ws).map((p) => p.stop_hook_active)).toEqual([false, true]);
      expect(result).toMatchObject({ terminal_reason: 'completed', result: 'done' });
    },
    TURN_MS,
  );
});
