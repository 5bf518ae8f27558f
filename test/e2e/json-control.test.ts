/**
 * cli.md section 1: plugin-supplied text is printed with control characters escaped, in `--json`
 * output as in text. JSON.stringify leaves DEL, C1 (U+0080-U+009F; U+009B is CSI to a terminal)
 * and the bidirectional controls raw; hookpm writes them as `\u009b`, which parses to the same
 * value. A registry on 127.0.0.1 serves a description holding them; the built CLI prints it.
 */
import { resolveStorePaths } from '../../src/store/paths.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import {
  publishPlugin,
  startPluginRegistry,
  type ServedRegistry,
} from '../helpers/plugin-registry.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

const RAW = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const DESCRIPTION = 'clears \u009b2J the screen \u0085 and \u202eflips';

let home: TempHome;
let acme: ServedRegistry;

const run = (...args: string[]) => runBin(args, { env: home.env, cwd: home.dir });

beforeAll(async () => {
  ensureBuilt();
  home = await makeTempHome('hookpm-json-c1-');
  acme = await startPluginRegistry('acme');
  await publishPlugin(acme, 'guard', '1.0.0');
  (acme.index.plugins['guard'] as { description?: string }).description = DESCRIPTION;
  expect((await run('registry', 'add', 'acme', acme.url)).code).toBe(0);
}, 120_000);
afterAll(async () => {
  await acme.close();
  await home.cleanup();
});

describe('C1 control characters in --json output', () => {
  it.each([
    ['info', ['info', 'guard@acme', '--json']],
    ['search', ['search', 'guard', '--json']],
  ])(
    'cli.md section 1: `%s --json` escapes C1 and bidirectional controls as \\uXXXX, and the value parses back unchanged',
    async (_what, args) => {
      const out = await run(...args);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).not.toMatch(RAW);
      expect(out.stdout).toContain('\\u009b2J');
      expect(out.stdout).toContain('\\u202eflips');
      expect(out.stdout.includes(JSON.stringify(DESCRIPTION))).toBe(false);
      expect(JSON.stringify(JSON.parse(out.stdout))).toContain(JSON.stringify(DESCRIPTION));
    },
  );

  it('cli.md section 1: an error in --json escapes them too; the store is byte-identical', async () => {
    const paths = resolveStorePaths(home.env);
    const before = await hashStore(paths);
    const out = await run('install', 'bad\u009bname', '--json');
    expect(out.stdout).not.toMatch(RAW);
    const error = JSON.parse(out.stdout).error as { code: string; message: string };
    expect(error.code).toBe('E_NAME_INVALID');
    expect(error.message).toContain('bad\u009bname');
    expect(await hashStore(paths)).toEqual(before);
  });

  it('cli.md section 1: the text output escapes the same characters', async () => {
    const out = await run('info', 'guard@acme');
    expect(out.stdout).not.toMatch(RAW);
    expect(out.stdout).toContain('\\u009b2J');
  });
});
