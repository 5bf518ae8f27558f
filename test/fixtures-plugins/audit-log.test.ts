import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPluginFiles, groupMatches } from './plugin-files.js';
import { payload, runHook, useSandboxes } from './run-hook.js';
import type { HookSandbox } from './run-hook.js';

const sandbox = useSandboxes('audit-log');

function lines(box: HookSandbox): any[] {
  return readFileSync(join(box.data, 'audit.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

describe('audit-log (example plugin)', () => {
  it('P2, C1, E1-E2: its manifest and hooks.json are valid, with match-all PreToolUse and PostToolUse groups (E1)', () => {
    checkPluginFiles('audit-log', ['PreToolUse', 'PostToolUse']);
    expect(groupMatches('audit-log', 'PreToolUse', 'Bash')).toBe(true);
    expect(groupMatches('audit-log', 'PreToolUse', 'mcp__github__create_issue')).toBe(true);
    expect(groupMatches('audit-log', 'PreToolUse', 'Read')).toBe(true);
    expect(groupMatches('audit-log', 'PostToolUse', 'Edit')).toBe(true);
  });

  it('appends one JSON line per tool use, before and after, and never blocks (no output, exit 0)', async () => {
    const box = sandbox();
    const pre = payload('PreToolUse', box.project, {
      tool_name: 'Bash',
      tool_input: { command: 'npm test -- --watch=false', description: 'tests' },
      tool_use_id: 'toolu_07',
    });
    const post = {
      ...pre,
      hook_event_name: 'PostToolUse',
      tool_response: { stdout: 'ok', exit_code: 0 },
    };
    const first = await runHook(box, 'PreToolUse', pre);
    const second = await runHook(box, 'PostToolUse', post);
    for (const run of [first, second])
      expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const [a, b] = lines(box);
    expect(a).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      event: 'PreToolUse',
      session: 'sess-0123',
      tool: 'Bash',
      toolUseId: 'toolu_07',
      cwd: box.project,
      input: 'npm test -- --watch=false',
    });
    expect(b).toMatchObject({ event: 'PostToolUse', tool: 'Bash', ok: true });
    expect(statSync(join(box.data, 'audit.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('summarises the input in one truncated line: file paths for file tools, compact JSON otherwise', async () => {
    const box = sandbox();
    const write = payload('PreToolUse', box.project, {
      tool_name: 'Write',
      tool_input: { file_path: '/repo/src/a.ts', content: 'x'.repeat(50_000) },
    });
    const mcp = payload('PreToolUse', box.project, {
      tool_name: 'mcp__github__create_issue',
      tool_input: { title: 'Bug', body: 'line\n'.repeat(500) },
    });
    await runHook(box, 'PreToolUse', write);
    await runHook(box, 'PreToolUse', mcp);
    const [a, b] = lines(box);
    expect(a.input).toBe('/repo/src/a.ts');
    expect(b.input.length).toBe(300);
    expect(b.input.startsWith('{"title":"Bug","body":"line\\nline')).toBe(true);
    expect(b.input.endsWith('...')).toBe(true);
  });

  it('masks values that look like credentials in the summary', async () => {
    const box = sandbox();
    const input = payload('PreToolUse', box.project, {
      tool_name: 'Bash',
      tool_input: {
        command:
          'OPENAI_API_KEY=sk-live-123 curl -H "Authorization: Bearer abc.def" https://user:pw@api.example/v1 --password=hunter2',
      },
    });
    await runHook(box, 'PreToolUse', input);
    const [entry] = lines(box);
    expect(entry.input).toBe(
      'OPENAI_API_KEY=*** curl -H "Authorization: Bearer ***" https://***@api.example/v1 --password=***',
    );
    for (const secret of ['sk-live-123', 'abc.def', 'user:pw', 'hunter2'])
      expect(entry.input).not.toContain(secret);
  });

  it('records a failed tool call as ok: false, and creates the data directory when it is missing', async () => {
    const box = sandbox();
    rmSync(box.data, { recursive: true, force: true });
    const post = payload('PostToolUse', box.project, {
      tool_name: 'Edit',
      tool_input: { file_path: 'src/b.ts', old_string: 'a', new_string: 'b' },
      tool_response: { success: false },
    });
    const run = await runHook(box, 'PostToolUse', post);
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(lines(box)[0]).toMatchObject({ tool: 'Edit', input: 'src/b.ts', ok: false });
  });

  it('X8: stdin that is not JSON is reported on stderr and the tool is never blocked (exit 0)', async () => {
    const box = sandbox();
    const run = await runHook(box, 'PreToolUse', {}, { rawStdin: '{"truncated": ' });
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(run.stderr).toMatch(/^audit-log: /);
  });
});
