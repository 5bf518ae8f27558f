import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/built-bin.js';
import { fixture, group, printsJson, sh } from '../helpers/hook-fixtures.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';

/**
 * End to end: user hooks files written as Deep Agents' reference and Claude Code read them,
 * dispatched by the built `hookpm run` to real handlers.
 */
const ws = useBinWorkspace('e2e-reference-forms', '.deepagents');

const userFile = (): string => join(ws.home, '.deepagents', 'hooks.json');

interface RunResult {
  permission: { decision: string; reason: string | null } | null;
  context: string[];
  runs: { handler: string; exitCode: number | null }[];
  diagnostics: { code: string; severity: string; path?: string; message: string }[];
}

async function run(event: string, payload: Record<string, unknown>): Promise<RunResult> {
  const result = await runBin(['run', event, '--payload', '-', '--json'], {
    cwd: ws.repo,
    env: { PATH: process.env.PATH ?? '', HOME: ws.home, HOOKPM_HOME: join(ws.home, 'hookpm') },
    stdin: JSON.stringify(payload),
  });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as RunResult;
}

const codes = (r: RunResult): string[] => r.diagnostics.map((d) => d.code);

describe('legacy user files as the reference migrates them (engine.md C4)', () => {
  it('"events": [] runs on every mapped event; a string command is skipped with legacy_unmapped and never runs', async () => {
    const log = join(ws.dir, `legacy-${ws.n}`);
    await mkdir(log);
    const stringRan = join(ws.dir, `string-ran-${ws.n}`);
    await writeFile(
      userFile(),
      JSON.stringify({
        hooks: [
          { command: ['sh', '-c', `cat > "$(mktemp -p '${log}')"`], events: [] },
          { command: `touch '${stringRan}'`, events: ['session.end'] },
        ],
      }),
    );
    const end = await run('SessionEnd', { reason: 'exit' });
    expect(end.runs).toHaveLength(1);
    const compact = await run('PreCompact', { trigger: 'manual' });
    expect(compact.runs).toHaveLength(2); // context.offload and context.compact
    expect(codes(end)).toContain('legacy_unmapped');
    expect(end.diagnostics.find((d) => d.code === 'legacy_unmapped')?.message).toContain(
      'not an argv list',
    );
    expect(existsSync(stringRan)).toBe(false);
    const stdins = await Promise.all(
      (await readdir(log)).map(async (name) => readFile(join(log, name), 'utf8')),
    );
    expect(stdins.sort()).toEqual([
      '{"event":"context.compact"}',
      '{"event":"context.offload"}',
      '{"event":"session.end"}',
    ]);
  });

  it('a legacy list with a non-object item loads nothing: invalid_config, and no entry runs', async () => {
    const ran = join(ws.dir, `ran-${ws.n}`);
    await writeFile(
      userFile(),
      JSON.stringify({ hooks: [{ command: ['touch', ran], events: [] }, 'echo'] }),
    );
    const end = await run('SessionEnd', { reason: 'exit' });
    expect(end.runs).toEqual([]);
    expect(end.diagnostics).toEqual([
      expect.objectContaining({ code: 'invalid_config', severity: 'error' }),
    ]);
    expect(existsSync(ran)).toBe(false);
  });
});

describe('duplicate keys in a user file (plugins.md P4)', () => {
  it('a repeated key is a duplicate_key warning and the last value is used: the guard still denies', async () => {
    const guard = JSON.stringify({
      PreToolUse: [group('Bash', sh(`echo 'no rm' >&2; exit 2`))],
    });
    await writeFile(userFile(), `{"hooks": {"Stop": []},\n"hooks": ${guard}}`);
    const result = await run('PreToolUse', { tool_name: 'Bash' });
    expect(result.permission).toEqual({ decision: 'deny', reason: 'no rm', interrupt: false });
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        code: 'duplicate_key',
        severity: 'warning',
        path: `${userFile()}:2:1`,
      }),
    ]);
  });
});

describe('Claude Code forms (engine.md E1, M5, the handler table)', () => {
  it('E1: ".*" on Stop (no matcher field) and "^.*$" on a payload without tool_name are wildcards that run', async () => {
    await writeFile(
      userFile(),
      JSON.stringify({
        hooks: {
          Stop: [group('.*', sh('true'))],
          PreToolUse: [group('^.*$', sh('true')), group('Bash', sh('true'))],
        },
      }),
    );
    const stop = await run('Stop', {});
    expect(stop.runs.map((r) => r.handler)).toEqual(['Stop:0:0']);
    expect(codes(stop)).toEqual([]);
    const pre = await run('PreToolUse', {});
    expect(pre.runs.map((r) => r.handler)).toEqual(['PreToolUse:0:0']);
  });

  it('M5: a JSON block without a reason denies with "Blocked by hook", unless an equal deny gives a reason', async () => {
    await writeFile(
      userFile(),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            group('Bash', sh(printsJson({ decision: 'block' }))),
            group('Bash', sh(printsJson({ decision: 'block', reason: 'protected branch' }))),
          ],
        },
      }),
    );
    expect((await run('PreToolUse', { tool_name: 'Bash' })).permission).toEqual({
      decision: 'deny',
      reason: 'protected branch',
      interrupt: false,
    });
    expect((await run('PreToolUse', { tool_name: 'Edit' })).permission).toBeNull();
    await writeFile(
      userFile(),
      JSON.stringify({
        hooks: { PreToolUse: [group(null, sh(printsJson({ decision: 'block' })))] },
      }),
    );
    expect((await run('PreToolUse', { tool_name: 'Bash' })).permission).toEqual({
      decision: 'deny',
      reason: 'Blocked by hook',
      interrupt: false,
    });
  });

  it('the handler table: "command" + "args" runs the program with its arguments; shell "bash" runs the command under bash', async () => {
    await writeFile(
      userFile(),
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            group(null, {
              type: 'command',
              command: fixture('print-args.mjs'),
              args: ['a b', '$(id)'],
            }),
            group(null, { type: 'command', command: 'echo "$0"', shell: 'bash' }),
          ],
        },
      }),
    );
    const result = await run('UserPromptSubmit', { prompt: 'hi' });
    expect(result.context).toEqual(['["a b","$(id)"]', 'bash']);
  });
});
