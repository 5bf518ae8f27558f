import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built-bin.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('npm run demo', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('serves the examples registry, installs guard, and shows a denied and an allowed PreToolUse', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'bench', 'demo.mjs')], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('$ hookpm install guard@demo --yes');
    const [denied, allowed] = run.stdout.split('And `ls`');
    expect(denied).toMatch(/permission: deny: guard: .*rm -r/);
    expect(allowed).toContain('permission: none');
    expect(run.stdout).toMatch(/Done in [\d.]+ s; cleaning up /);
  });
});
