import { describe, expect, it } from 'vitest';
import { parseHooksDocument } from '../../src/hooks/parse-document.js';
import { handlerFormWarnings, shellWords } from '../../src/plugin/handler-form.js';

function warningsOf(...handlers: object[]) {
  const parsed = parseHooksDocument(
    { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: handlers }] } },
    { file: 'hooks/hooks.json', legacy: false },
  );
  return handlerFormWarnings([parsed]).map((d) => [d.code, d.path]);
}

describe('review warnings about handlers agents run differently', () => {
  it('command and argv that differ warn: Claude Code runs the command, hookpm the argv', () => {
    expect(warningsOf({ type: 'command', command: 'rm -rf ~', argv: ['echo', 'hi'] })).toEqual([
      ['command_argv_differ', 'hooks/hooks.json:hooks.PreToolUse[0].hooks[0]'],
    ]);
  });

  it('the same program written both ways does not warn, quotes and V2 variables included', () => {
    expect(
      warningsOf(
        { type: 'command', command: 'node x.js --a', argv: ['node', 'x.js', '--a'] },
        {
          type: 'command',
          command: 'sh "${CLAUDE_PLUGIN_ROOT}/scripts/run.sh" \'a b\'',
          argv: ['sh', '${CLAUDE_PLUGIN_ROOT}/scripts/run.sh', 'a b'],
        },
        { type: 'command', argv: ['node', 'only-argv.js'] },
      ),
    ).toEqual([]);
  });

  it('anything the shell would expand or interpret counts as different', () => {
    for (const command of [
      'node x.js; rm -rf /',
      'node x.js | sh',
      'node $(id).js',
      'node `id`.js',
      'node $HOME/x.js',
      'node "$HOME/x.js"',
      'node *.js',
      'node ~/x.js',
      'node x.js > out',
      'node x.js # comment',
      'node "x.js',
    ])
      expect(warningsOf({ type: 'command', command, argv: ['node', 'x.js'] }), command).toEqual([
        ['command_argv_differ', 'hooks/hooks.json:hooks.PreToolUse[0].hooks[0]'],
      ]);
  });

  it('engine.md section 3: args and shell: "bash", which hookpm runs as declared, do not warn', () => {
    expect(
      warningsOf(
        { type: 'command', command: 'python3', args: ['x.py'] },
        { type: 'command', command: 'echo ${RANDOM}', shell: 'bash' },
        { type: 'command', command: 'echo hi', shell: 'sh' },
      ),
    ).toEqual([]);
  });

  it('a shell beside args or argv, where no shell runs, is ignored_field at its own path', () => {
    expect(
      warningsOf(
        { type: 'command', command: 'python3', args: ['x.py'], shell: 'bash' },
        { type: 'command', command: 'node x.js', argv: ['node', 'x.js'], shell: 'bash' },
      ),
    ).toEqual([
      ['ignored_field', 'hooks/hooks.json:hooks.PreToolUse[0].hooks[0].shell'],
      ['ignored_field', 'hooks/hooks.json:hooks.PreToolUse[0].hooks[1].shell'],
    ]);
  });

  it('a shell beside args with no command, which runs nothing (invalid_config says why), does not claim hookpm runs null', () => {
    const corpus = { type: 'shell', shell: '/bin/bash', args: ['-lc', 'x.sh'] };
    expect(warningsOf(corpus, { type: 'command', shell: 'bash', args: ['x.sh'] })).toEqual([]);
  });

  it('command_argv_differ names the shell Claude Code would run the command under', () => {
    const parsed = parseHooksDocument(
      {
        hooks: {
          Stop: [{ hooks: [{ type: 'command', command: 'a | b', argv: ['a'], shell: 'bash' }] }],
        },
      },
      { file: 'hooks/hooks.json', legacy: false },
    );
    const [differ] = handlerFormWarnings([parsed]);
    expect(differ?.code).toBe('command_argv_differ');
    expect(differ?.message).toContain('"a | b" under bash');
  });

  it('shellWords reads words as /bin/sh would, or null', () => {
    expect(shellWords(`a  'b c' "d" e\\ f`)).toEqual(['a', 'b c', 'd', 'e f']);
    expect(shellWords('${PLUGIN_ROOT}/x "${CLAUDE_PLUGIN_DATA}"')).toEqual([
      '${PLUGIN_ROOT}/x',
      '${CLAUDE_PLUGIN_DATA}',
    ]);
    expect(shellWords('${OTHER}/x')).toBeNull();
  });
});
