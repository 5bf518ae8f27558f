/** B2: which files created after install change what runs (plugin/created-files.ts). */
import { describe, expect, it } from 'vitest';
import { createdFileProblem, handlerTextOfConfigs } from '../../src/plugin/created-files.js';

const HANDLERS = [
  'node "${CLAUDE_PLUGIN_ROOT}/scripts/track.js"',
  'python3 ${CLAUDE_PLUGIN_ROOT}/pkg',
  'sh ${CLAUDE_PLUGIN_ROOT}/bin/run',
];
const problem = (created: string[], read: string[] = []) =>
  createdFileProblem({ created, read, handlerText: HANDLERS });

describe('createdFileProblem (B2)', () => {
  it.each([
    ['.state/review-state.json'],
    ['scripts/.state/todos.json'],
    ['node_modules/dep/index.js'],
    ['scripts/track.js.bak'],
    ['logs/2026-12-02.log'],
  ])('%s, which nothing reads as hooks and no handler names, is allowed', (path) => {
    expect(problem([path])).toBeNull();
  });

  it.each([
    ['plugin.json', 'is read as its manifest or hooks'],
    ['.claude-plugin/plugin.json', 'is read as its manifest or hooks'],
    ['hooks/hooks.json', 'is read as its manifest or hooks'],
    ['hooks', 'is read as its manifest or hooks'],
    ['scripts/track.js', 'a handler names scripts/track.js'],
    ['bin/run.sh', 'a handler names bin/run'],
    ['pkg/__main__.py', 'a handler names pkg'],
  ])('%s changes what runs: %s', (path, why) => {
    expect(problem([path])).toBe(`${path} was created after install and ${why}`);
  });

  it('a document the manifest names (./extra/hooks.json) is read as hooks; an inline source is not a file', () => {
    expect(problem(['extra/hooks.json'], ['./extra/hooks.json', 'plugin.json#hooks'])).toContain(
      'is read as its manifest or hooks',
    );
    expect(problem(['plugin.json#hooks'], ['plugin.json#hooks'])).toBeNull();
  });

  it('handlerTextOfConfigs takes command, argv and args of the valid handlers', () => {
    const text = handlerTextOfConfigs([
      {
        Stop: [
          { matcher: null, hooks: [{ type: 'command', command: 'a', argv: ['b', 'c'] }, null] },
          null,
        ],
      },
    ]);
    expect(text).toEqual(['a', 'b', 'c']);
  });
});
