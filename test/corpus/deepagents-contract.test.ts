import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, beforeAll } from 'vitest';
import { readWireOutput } from '../../src/engine/read-wire-output.js';
import { reduceResults } from '../../src/engine/reduce.js';
import { loadWireOutputReader } from '../../src/engine/wire-output-reader.js';
import type { HandlerRun } from '../../src/engine/types.js';
import type { EventName } from '../../src/hooks/events.js';
import type { SnapshotHandler } from '../../src/hooks/types.js';
import { validate } from '../../src/ops/validate/validate.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { printsJson } from '../helpers/hook-fixtures.js';

/**
 * Differential cases against Deep Agents Code (langchain-ai/deepagents, libs/code, snapshot of
 * 2026-08-21: hooks/validate_terminal_sequence.py, hooks/reducer.py, hooks/models/{config,wire}.py,
 * plugins/substitution.py). Deep Agents Code cannot be installed here, so each case states what its
 * source does with the input, beside what hookpm does (engine.md D8-D12).
 */

const ESC = '\x1b';
const BEL = '\x07';

/** Deep Agents Code's own cases (tests/unit_tests/hooks/test_execution.py), and a few more. */
const SEQUENCES: ReadonlyArray<[string, string, boolean]> = [
  ['OSC 0 title, BEL', `${ESC}]0;title${BEL}`, true],
  ['OSC 9 notification, BEL', `${ESC}]9;hello${BEL}`, true],
  ['bare BEL', BEL, true],
  ['OSC 777 ended by ST', `${ESC}]777;notify;hookpm;done${ESC}\\`, true],
  ['OSC 2 then BEL', `${ESC}]2;t${BEL}${BEL}`, true],
  ['OSC 99', `${ESC}]99;i=1;hi${BEL}`, true],
  ['OSC 8 hyperlink', `${ESC}]8;;https://example.com${BEL}`, false],
  ['a newline inside', `${ESC}]9;line\nbreak${BEL}`, false],
  ['CSI colour', `${ESC}[31mred${ESC}[0m`, false],
  ['unterminated OSC', `${ESC}]0;title`, false],
  ['plain text', 'hello', false],
  ['empty', '', false],
  ['C1 control inside', `${ESC}]0;a\u009bb${BEL}`, false],
];

function noteCodes(output: Record<string, unknown>, event: EventName = 'SessionStart'): string[] {
  return readWireOutput(output, event).notes.map((n) => `${n.code}:${n.message}`);
}

const HANDLER: SnapshotHandler = {
  id: 'Stop:0:0',
  event: 'Stop',
  groupIndex: 0,
  handlerIndex: 0,
  origin: 'plugin',
  plugin: 'p@local',
  source: 'hooks/hooks.json',
  matcher: null,
  if: null,
  command: 'true',
  argv: null,
  timeoutSec: 600,
  statusMessage: null,
  pluginEnv: {},
  legacyStdin: null,
};

function run(stdout: string): HandlerRun {
  return {
    handler: HANDLER,
    exitCode: 0,
    signal: null,
    stdout,
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    timedOut: false,
    failure: null,
    durationMs: 1,
  };
}

// L1: a dispatch loads the JSON reader before it parses output; these tests parse directly.
beforeAll(loadWireOutputReader);

describe('Deep Agents Code conformance: terminalSequence (engine.md D8)', () => {
  it.each(SEQUENCES)(
    'D8: %s is %s where Deep Agents Code applies the same value',
    (_name, value, allowed) => {
      const read = readWireOutput({ terminalSequence: value }, 'Stop');
      expect(read.fields?.terminalSequence ?? null).toBe(allowed ? value : null);
      const refused = read.notes.filter((n) => n.code === 'invalid_terminal_sequence');
      expect(refused.length).toBe(allowed ? 0 : 1);
      // Never an "unknown field" note: terminalSequence is a known key.
      expect(read.notes.some((n) => n.message.includes('not a known field'))).toBe(false);
    },
  );

  it('D8: a terminalSequence that is not a string drops the output with invalid_output, as a pydantic str field refuses it', () => {
    const read = readWireOutput({ terminalSequence: 7, systemMessage: 'x' }, 'Stop');
    expect(read.fields).toBeNull();
    expect(read.notes.map((n) => n.code)).toEqual(['invalid_output']);
  });

  it('D8: reduction keeps the allowed sequences in order where the host passes them, and notes each (info) elsewhere', () => {
    const runs = [
      run(JSON.stringify({ terminalSequence: `${ESC}]0;a${BEL}` })),
      run(JSON.stringify({ terminalSequence: `${ESC}[2J` })),
      run(JSON.stringify({ terminalSequence: BEL })),
    ];
    const passed = reduceResults('Stop', runs, {
      snapshotId: 's',
      continuationCount: 0,
      display: { terminalSequences: 'pass' },
    });
    expect(passed.terminalSequences).toEqual([`${ESC}]0;a${BEL}`, BEL]);
    expect(passed.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['invalid_terminal_sequence', 'warning'],
    ]);
    const elsewhere = reduceResults('Stop', runs, { snapshotId: 's', continuationCount: 0 });
    expect(elsewhere.terminalSequences).toBeUndefined();
    expect(elsewhere.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['unsupported_field', 'info'],
      ['invalid_terminal_sequence', 'warning'],
      ['unsupported_field', 'info'],
    ]);
  });
});

describe('Deep Agents Code conformance: output keys it reports as unsupported (engine.md D9)', () => {
  const cases: ReadonlyArray<[EventName, Record<string, unknown>, string[]]> = [
    ['SessionStart', { initialUserMessage: 'go on' }, ['initialUserMessage']],
    ['SessionStart', { sessionTitle: 'Refactor' }, ['sessionTitle']],
    ['SessionStart', { watchPaths: ['src'] }, ['watchPaths']],
    ['SessionStart', { reloadSkills: true }, ['reloadSkills']],
    // Empty values are defaults to Deep Agents Code, not reported.
    ['SessionStart', { watchPaths: [], reloadSkills: false, sessionTitle: '' }, []],
    ['UserPromptSubmit', { sessionTitle: 'T' }, ['sessionTitle']],
    ['PostToolUse', { updatedMCPToolOutput: { content: [] } }, ['updatedMCPToolOutput']],
    // Keys of another event are not that event's: ignored without a note, as its schema ignores them.
    ['PreToolUse', { sessionTitle: 'T' }, []],
  ];
  it.each(cases)('D9: %s with %j reports %j as unsupported_field', (event, specific, keys) => {
    const notes = noteCodes({ hookSpecificOutput: { hookEventName: event, ...specific } }, event);
    expect(notes).toEqual(keys.map((key) => `unsupported_field:${key} is not supported; ignored`));
  });

  it('D9: the output is otherwise applied, as Deep Agents Code applies it (additionalContext kept)', () => {
    const read = readWireOutput(
      {
        hookSpecificOutput: {
          hookEventName: 'SessionStart',
          additionalContext: 'ctx',
          initialUserMessage: 'hi',
        },
      },
      'SessionStart',
    );
    expect(read.fields?.additionalContext).toBe('ctx');
  });
});

describe('Deep Agents Code conformance: what validate warns of (engine.md D10, D11)', () => {
  const ws = useBinWorkspace('deepagents-contract');

  async function validateHooks(hooks: Record<string, unknown>) {
    const file = join(ws.dir, `hooks${ws.n}.json`);
    await writeFile(file, JSON.stringify({ hooks }));
    return validate({ path: file, strict: false });
  }

  it('D11: a handler with argv and no command, which Deep Agents Code drops (command is required), gives argv_without_command; command with argv does not', async () => {
    const report = await validateHooks({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', argv: ['/bin/true'] },
            { type: 'command', command: '/bin/true', argv: ['/bin/true'] },
          ],
        },
      ],
    });
    expect(report.ok).toBe(true);
    expect(report.events).toEqual(['PreToolUse']);
    const found = report.diagnostics.filter((d) => d.code === 'argv_without_command');
    expect(found.map((d) => d.path)).toEqual([
      expect.stringMatching(/:hooks\.PreToolUse\[0\]\.hooks\[0\]$/),
    ]);
    expect(found[0]?.message).toContain('Deep Agents Code requires command');
  });

  it('D11: validate of a plugin directory warns the same', async () => {
    const root = await writeClaudePlugin(join(ws.dir, 'argv-only'), 'argv-only', {
      Stop: [{ hooks: [{ type: 'command', argv: ['/bin/true'] }] }],
    });
    const report = await validate({ path: root, strict: false });
    expect(report.diagnostics.map((d) => d.code)).toContain('argv_without_command');
  });

  it('D10: cold_cache_warning is a known Notification type; a matcher that matches no known type is warned of', async () => {
    const report = await validateHooks({
      Notification: [
        { matcher: 'cold_cache_warning', hooks: [{ type: 'command', command: 'true' }] },
        { matcher: 'permission_prompt|idle_prompt', hooks: [{ type: 'command', command: 'true' }] },
        { matcher: 'cold_cache.*', hooks: [{ type: 'command', command: 'true' }] },
        { matcher: 'cache_cold', hooks: [{ type: 'command', command: 'true' }] },
      ],
    });
    const found = report.diagnostics.filter((d) => d.code === 'unknown_notification_type');
    expect(found.map((d) => d.path)).toEqual([
      expect.stringMatching(/:hooks\.Notification\[3\]\.matcher$/),
    ]);
  });
});

describe('Deep Agents Code conformance through `hookpm wire deepagents` (engine.md D8, D12)', () => {
  const ws = useBinWorkspace('deepagents-wire');

  function payload(event: string, extra: Record<string, unknown> = {}): string {
    return JSON.stringify({
      session_id: `s${ws.n}`,
      transcript_path: join(ws.home, 't.jsonl'),
      cwd: ws.repo,
      hook_event_name: event,
      ...extra,
    });
  }

  async function install(name: string, hooks: Record<string, unknown>): Promise<void> {
    const root = await writeClaudePlugin(join(ws.dir, `plugins${ws.n}`, name), name, hooks);
    const done = await ws.hookpm(['install', root, '--yes']);
    expect(done.code, done.stderr).toBe(0);
  }

  it('D8: wire deepagents passes the allowed terminalSequence on (joined) and drops a refused one with a warning; wire claude gives none', async () => {
    const stop = (value: string) => ({
      type: 'command',
      command: printsJson({ terminalSequence: value }),
    });
    await install('bell', {
      Stop: [{ hooks: [stop(`${ESC}]0;done${BEL}`), stop(`${ESC}[2J`), stop(BEL)] }],
    });
    const body = payload('Stop', { stop_hook_active: false, last_assistant_message: 'ok' });
    const da = await ws.hookpm(['wire', 'deepagents'], { stdin: body });
    expect(da.code).toBe(0);
    expect(JSON.parse(da.stdout)).toEqual({ terminalSequence: `${ESC}]0;done${BEL}${BEL}` });
    expect(da.stderr).toContain('invalid_terminal_sequence');
    const claude = await ws.hookpm(['wire', 'claude'], { stdin: body });
    expect(claude.code).toBe(0);
    expect(claude.stdout).toBe('');
    // The info note is not printed to the agent; the refused one is a warning everywhere.
    expect(claude.stderr).not.toContain('written to the terminal by Deep Agents Code only');
    expect(claude.stderr).toContain('invalid_terminal_sequence');
  });

  it('D9, D10: through wire deepagents a newer unsupported key is a warning on stderr, and a cold_cache_warning Notification reaches the handler matching it', async () => {
    const seen = join(ws.dir, `notified${ws.n}.txt`);
    await install('newer', {
      SessionStart: [
        {
          hooks: [
            {
              type: 'command',
              command: printsJson({
                hookSpecificOutput: {
                  hookEventName: 'SessionStart',
                  additionalContext: 'ctx',
                  sessionTitle: 'Refactor',
                },
              }),
            },
          ],
        },
      ],
      Notification: [
        {
          matcher: 'cold_cache_warning',
          hooks: [{ type: 'command', command: `cat > '${seen}'` }],
        },
      ],
    });
    const start = await ws.hookpm(['wire', 'deepagents'], {
      stdin: JSON.stringify({ ...JSON.parse(payload('SessionStart')), source: 'startup' }),
    });
    expect(start.code).toBe(0);
    expect(JSON.parse(start.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ctx' },
    });
    expect(start.stderr).toContain('unsupported_field: sessionTitle is not supported; ignored');
    const notification = payload('Notification', {
      message: 'The prompt cache is cold',
      notification_type: 'cold_cache_warning',
    });
    const told = await ws.hookpm(['wire', 'deepagents'], { stdin: notification });
    expect(told.code).toBe(0);
    expect(JSON.parse(await readFile(seen, 'utf8'))).toMatchObject({
      hook_event_name: 'Notification',
      notification_type: 'cold_cache_warning',
    });
  });

  it('D12: Deep Agents Code gives CLAUDE_PROJECT_DIR to plugin handlers only, so not to the hookpm wire handler it runs; hookpm gives its plugin handlers the project root all the same', async () => {
    const out = join(ws.dir, `project-dir${ws.n}.txt`);
    await install('where', {
      SessionStart: [
        { hooks: [{ type: 'command', command: `printf '%s' "$CLAUDE_PROJECT_DIR" > '${out}'` }] },
      ],
    });
    const sub = join(ws.repo, 'src', 'deep');
    await mkdir(sub, { recursive: true });
    // No CLAUDE_PROJECT_DIR in wire's own environment, as under Deep Agents Code's user hooks.
    const env = ws.env();
    expect(env['CLAUDE_PROJECT_DIR']).toBeUndefined();
    const body = JSON.stringify({
      ...JSON.parse(payload('SessionStart')),
      cwd: sub,
      source: 'startup',
    });
    const answered = await ws.hookpm(['wire', 'deepagents'], { stdin: body, env, cwd: sub });
    expect(answered.code, answered.stderr).toBe(0);
    expect(await readFile(out, 'utf8')).toBe(ws.repo);
  });
});
