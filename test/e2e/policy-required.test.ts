/**
 * The policy's required plugins brought in by every install run (docs/reference/rules/policy.md#a21)
 * end to end with the built binary: `install <spec>`, a bare `install`, `ci`, and what cannot be
 * brought in.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { QUIET_PACKAGE, startFakeNpmRegistry } from '../helpers/fake-npm-registry.js';

const ws = useBinWorkspace('e2e-policy-required');

async function withPolicy(policy: unknown, extra: Record<string, string> = {}) {
  const file = join(ws.dir, `policy-${ws.n}.json`);
  await writeFile(file, JSON.stringify(policy));
  return ws.env({ HOOKPM_POLICY_FILE: file, ...extra });
}

async function ok(args: string[], env: Record<string, string>) {
  const run = await ws.hookpm(args, { env });
  expect(run.code, run.stderr).toBe(0);
  return run;
}

async function listed(env: Record<string, string>): Promise<string[]> {
  const list = JSON.parse((await ok(['list', '--json'], env)).stdout) as {
    plugins: Array<{ id: string; enabled: boolean }>;
  };
  return list.plugins.map((p) => `${p.id} ${p.enabled ? 'enabled' : 'disabled'}`).sort();
}

describe('required plugins are brought in (A21)', () => {
  it('A21: `install <spec>` also installs and enables a missing required name@registry, the policy being the consent, and says so', async () => {
    const env = await withPolicy({ required: ['guard@examples'] });
    const file = env['HOOKPM_POLICY_FILE']!;
    const plan = await ok(['install', 'format-on-write@examples', '--dry-run'], env);
    expect(plan.stderr).toContain(
      `would install and enable guard@examples: the administrator's policy ${file} requires it`,
    );
    expect(await listed(env)).toEqual([]);
    // --no-enable is the user's choice for what they named; the required plugin is enabled anyway.
    const run = await ok(['install', 'format-on-write@examples', '--no-enable'], env);
    expect(run.stderr).toMatch(
      new RegExp(
        `guard@examples 1\\.3\\.0 was installed and enabled: the administrator's policy .*requires it; \`hookpm review guard\``,
      ),
    );
    expect(run.stderr).toContain(file);
    expect(await listed(env)).toEqual([
      'format-on-write@examples disabled',
      'guard@examples enabled',
    ]);
    // Present: a second run brings nothing in.
    const again = await ok(['install', 'format-on-write@examples', '--no-enable', '--json'], env);
    expect(
      (JSON.parse(again.stdout) as { installed: Array<{ id: string }> }).installed.map((p) => p.id),
    ).toEqual(['format-on-write@examples']);
  });

  it('A21: a bare `install` outside a project brings in what is required, warns about a pattern it cannot, and one the registry cannot provide; without required entries it is still E_USAGE', async () => {
    const env = await withPolicy({ required: ['guard@examples', 'acme-*@acme', 'nope@examples'] });
    const run = await ok(['install'], env);
    expect(run.stderr).toContain('guard@examples 1.3.0 was installed and enabled');
    expect(run.stderr).toContain(`requires "acme-*@acme", which hookpm cannot bring in`);
    expect(run.stderr).toMatch(/requires nope@examples, which could not be installed: .*\(E_/);
    expect(await listed(env)).toEqual(['guard@examples enabled']);
    const noPolicy = await ws.hookpm(['install'], { env: ws.env() });
    expect(noPolicy.code).toBe(2);
    expect(noPolicy.stderr).toContain('hookpm.json');
  });

  it('A21, A11: a bare `install` outside a project while the policy file cannot be used is E_POLICY naming the file (it may require plugins), never the E_USAGE of no policy', async () => {
    const file = join(ws.dir, `policy-${ws.n}.json`);
    await writeFile(file, '{"required": ');
    const env = ws.env({ HOOKPM_POLICY_FILE: file });
    for (const args of [['install'], ['install', '--dry-run']]) {
      const run = await ws.hookpm(args, { env });
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toContain('E_POLICY');
      expect(run.stderr).toContain(file);
      expect(run.stderr).toContain('cannot be used');
    }
  });

  it('A21, A14: a long required pattern is quoted cut short by `install` and `doctor`', async () => {
    const env = await withPolicy({ required: ['*'.repeat(200_000) + 'x'] });
    const run = await ok(['install'], env);
    expect(run.stderr).toContain('which hookpm cannot bring in');
    expect(run.stderr.length).toBeLessThan(1000);
    const doctor = await ws.hookpm(['doctor', '--json'], { env });
    expect(doctor.stdout).toContain('policy_required_missing');
    expect(doctor.stdout.length).toBeLessThan(20_000);
  });

  it('A21: `hookpm ci` installs the locked plugins and brings in the required one', async () => {
    await ok(['install', '--project', 'format-on-write@examples', '--yes'], ws.env());
    const env = await withPolicy(
      { required: ['guard@examples'] },
      { HOOKPM_HOME: join(ws.home, 'teammate') },
    );
    const run = await ok(['ci', '--yes', '--json'], env);
    const result = JSON.parse(run.stdout) as { installed: Array<{ id: string; enabled: boolean }> };
    expect(result.installed.map((p) => `${p.id} ${p.enabled}`)).toEqual([
      'format-on-write@examples true',
      'guard@examples true',
    ]);
  });
});

describe("required npm plugins come from the user's npm configuration (A21, K4)", () => {
  it("A21: a cloned project's .npmrc naming another registry never provides a required npm plugin, which is enabled unasked", async () => {
    const scoped = { 'hookpm-plugin-quiet': QUIET_PACKAGE, '@acme/quiet': QUIET_PACKAGE };
    const users = await startFakeNpmRegistry(scoped);
    const strangers = await startFakeNpmRegistry(scoped);
    try {
      await writeFile(join(ws.home, '.npmrc'), `registry=${users.url}\n`);
      await writeFile(join(ws.repo, 'package.json'), '{}');
      await writeFile(
        join(ws.repo, '.npmrc'),
        `registry=${strangers.url}\n@acme:registry=${strangers.url}\n`,
      );
      const env = await withPolicy({ required: ['hookpm-plugin-quiet@npm'] });
      const run = await ok(['install', 'format-on-write@examples', '--no-enable'], env);
      expect(run.stderr).toContain('quiet@npm 1.0.0 was installed and enabled');
      expect(strangers.requests).toEqual([]);
      expect(users.requests.length).toBeGreaterThan(0);
      // What the user names themselves still reads the project's file, as npm does.
      await ok(['uninstall', 'quiet@npm'], ws.env());
      await ok(['install', 'npm:@acme/quiet', '--yes'], ws.env());
      expect(strangers.requests.length).toBeGreaterThan(0);
    } finally {
      await users.close();
      await strangers.close();
    }
  });
});
