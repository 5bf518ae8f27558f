import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHandler } from '../../src/engine/run-handler.js';
import { parseHooksDocument } from '../../src/hooks/parse-document.js';
import { buildSnapshot } from '../../src/hooks/snapshot/snapshot.js';
import type { SnapshotHandler } from '../../src/hooks/types.js';
import { fixture, makeTempDir, removeDir } from './runner-fixtures.js';

/**
 * Claude Code's handler forms from a real hooks document to a real child process (engine.md
 * section 3, the handler table's `args` and `shell`): parsed, put in a snapshot
 * and run, as a session runs them.
 */
let work: string;
let emptyPath: string;

beforeAll(() => {
  work = makeTempDir('exec-forms');
  emptyPath = join(work, 'empty-path');
  mkdirSync(emptyPath);
});
afterAll(() => removeDir(work));

/** The snapshot handlers of a user document holding `handlers` under Stop. */
function handlersOf(...handlers: object[]): SnapshotHandler[] {
  const parsed = parseHooksDocument(
    { hooks: { Stop: [{ hooks: handlers }] } },
    { file: 'hooks.json', legacy: false },
  );
  if (parsed.config === null) throw new Error('Assertion failed: the document did not load');
  return [
    ...buildSnapshot({
      projectDir: work,
      sources: [{ origin: 'user', file: 'hooks.json', config: parsed.config }],
    }).handlers,
  ];
}

/** PATH holding the directory of this Node, so a bare `node` is this one. */
const PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;

function run(handler: SnapshotHandler, path = PATH) {
  return runHandler(handler, { stdin: '{}', cwd: work, projectDir: work, env: { PATH: path } });
}

describe('exec form: command + args (engine.md section 3 args, X3)', () => {
  it('"command": "node", "args": [script, ...] runs node with those arguments, not a bare node', async () => {
    const [handler] = handlersOf({
      type: 'command',
      command: 'node',
      args: [fixture('print-args.mjs'), 'one', 'two words'],
    });
    const result = await run(handler!);
    expect(result).toMatchObject({ exitCode: 0, failure: null, timedOut: false });
    expect(JSON.parse(result.stdout)).toEqual(['one', 'two words']);
  });

  it('X3: args are argv, never a shell line: metacharacters arrive as data and ${CLAUDE_PROJECT_DIR} is substituted', async () => {
    const [handler] = handlersOf({
      type: 'command',
      command: fixture('print-args.mjs'),
      args: ['$(touch pwned)', '`id`', 'a;b|c', '${CLAUDE_PROJECT_DIR}/x', '$HOME'],
    });
    const result = await run(handler!);
    expect(JSON.parse(result.stdout)).toEqual([
      '$(touch pwned)',
      '`id`',
      'a;b|c',
      `${work}/x`,
      '$HOME',
    ]);
    expect(existsSync(join(work, 'pwned'))).toBe(false);
  });

  it('X8: the exec form of a program that does not exist is launch_failed, naming the program', async () => {
    const [handler] = handlersOf({ type: 'command', command: 'no-such-program-hookpm', args: [] });
    const result = await run(handler!);
    expect(result.failure).toEqual({
      kind: 'launch_failed',
      message: 'no-such-program-hookpm: program not found',
    });
  });
});

describe('shell (engine.md section 3 shell, X3)', () => {
  it('shell "bash" runs the command under bash; "sh" and no shell run it under /bin/sh', async () => {
    const [bash, sh, plain] = handlersOf(
      { type: 'command', command: 'echo "$0"; [[ -n x ]] && echo bash-only', shell: 'bash' },
      { type: 'command', command: 'echo "$0"', shell: 'sh' },
      { type: 'command', command: 'echo "$0"' },
    );
    expect(bash!.shell).toBe('bash');
    const results = await Promise.all([run(bash!), run(sh!), run(plain!)]);
    expect(results.map((r) => r.stdout)).toEqual(['bash\nbash-only\n', '/bin/sh\n', '/bin/sh\n']);
  });

  it('engine.md section 3: shell "bash" where no bash is on PATH is launch_failed, never run by another shell', async () => {
    const [handler] = handlersOf({
      type: 'command',
      command: `touch ${join(work, 'ran')}`,
      shell: 'bash',
    });
    const result = await run(handler!, emptyPath);
    expect(result.failure).toEqual({ kind: 'launch_failed', message: 'bash: program not found' });
    expect(result.exitCode).toBeNull();
    expect(existsSync(join(work, 'ran'))).toBe(false);
  });

  it('a shell beside args is not used: the program runs directly', async () => {
    const [handler] = handlersOf({
      type: 'command',
      command: fixture('print-args.mjs'),
      args: ['$0'],
      shell: 'bash',
    });
    expect(handler!.shell).toBeUndefined();
    expect(JSON.parse((await run(handler!)).stdout)).toEqual(['$0']);
  });
});
