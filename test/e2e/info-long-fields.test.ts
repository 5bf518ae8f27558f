/**
 * security.md (nothing hookpm prints grows without bound with its input): a registry on 127.0.0.1
 * whose document gives a plugin a 200 KB description and deprecation message; `info`
 * prints at most a bounded prefix of each, and `info --json` keeps them whole. The built CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import {
  publishPlugin,
  startPluginRegistry,
  type ServedRegistry,
} from '../helpers/plugin-registry.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

const LONG = 'd'.repeat(200_000);
let home: TempHome;
let acme: ServedRegistry;

const run = (...args: string[]) => runBin(args, { env: home.env, cwd: home.dir });

beforeAll(async () => {
  ensureBuilt();
  home = await makeTempHome('hookpm-info-long-');
  acme = await startPluginRegistry('acme');
  await publishPlugin(acme, 'guard', '1.0.0');
  const plugin = acme.index.plugins['guard'] as {
    description?: string;
    versions: Record<string, { deprecated?: string }>;
  };
  plugin.description = LONG;
  plugin.versions['1.0.0']!.deprecated = LONG;
  const added = await run('registry', 'add', 'acme', acme.url);
  expect(added.code, added.stderr.slice(0, 300)).toBe(0);
}, 120_000);
afterAll(async () => {
  await acme.close();
  await home.cleanup();
});

describe('info of a plugin whose registry gives 200 KB fields', () => {
  it('prints a bounded prefix of each; --json keeps them whole', async () => {
    const text = await run('info', 'guard@acme');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.length).toBeLessThan(20_000);
    expect(text.stdout).toContain('ddd...');
    const json = await run('info', 'guard@acme', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ description: LONG });
  });
});
