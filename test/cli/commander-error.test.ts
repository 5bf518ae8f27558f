/**
 * A command line commander refuses (docs/reference/rules/cli.md#conventions: E_USAGE, the message
 * names what was found): an argument holding a newline is quoted whole on the message's one line,
 * and text in it that reads as commander's "(Did you mean ...?)" stays there, never in the hint or
 * `suggestions`; commander's own suggestion still moves to the hint.
 */
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/built-bin.js';
import { useBuiltHome } from '../helpers/registry-home.js';

const home = useBuiltHome('hookpm-commander-error-');

interface JsonError {
  error: { code: string; message: string; hint: string; suggestions: string[] };
}

async function jsonError(args: string[]): Promise<JsonError['error']> {
  const run = await runBin(['--json', ...args], { env: home.env, cwd: home.dir });
  expect(run.code).toBe(2);
  return (JSON.parse(run.stdout) as JsonError).error;
}

describe('an unknown command or option holding a newline', () => {
  it('is quoted whole in the message; its "Did you mean" is not a suggestion', async () => {
    const error = await jsonError(['foo\n(Did you mean uninstall?)']);
    expect(error).toEqual({
      code: 'E_USAGE',
      message: 'unknown command "foo\\n(Did you mean uninstall?)"',
      hint: 'Run `hookpm help` for the commands.',
      suggestions: [],
    });
  });

  it('an option: the same, and the human error is two lines', async () => {
    const run = await runBin(['list', '--x\nDid you mean --yes?'], {
      env: home.env,
      cwd: home.dir,
    });
    expect(run.stderr).toBe(
      'hookpm: error[E_USAGE]: unknown option "--x\\nDid you mean --yes?"\n' +
        '  Run `hookpm list --help` for the options and an example.\n',
    );
  });

  it("commander's own suggestion still moves to the hint", async () => {
    const error = await jsonError(['lst']);
    expect(error.message).toBe('unknown command "lst"');
    expect(error.suggestions).toEqual(['list', 'ls']);
    expect(error.hint).toBe('Did you mean one of list, ls?\nRun `hookpm help` for the commands.');
  });
});
