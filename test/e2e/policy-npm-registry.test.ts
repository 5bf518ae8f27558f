/**
 * docs/reference/rules/policy.md A12 end to end: `<pkg>@<registry>` naming a registry of kind npm
 * installs from that registry, which registries.allow must allow, whatever it allows of `npm`
 * (the plugin's id). The fake npm registry on 127.0.0.1 counts the requests.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin, type BinRun } from '../helpers/built-bin.js';
import {
  QUIET_PACKAGE,
  startFakeNpmRegistry,
  type FakeNpmRegistry,
} from '../helpers/fake-npm-registry.js';
import { stateFileHash } from '../helpers/store-snapshot.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

let npm: FakeNpmRegistry;
let home: TempHome;

beforeAll(async () => {
  ensureBuilt();
  npm = await startFakeNpmRegistry({ 'hookpm-plugin-quiet': QUIET_PACKAGE });
});
afterAll(() => npm.close());
beforeEach(async () => {
  home = await makeTempHome('hookpm-policy-npm-');
});
afterEach(() => home.cleanup());

function hookpm(args: string[], policy?: unknown): Promise<BinRun> {
  const env = { ...home.env, HOOKPM_NPM_REGISTRY: npm.url };
  if (policy === undefined) return runBin(args, { env, cwd: home.dir });
  const file = join(home.dir, 'policy.json');
  return writeFile(file, JSON.stringify(policy)).then(() =>
    runBin(args, { env: { ...env, HOOKPM_POLICY_FILE: file }, cwd: home.dir }),
  );
}

describe('A12: an npm package from a registry of kind npm', () => {
  it('A12: `install <pkg>@<registry>` is E_POLICY when registries.allow names `npm` but not that registry; nothing is fetched or written', async () => {
    const add = await hookpm(['registry', 'add', 'mynpm', 'npm']);
    expect(add.code, add.stderr).toBe(0);
    const state = stateFileHash(home.dir);
    const before = npm.requests.length;
    const run = await hookpm(['install', 'hookpm-plugin-quiet@mynpm', '--yes'], {
      registries: { allow: ['npm'] },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('E_POLICY');
    expect(run.stderr).toContain('from registry mynpm');
    expect(run.stderr).toContain('registries.allow (no entry matches)');
    expect(npm.requests.length - before).toBe(0);
    expect(stateFileHash(home.dir)).toBe(state);
    // Allowed by its name, it installs (as quiet@npm, whose `npm` must be allowed too).
    const allowed = await hookpm(['install', 'hookpm-plugin-quiet@mynpm', '--yes'], {
      registries: { allow: ['npm', 'mynpm'] },
    });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain('quiet@npm');
  });
});
