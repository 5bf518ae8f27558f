import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkPluginFiles, expectGroupMatches } from './plugin-files.js';
import { payload, runHook, useSandboxes } from './run-hook.js';
import type { HookSandbox } from './run-hook.js';

const REAL_PRETTIER = resolve(
  fileURLToPath(import.meta.url),
  '../../../node_modules/prettier/bin/prettier.cjs',
);

const sandbox = useSandboxes('format-on-write');

function write(
  box: HookSandbox,
  rel: string,
  content: string,
  tool = 'Write',
): Record<string, unknown> {
  const file = join(box.project, rel);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, content);
  return payload('PostToolUse', box.project, {
    tool_name: tool,
    tool_input:
      tool === 'Write'
        ? { file_path: file, content }
        : { file_path: file, old_string: 'a', new_string: 'b' },
    tool_response: { filePath: file, success: true },
    tool_use_id: 'toolu_02',
  });
}

describe('format-on-write (example plugin)', () => {
  it('P2, C1, E1-E2: its manifest and hooks.json are valid, with one PostToolUse handler', () => {
    checkPluginFiles('format-on-write', ['PostToolUse']);
    expectGroupMatches(
      'format-on-write',
      'PostToolUse',
      ['Write', 'Edit', 'MultiEdit'],
      ['WriteFile', 'Read', 'NotebookEdit'],
    );
  });

  it("formats a written TypeScript file with the project's own prettier and says so (L1, L2)", async () => {
    const box = sandbox();
    mkdirSync(join(box.project, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(REAL_PRETTIER, join(box.project, 'node_modules', '.bin', 'prettier'));
    const run = await runHook(
      box,
      'PostToolUse',
      write(box, 'src/app.ts', 'const  x = {a:1,b:2}\n'),
    );
    expect(run.code).toBe(0);
    expect(readFileSync(join(box.project, 'src/app.ts'), 'utf8')).toBe(
      'const x = { a: 1, b: 2 };\n',
    );
    expect(run.json).toEqual({
      systemMessage: 'format-on-write: formatted src/app.ts with prettier',
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        additionalContext:
          'src/app.ts was reformatted by prettier after your edit; read it again before editing it further.',
      },
    });
  });

  it('formats an edited Go file with gofmt from PATH', async () => {
    const box = sandbox();
    box.addTool('gofmt', { script: '[ "$1" = "-w" ] && printf "package main\\n" > "$2"' });
    const run = await runHook(box, 'PostToolUse', write(box, 'main.go', 'package   main', 'Edit'));
    expect(run.code).toBe(0);
    expect(readFileSync(join(box.project, 'main.go'), 'utf8')).toBe('package main\n');
    expect(run.json.systemMessage).toBe('format-on-write: formatted main.go with gofmt');
  });

  it('never fails the tool: a formatter error is only reported in systemMessage, exit 0', async () => {
    const box = sandbox();
    box.addTool('black', {
      script: 'echo "error: cannot format bad.py: Cannot parse" >&2; exit 123',
    });
    const run = await runHook(box, 'PostToolUse', write(box, 'bad.py', 'def (:\n'));
    expect(run.code).toBe(0);
    expect(run.json).toEqual({
      systemMessage:
        'format-on-write: black could not format bad.py: error: cannot format bad.py: Cannot parse',
    });
    expect(readFileSync(join(box.project, 'bad.py'), 'utf8')).toBe('def (:\n');
  });

  it('does nothing, silently, when the project has no formatter for the file', async () => {
    const box = sandbox();
    for (const [rel, content] of [
      ['notes.txt', 'x  y'],
      ['main.go', 'package   main'],
      ['src/app.ts', 'const  x=1'],
    ] as const) {
      const run = await runHook(box, 'PostToolUse', write(box, rel, content));
      expect(run).toMatchObject({ code: 0, stdout: '' });
      expect(readFileSync(join(box.project, rel), 'utf8')).toBe(content);
    }
  });

  it('never touches a file outside the project, even with a formatter available', async () => {
    const box = sandbox();
    box.addTool('gofmt', { script: 'printf "changed\\n" > "$2"' });
    const outside = join(box.base, 'elsewhere.go');
    writeFileSync(outside, 'package   x');
    const input = payload('PostToolUse', box.project, {
      tool_name: 'Write',
      tool_input: { file_path: outside, content: 'package   x' },
      tool_response: { success: true },
    });
    const run = await runHook(box, 'PostToolUse', input);
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(outside, 'utf8')).toBe('package   x');
    // H5 in spirit: a symlink inside the project that points outside is not followed either.
    symlinkSync(outside, join(box.project, 'link.go'));
    const viaLink = await runHook(box, 'PostToolUse', write(box, 'other.go', 'package   y'));
    expect(viaLink.json.systemMessage).toBe('format-on-write: formatted other.go with gofmt');
    const linked = payload('PostToolUse', box.project, {
      tool_name: 'Edit',
      tool_input: { file_path: join(box.project, 'link.go'), old_string: 'a', new_string: 'b' },
    });
    expect(await runHook(box, 'PostToolUse', linked)).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(outside, 'utf8')).toBe('package   x');
  });
});
