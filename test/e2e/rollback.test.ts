/**
 * `hookpm rollback <plugin>` (docs/reference/commands.md#rollback) end to end with the built
 * binary: back to the version consented before the last update, from the store, under --offline.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRegistryHome } from '../helpers/registry-home.js';

const ctx = useRegistryHome('hookpm-rollback-e2e-', false);
const { hookpm, ok } = ctx;

interface Record_ {
  version: string;
  path: string;
  enabled: boolean;
  consent: { version: string; surfaceHash: string; confine?: unknown } | null;
  surfaceHash: string;
  previous?: { version: string; path: string };
}

function guardRecord(): Record_ {
  const state = JSON.parse(
    readFileSync(join(ctx.home.env.HOOKPM_HOME!, 'data', 'state.json'), 'utf8'),
  ) as { plugins: Record<string, Record_> };
  return state.plugins['guard@examples']!;
}

describe('hookpm rollback', () => {
  it('rollback: after `update --yes`, --offline returns to 1.0.0 with its own consent; the 1.3.0 tree goes, a second rollback has nothing left', async () => {
    await ok('install', 'guard@examples@1.0.0', '--yes');
    const first = guardRecord();
    expect(first.previous).toBeUndefined();
    await ok('update', '--yes');
    const updated = guardRecord();
    expect(updated.version).toBe('1.3.0');
    expect(updated.previous).toMatchObject({ version: '1.0.0', path: first.path });
    // The store keeps the earlier tree until the next update.
    expect(existsSync(first.path)).toBe(true);

    const run = await ok('rollback', 'guard', '--offline', '--json');
    expect(JSON.parse(run.stdout)).toMatchObject({
      id: 'guard@examples',
      from: '1.3.0',
      to: '1.0.0',
      enabled: true,
    });
    const back = guardRecord();
    expect(back).toMatchObject({
      version: '1.0.0',
      path: first.path,
      surfaceHash: first.surfaceHash,
      enabled: true,
      consent: first.consent,
    });
    expect(back.previous).toBeUndefined();
    expect(existsSync(updated.path)).toBe(false);
    // The consented version runs: guard 1.0.0 still denies a force push.
    const decided = await hookpm(
      ['run', 'PreToolUse', '--payload', '-', '--json'],
      JSON.stringify({
        tool_name: 'Bash',
        tool_input: { command: 'git push --force origin main' },
      }),
    );
    expect(JSON.parse(decided.stdout).permission.decision).toBe('deny');

    const again = await hookpm(['rollback', 'guard']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('E_NOT_FOUND');
    expect(again.stderr).toContain('no earlier version');
  });

  it('rollback: a pending update approved by `enable` is rolled back to the version consented before it', async () => {
    await ok('install', 'guard@examples@1.0.0', '--yes');
    const first = guardRecord();
    expect((await hookpm(['update'])).code).toBe(1); // waits for consent (Q5)
    expect(guardRecord().previous).toBeUndefined();
    await ok('enable', 'guard', '--yes');
    expect(guardRecord()).toMatchObject({ version: '1.3.0', previous: { version: '1.0.0' } });
    await ok('rollback', 'guard@examples', '--offline');
    expect(guardRecord()).toMatchObject({ version: '1.0.0', consent: first.consent });
  });

  it('rollback, Z4: the confinement the user gave after the update (`enable --confine`) stays with the consent of the version rolled back to', async () => {
    await ok('install', 'guard@examples@1.0.0', '--yes');
    await ok('update', '--yes');
    await ok('enable', 'guard', '--confine', 'network=false,write=data');
    await ok('rollback', 'guard', '--offline');
    const confine = { network: false, write: ['data'] };
    expect(guardRecord()).toMatchObject({
      version: '1.0.0',
      consent: { version: '1.0.0', confine },
    });
    const review = JSON.parse((await ok('review', 'guard', '--json')).stdout) as object;
    expect(review).toMatchObject({ consented: true, confine });
  });

  it('rollback: a hook the user turned off stays off in the version rolled back to, though the update removed it', async () => {
    const dir = async (version: string, commands: string[]): Promise<string> => {
      const root = join(ctx.home.dir, `optout-${version}`);
      await mkdir(join(root, 'hooks'), { recursive: true });
      await writeFile(join(root, 'plugin.json'), JSON.stringify({ name: 'optout', version }));
      const hooks = commands.map((command) => ({ type: 'command', command }));
      await writeFile(
        join(root, 'hooks', 'hooks.json'),
        JSON.stringify({ hooks: { Stop: [{ hooks: hooks }] } }),
      );
      return root;
    };
    await ok('install', await dir('1.0.0', ['echo a', 'echo b']), '--yes');
    const review = JSON.parse((await ok('review', 'optout', '--json')).stdout) as {
      hooks: Array<{ key: string; command: string }>;
    };
    const b = review.hooks.find((h) => h.command === 'echo b')!.key;
    await ok('disable', 'optout', '--hook', b);
    // Only a removal: the consent carries, and the opt-out, naming no hook of 1.1.0, lapses there.
    await ok('install', await dir('1.1.0', ['echo a']));
    await ok('rollback', 'optout');
    const hooks = JSON.parse((await ok('hooks', '--json')).stdout) as {
      handlers: Array<{ command: string }>;
    };
    expect(hooks.handlers.map((h) => h.command)).toEqual(['echo a']);
  });

  it('rollback, Q6: a kept tree replaced by a symbolic link to an identical copy is refused, nothing changed', async () => {
    await ok('install', 'guard@examples@1.0.0', '--yes');
    await ok('update', '--yes');
    const kept = guardRecord().previous!.path;
    const copy = join(ctx.home.dir, 'copy-1.0.0');
    await cp(kept, copy, { recursive: true, preserveTimestamps: true });
    await rm(kept, { recursive: true });
    await symlink(copy, kept);
    const statePath = join(ctx.home.env.HOOKPM_HOME!, 'data', 'state.json');
    const before = readFileSync(statePath, 'utf8');
    const run = await hookpm(['rollback', 'guard', '--offline']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `error[E_PLUGIN_TAMPERED]: the kept tree of guard@examples 1.0.0 at ${kept} is a symbolic link (or is in one), not the tree hookpm installed, so it cannot be rolled back to`,
    );
    expect(readFileSync(statePath, 'utf8')).toBe(before);
    expect(guardRecord().version).toBe('1.3.0');
  });
});
