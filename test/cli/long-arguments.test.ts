/**
 * A command-line argument of any length is quoted in an error cut as `clip` cuts it
 * (docs/reference/rules/cli.md#conventions: the message names what was found, and stays short): a
 * 100,000-character plugin name, registry name, path, URL or event name gives the usual error, a
 * few hundred characters long, never the argument whole.
 */
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/built-bin.js';
import { useBuiltHome } from '../helpers/registry-home.js';

const home = useBuiltHome('hookpm-long-arguments-');

const LONG = 'a'.repeat(100_000);

const COMMAND_LINES: ReadonlyArray<readonly string[]> = [
  ['install', LONG],
  ['install', `x@${LONG}`],
  ['install', `./${LONG}`],
  ['info', `x@${LONG}`],
  ['uninstall', LONG],
  ['enable', LONG],
  ['disable', LONG],
  ['rollback', LONG],
  ['update', LONG],
  ['registry', 'add', 'x', LONG],
  ['registry', 'remove', LONG],
  ['registry', 'update', LONG],
  ['registry', 'serve', LONG],
  ['--home', `/tmp/${LONG}`, 'list'],
  ['run', LONG],
  ['test', LONG, 'Stop'],
  ['search', '--event', LONG],
  ['log', '--since', LONG],
  ['config', 'set', LONG, '1'],
  ['trust', LONG],
  ['validate', LONG],
  ['pack', LONG],
  ['init', LONG],
  ['link', LONG],
  ['wire', LONG],
  ['completion', LONG],
  [LONG],
];

describe('a 100,000-character argument', () => {
  it.each(COMMAND_LINES.map((args) => [args.join(' ').replace(LONG, '<long>'), args]))(
    '`hookpm %s` quotes it cut',
    async (_, args) => {
      const run = await runBin(args as string[], { env: home.env, cwd: home.dir });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/^hookpm: error\[E_[A-Z_]+\]: /);
      expect(run.stderr).not.toContain('E_INTERNAL');
      expect(run.stderr).toContain('a'.repeat(100));
      expect(run.stderr.length).toBeLessThan(1_000);
    },
  );
});
