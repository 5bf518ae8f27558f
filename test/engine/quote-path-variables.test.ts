/**
 * engine.md X3a: a bare expansion of a path variable whose value the shell would split or glob
 * runs double-quoted; nothing else of the command changes, and a command whose contexts are not
 * followed runs as written. Each rewritten command is also run by the real /bin/sh, to see the
 * value arrive as one word.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { quotePathVariables } from '../../src/engine/quote-path-variables.js';

const SPACED = {
  CLAUDE_PLUGIN_ROOT: '/Users/me/Library/Application Support/hookpm/plugins/g',
  PLUGIN_ROOT: '/Users/me/Library/Application Support/hookpm/plugins/g',
  CLAUDE_PLUGIN_DATA: '/data/plain',
  CLAUDE_PROJECT_DIR: '/work/My Project',
};

describe('quotePathVariables (engine.md X3a)', () => {
  it.each([
    ['node ${CLAUDE_PLUGIN_ROOT}/hook.js', 'node "${CLAUDE_PLUGIN_ROOT}"/hook.js'],
    ['${CLAUDE_PLUGIN_ROOT}/hooks/run.sh --x', '"${CLAUDE_PLUGIN_ROOT}"/hooks/run.sh --x'],
    ['python3 $CLAUDE_PLUGIN_ROOT/a.py', 'python3 "$CLAUDE_PLUGIN_ROOT"/a.py'],
    [
      'sh $PLUGIN_ROOT/a.sh && cd $CLAUDE_PROJECT_DIR',
      'sh "$PLUGIN_ROOT"/a.sh && cd "$CLAUDE_PROJECT_DIR"',
    ],
    ['ls ${CLAUDE_PLUGIN_ROOT}/hooks/*.sh', 'ls "${CLAUDE_PLUGIN_ROOT}"/hooks/*.sh'],
    // A comment's quotes are no quotes: an apostrophe in one does not hide the next line.
    [
      "node ${CLAUDE_PLUGIN_ROOT}/a.js # it's the guard\nnode ${CLAUDE_PLUGIN_ROOT}/b.js",
      'node "${CLAUDE_PLUGIN_ROOT}"/a.js # it\'s the guard\nnode "${CLAUDE_PLUGIN_ROOT}"/b.js',
    ],
    [
      '# ${CLAUDE_PLUGIN_ROOT} is "ours\nnode ${CLAUDE_PLUGIN_ROOT}/a.js;#x\n$PLUGIN_ROOT/b',
      '# ${CLAUDE_PLUGIN_ROOT} is "ours\nnode "${CLAUDE_PLUGIN_ROOT}"/a.js;#x\n"$PLUGIN_ROOT"/b',
    ],
  ])('quotes a bare expansion: %s', (command, expected) => {
    expect(quotePathVariables(command, SPACED)).toBe(expected);
  });

  it.each([
    // Already quoted, single-quoted, escaped: as written.
    'node "${CLAUDE_PLUGIN_ROOT}/hook.js"',
    'node "$CLAUDE_PLUGIN_ROOT"/hook.js',
    "echo '${CLAUDE_PLUGIN_ROOT}'",
    'echo \\${CLAUDE_PLUGIN_ROOT} \\$CLAUDE_PLUGIN_ROOT',
    // A comment, and what follows $$ (the shell's process id) or a # inside a word.
    '# node ${CLAUDE_PLUGIN_ROOT}/a.js',
    'echo $$CLAUDE_PLUGIN_ROOT',
    'echo a#"b ${CLAUDE_PLUGIN_ROOT}"',
    'echo a\\ #"b\n${CLAUDE_PLUGIN_ROOT}"',
    // Another name, a longer name, an operator form, a value with no space.
    'echo $CLAUDE_PLUGIN_ROOTS ${CLAUDE_PLUGIN_ROOT:-/x} $HOME',
    'node ${CLAUDE_PLUGIN_DATA}/state.js',
    // Contexts not followed: as written, whatever they hold.
    'node $(dirname ${CLAUDE_PLUGIN_ROOT})/a.js',
    'node `echo ${CLAUDE_PLUGIN_ROOT}`/a.js',
    'cat <<EOF\n${CLAUDE_PLUGIN_ROOT}\nEOF',
    'echo $(( 1 + 2 )) ${CLAUDE_PLUGIN_ROOT}',
  ])('leaves alone: %s', (command) => {
    expect(quotePathVariables(command, SPACED)).toBe(command);
  });

  it('changes nothing when no value would split, so a store without spaces runs commands as written', () => {
    const plain = {
      CLAUDE_PLUGIN_ROOT: '/home/me/.local/share/hookpm/g',
      CLAUDE_PROJECT_DIR: '/w',
    };
    const command = 'node ${CLAUDE_PLUGIN_ROOT}/a.js $CLAUDE_PROJECT_DIR';
    expect(quotePathVariables(command, plain)).toBe(command);
  });

  it('quotes a value with a glob character too, so it is not expanded against the file system', () => {
    expect(quotePathVariables('ls ${CLAUDE_PLUGIN_ROOT}', { CLAUDE_PLUGIN_ROOT: '/p/[ab]*' })).toBe(
      'ls "${CLAUDE_PLUGIN_ROOT}"',
    );
  });

  it.each(['/bin/sh', 'bash'])(
    '%s keeps a quoted expansion one word after a comment with an odd quote in it',
    (shell) => {
      const command = '# the "root\nprintf "%s|" "${CLAUDE_PLUGIN_ROOT}/a.js"';
      const run = spawnSync(shell, ['-c', quotePathVariables(command, SPACED)], {
        env: { ...SPACED, PATH: process.env['PATH'] },
        encoding: 'utf8',
      });
      expect(run.stdout).toBe(`${SPACED.CLAUDE_PLUGIN_ROOT}/a.js|`);
    },
  );

  it('/bin/sh gives the rewritten expansions as one word each', () => {
    const command = 'printf "%s|" ${CLAUDE_PLUGIN_ROOT}/a.js $CLAUDE_PROJECT_DIR "${PLUGIN_ROOT}"';
    const run = spawnSync('/bin/sh', ['-c', quotePathVariables(command, SPACED)], {
      env: { ...SPACED, PATH: process.env['PATH'] },
      encoding: 'utf8',
    });
    expect(run.stdout).toBe(
      `${SPACED.CLAUDE_PLUGIN_ROOT}/a.js|${SPACED.CLAUDE_PROJECT_DIR}|${SPACED.PLUGIN_ROOT}|`,
    );
  });
});
