/**
 * docs/reference/rules/policy.md A12 end to end: `<pkg>@<registry>` naming a registry of kind npm
 * installs from that registry, which registries.allow must allow, whatever it allows of `npm`
 * (the plugin's id). The fake npm registry on 127.0.0.1 counts the requests.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin, type BinRun } from '../helpers/built-bin.js';
import { useQuietNpm } from '../helpers/quiet-npm.js';
import { stateFileHash } from '../helpers/store-snapshot.js';

const world = useQuietNpm('hookpm-policy-npm-');

function hookpm(args: string[], policy?: unknown): Promise<BinRun> {
  const env = { ...world.home.env, HOOKPM_NPM_REGISTRY: world.npm.url };
  if (policy === undefined) return runBin(args, { env, cwd: world.home.dir });
  const file = join(world.home.dir, 'policy.json');
  return writeFile(file, JSON.stringify(policy)).then(() =>
    runBin(args, { env: { ...env, HOOKPM_POLICY_FILE: file }, cwd: world.home.dir }),
  );
}

describe('A12: an npm package from a registry of kind npm', () => {
  it('A12: `install <pkg>@<registry>` is E_POLICY when registries.allow names `npm` but not that registry; nothing is fetched or written', async () => {
    const add = await hookpm(['registry', 'add', 'mynpm', 'npm']);
    expect(add.code, add.stderr).toBe(0);
    const state = stateFileHash(world.home.dir);
    const before = world.npm.requests.length;
    const run = await hookpm(['install', 'hookpm-plugin-quiet@mynpm', '--yes'], {
      registries: { allow: ['npm'] },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('E_POLICY');
    expect(run.stderr).toContain('from registry mynpm');
    expect(run.stderr).toContain('registries.allow (no entry matches)');
    expect(world.npm.requests.length - before).toBe(0);
    expect(stateFileHash(world.home.dir)).toBe(state);
    // Allowed by its name, it installs (as quiet@npm, whose `npm` must be allowed too).
    const allowed = await hookpm(['install', 'hookpm-plugin-quiet@mynpm', '--yes'], {
      registries: { allow: ['npm', 'mynpm'] },
    });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain('quiet@npm');
  });
});
