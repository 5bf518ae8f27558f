/**
 * The per-plugin commands with `--project` (registry.md D13) and `update --project`'s flags (D14),
 * with the built binary, a real registry served on 127.0.0.1 and a project directory.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin, type BinRun } from '../helpers/built-bin.js';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { useProjectWorld } from '../helpers/project-world.js';

const DENY = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"pg"}}'`;
const PAYLOAD = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } });

const world = useProjectWorld('hookpm-project-commands-', async (acme) => {
  await publishPlugin(acme, 'pg', '1.0.0', { PreToolUse: [DENY] });
  await publishPlugin(acme, 'pg', '1.1.0', { PreToolUse: [DENY] });
  await publishPlugin(acme, 'side', '1.0.0', { PreToolUse: ['true'] });
});

function hookpm(...args: string[]): Promise<BinRun> {
  return runBin(args, {
    env: world.home.env,
    cwd: world.project,
    stdin: args[0] === 'run' ? PAYLOAD : '',
  });
}

async function ok(...args: string[]): Promise<BinRun> {
  const run = await hookpm(...args);
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run;
}

async function fails(code: string, ...args: string[]): Promise<BinRun> {
  const run = await hookpm(...args);
  expect(run.code, run.stdout).not.toBe(0);
  expect(run.stderr).toContain(`error[${code}]`);
  return run;
}

async function ranPlugins(): Promise<string[]> {
  const run = await ok('run', 'PreToolUse', '--payload', '-', '--json');
  const result = JSON.parse(run.stdout) as { runs: Array<{ plugin: string | null }> };
  return result.runs.flatMap((r) => (r.plugin === null ? [] : [r.plugin]));
}

const lockedVersion = async (): Promise<string> =>
  (
    JSON.parse(await readFile(join(world.project, 'hookpm.lock'), 'utf8')) as {
      plugins: Record<string, { version: string }>;
    }
  ).plugins['pg@acme']!.version;

async function addPg(): Promise<void> {
  await ok('registry', 'add', 'acme', world.acme.url);
  await ok('install', '--project', 'pg@acme@^1.0.0', '--yes');
}

/** The key of the project's pg's first hook, as `review --project` shows it. */
async function firstHookKey(): Promise<string> {
  const shown = JSON.parse((await ok('review', '--project', 'pg', '--json')).stdout) as {
    hooks: Array<{ key: string }>;
  };
  return shown.hooks[0]!.key;
}

/** Runs `body` with pg 1.2.0 (`hooks`, else the same) published as `latest`, then takes it out. */
async function withPg120(
  body: () => Promise<void>,
  hooks: Record<string, string[]> = { PreToolUse: [DENY] },
): Promise<void> {
  const doc = world.acme.index.plugins['pg']!;
  await publishPlugin(world.acme, 'pg', '1.2.0', hooks);
  try {
    await body();
  } finally {
    delete doc.versions['1.2.0'];
    doc.distTags['latest'] = '1.1.0';
  }
}

/** Runs each command in the project and sees that pg's hook still does not run. */
async function staysOff(commands: string[][]): Promise<void> {
  for (const args of commands) {
    await ok(...args);
    expect(await ranPlugins(), args.join(' ')).toEqual([]);
  }
}

describe('project plugins by name (registry.md D13, D14)', () => {
  it("D13: disable, enable, review and info with --project act on the project's plugin, not a user-wide one", async () => {
    await addPg();
    expect(await ranPlugins()).toEqual(['pg@acme']);
    // Not installed user-wide: the commands without --project do not see it.
    await fails('E_NOT_INSTALLED', 'disable', 'pg');
    const off = await ok('disable', '--project', 'pg', '--json');
    expect(JSON.parse(off.stdout)).toMatchObject({ id: 'pg@acme', enabled: false, changed: true });
    expect(await ranPlugins()).toEqual([]);
    const listed = JSON.parse((await ok('list', '--project', '--json')).stdout) as {
      plugins: Array<{ id: string; enabled: boolean }>;
    };
    expect(listed.plugins).toMatchObject([{ id: 'pg@acme', enabled: false }]);
    // Consent was given at install: enabling again asks nothing (no --yes, no TTY).
    const on = await ok('enable', '--project', 'pg', '--json');
    expect(JSON.parse(on.stdout)).toMatchObject({ id: 'pg@acme', version: '1.1.0', enabled: true });
    expect(await ranPlugins()).toEqual(['pg@acme']);
    const review = JSON.parse((await ok('review', '--project', 'pg', '--json')).stdout) as {
      id: string;
      version: string;
      consented: boolean;
    };
    expect(review).toMatchObject({ id: 'pg@acme', version: '1.1.0', consented: true });
    const info = JSON.parse((await ok('info', '--project', 'pg', '--json')).stdout) as {
      id: string;
      installed: { version: string; enabled: boolean } | null;
    };
    expect(info.id).toBe('pg@acme');
    expect(info.installed).toMatchObject({ version: '1.1.0', enabled: true });
    const userInfo = JSON.parse((await ok('info', 'pg@acme', '--json')).stdout) as {
      installed: unknown;
    };
    expect(userInfo.installed).toBeNull();
  });

  it('D13: disable --project stops the plugin in the project when the user also has it user-wide: the user-wide one does not run there instead', async () => {
    await addPg();
    await ok('install', 'pg@acme', '--yes');
    expect(await ranPlugins()).toEqual(['pg@acme']);
    await ok('disable', '--project', 'pg');
    expect(await ranPlugins()).toEqual([]);
    // Outside the project the user-wide one still runs.
    const outside = await runBin(['run', 'PreToolUse', '--payload', '-', '--json'], {
      env: world.home.env,
      cwd: world.work,
      stdin: PAYLOAD,
    });
    expect(outside.code, outside.stderr).toBe(0);
    expect(JSON.parse(outside.stdout)).toMatchObject({ runs: [{ plugin: 'pg@acme' }] });
    await ok('enable', '--project', 'pg');
    expect(await ranPlugins()).toEqual(['pg@acme']);
  });

  it('uninstall --project removes a plugin this user installed for the project that hookpm.json no longer names, or a project whose hookpm.json is gone; no file is written', async () => {
    await addPg();
    // A pull dropped pg from hookpm.json and hookpm.lock: this user's record still runs it here.
    const manifest = JSON.stringify({ plugins: {}, registries: {} });
    await writeFile(join(world.project, 'hookpm.json'), manifest);
    await writeFile(join(world.project, 'hookpm.lock'), '{"lockfileVersion":1,"plugins":{}}');
    expect(await ranPlugins()).toEqual(['pg@acme']);
    await ok('uninstall', '--project', 'pg');
    expect(await ranPlugins()).toEqual([]);
    expect(await readFile(join(world.project, 'hookpm.json'), 'utf8')).toBe(manifest);
    // A pull removed both files.
    await ok('install', '--project', 'pg@acme@^1.0.0', '--yes');
    await rm(join(world.project, 'hookpm.json'));
    await rm(join(world.project, 'hookpm.lock'));
    expect(await ranPlugins()).toEqual(['pg@acme']);
    await ok('uninstall', '--project', 'pg@acme');
    expect(await ranPlugins()).toEqual([]);
    await expect(readFile(join(world.project, 'hookpm.json'))).rejects.toThrow(/ENOENT/);
    await expect(readFile(join(world.project, 'hookpm.lock'))).rejects.toThrow(/ENOENT/);
    await fails('E_USAGE', 'uninstall', '--project', 'pg');
  });

  it("D13: disable --hook and enable --hook with --project turn one hook of the project's plugin off and on", async () => {
    await addPg();
    const key = await firstHookKey();
    await fails('E_NOT_INSTALLED', 'disable', 'pg', '--hook', key);
    const off = await ok('disable', '--project', 'pg', '--hook', key, '--json');
    expect(JSON.parse(off.stdout)).toMatchObject({ id: 'pg@acme', disabledHooks: [key] });
    expect(await ranPlugins()).toEqual([]);
    await ok('enable', '--project', 'pg', '--hook', key);
    expect(await ranPlugins()).toEqual(['pg@acme']);
  });

  it('D13: `ci`, `install` and `update --project` leave a plugin this user disabled in the project disabled, its consent kept; `enable --project` turns it on', async () => {
    await addPg();
    await ok('disable', '--project', 'pg');
    const enabled = async (): Promise<boolean | undefined> =>
      (
        JSON.parse((await ok('list', '--project', '--json')).stdout) as {
          plugins: Array<{ id: string; enabled: boolean }>;
        }
      ).plugins.find((p) => p.id === 'pg@acme')?.enabled;
    await staysOff([['ci'], ['ci', '--yes'], ['install']]);
    expect(await enabled()).toBe(false);
    await withPg120(async () => {
      await ok('update', '--project');
      expect(await lockedVersion()).toBe('1.2.0');
      expect(await ranPlugins()).toEqual([]);
      expect(await enabled()).toBe(false);
      // The same hooks: the consent carried, so enabling asks nothing (no --yes, no TTY).
      await ok('enable', '--project', 'pg');
      expect(await ranPlugins()).toEqual(['pg@acme']);
    });
  });

  it('D13: a hook turned off in the project stays off through `update --project` and `ci` of a new version that keeps it', async () => {
    await addPg();
    const key = await firstHookKey();
    await ok('disable', '--project', 'pg', '--hook', key);
    await withPg120(async () => {
      await ok('update', '--project');
      expect(await lockedVersion()).toBe('1.2.0');
      expect(await ranPlugins()).toEqual([]);
      await ok('ci');
      expect(await ranPlugins()).toEqual([]);
      await ok('enable', '--project', 'pg', '--hook', key);
      expect(await ranPlugins()).toEqual(['pg@acme']);
    });
  });

  it('D13: a plugin disabled in the project stays disabled after a version that widens its hooks, through a later `ci --yes` too; enabling asks', async () => {
    await addPg();
    await ok('disable', '--project', 'pg');
    await withPg120(
      async () => {
        await ok('update', '--project');
        expect(await lockedVersion()).toBe('1.2.0');
        await staysOff([['ci'], ['ci', '--yes'], ['install', '--yes']]);
        // The old consent does not cover the added hook: enabling asks (no TTY here).
        await fails('E_CONSENT_REQUIRED', 'enable', '--project', 'pg');
        await ok('enable', '--project', 'pg', '--yes');
        expect(await ranPlugins()).toEqual(['pg@acme']);
      },
      { PreToolUse: [DENY], Stop: ['true'] },
    );
  });

  it('D13: a plugin disabled in the project before any consent stays off through `ci --yes`', async () => {
    await ok('registry', 'add', 'acme', world.acme.url);
    await fails('E_CONSENT_REQUIRED', 'install', '--project', 'pg@acme@^1.0.0');
    await ok('disable', '--project', 'pg');
    await staysOff([['ci'], ['ci', '--yes'], ['install', '--yes']]);
    await fails('E_CONSENT_REQUIRED', 'enable', '--project', 'pg');
    await ok('enable', '--project', 'pg', '--yes');
    expect(await ranPlugins()).toEqual(['pg@acme']);
  });

  it('projects.md consent: install --project <spec> --yes consents to the plugin it names, not to one hookpm.json adds along', async () => {
    // A clone's hookpm.json names side@acme, which its lock does not pin: `install --project`
    // installs and locks it with pg, but --yes answers for pg alone.
    await writeFile(
      join(world.project, 'hookpm.json'),
      JSON.stringify({ plugins: { 'side@acme': '^1.0.0' }, registries: { acme: world.acme.url } }),
    );
    await ok('registry', 'add', 'acme', world.acme.url);
    const plan = JSON.parse(
      (await ok('install', '--project', 'pg@acme@^1.0.0', '--yes', '--dry-run', '--json')).stdout,
    ) as { installed: Array<{ id: string; enabled: boolean }> };
    expect(plan.installed.map((e) => [e.id, e.enabled])).toEqual([
      ['pg@acme', true],
      ['side@acme', false],
    ]);
    const run = await fails(
      'E_CONSENT_REQUIRED',
      'install',
      '--project',
      'pg@acme@^1.0.0',
      '--yes',
    );
    expect(run.stderr).toContain('side@acme');
    expect(run.stderr).not.toContain('pg@acme');
    expect(await ranPlugins()).toEqual(['pg@acme']);
    await ok('enable', '--project', 'side', '--yes');
    expect(await ranPlugins()).toEqual(['pg@acme', 'side@acme']);
  });

  it('D13: enable --project asks nothing for a surface and tree consented elsewhere, and its hint names --project', async () => {
    await ok('registry', 'add', 'acme', world.acme.url);
    await fails('E_CONSENT_REQUIRED', 'install', '--project', 'pg@acme@^1.0.0');
    const asked = await fails('E_CONSENT_REQUIRED', 'enable', '--project', 'pg');
    expect(asked.stderr).toContain('hookpm enable pg@acme --project --yes');
    expect(asked.stderr).toContain('hookpm review pg@acme --project');
    // The same version user-wide, with the same files, consented there.
    await ok('install', `pg@acme@${await lockedVersion()}`, '--yes');
    await ok('disable', 'pg');
    await ok('enable', '--project', 'pg');
    expect(await ranPlugins()).toEqual(['pg@acme']);
  });

  it("D13: enable --project's E_CONSENT_REQUIRED names the --project commands that review and enable it, not the user-wide ones", async () => {
    await ok('registry', 'add', 'acme', world.acme.url);
    await fails('E_CONSENT_REQUIRED', 'install', '--project', 'pg@acme@^1.0.0');
    const run = await fails('E_CONSENT_REQUIRED', 'enable', '--project', 'pg');
    expect(run.stderr).toContain(
      'Run `hookpm review pg@acme --project` to see what it runs, then `hookpm enable pg@acme --project --yes`.',
    );
    // The user-wide commands the hint named before know no pg@acme.
    await fails('E_NOT_INSTALLED', 'enable', 'pg@acme', '--yes');
  });

  it("D13: review --project of a plugin the project has not installed reads hookpm.json's registries, as install --project would", async () => {
    // A fresh clone: acme is hookpm.json's alone, the user never added it.
    await writeFile(
      join(world.project, 'hookpm.json'),
      JSON.stringify({ plugins: { 'pg@acme': '^1.0.0' }, registries: { acme: world.acme.url } }),
    );
    const shown = JSON.parse((await ok('review', '--project', 'pg@acme', '--json')).stdout) as {
      id: string;
      version: string;
    };
    expect(shown).toMatchObject({ id: 'pg@acme', version: '1.1.0' });
    // Without --project the user's registries are the ones read: they know no acme.
    await fails('E_NOT_FOUND', 'review', 'pg@acme');
  });

  it("projects.md consent: while the project's copy waits for consent, the user's own install of the same id runs there", async () => {
    const deny120 = DENY.replace('"pg"', '"pg 1.2.0"');
    await withPg120(
      async () => {
        await ok('registry', 'add', 'acme', world.acme.url);
        await ok('install', 'pg@acme@1.1.0', '--yes');
        await fails('E_CONSENT_REQUIRED', 'install', '--project', 'pg@acme@1.2.0');
        const reason = async (): Promise<string | undefined> => {
          const run = await ok('run', 'PreToolUse', '--payload', '-', '--json');
          const result = JSON.parse(run.stdout) as { permission: { reason?: string } | null };
          return result.permission?.reason;
        };
        expect(await ranPlugins()).toEqual(['pg@acme']);
        expect(await reason()).toBe('pg');
        await ok('enable', '--project', 'pg', '--yes');
        expect(await ranPlugins()).toEqual(['pg@acme']);
        expect(await reason()).toBe('pg 1.2.0');
      },
      { PreToolUse: [deny120] },
    );
  });

  it('D13: a project with no plugin installed by this user says so', async () => {
    const run = await fails('E_NOT_INSTALLED', 'enable', '--project', 'pg');
    expect(run.stderr).toContain('no plugin is installed for the project');
  });

  it('D14: update --project follows --include-prerelease, and holds a registry that moved backwards unless --allow-downgrade', async () => {
    await addPg();
    expect(await lockedVersion()).toBe('1.1.0');
    // The registry moved backwards: 1.1.0 is gone from its index.
    const doc = world.acme.index.plugins['pg']!;
    const removed = doc.versions['1.1.0']!;
    delete doc.versions['1.1.0'];
    doc.distTags['latest'] = '1.0.0';
    try {
      const lockBefore = await readFile(join(world.project, 'hookpm.lock'), 'utf8');
      const held = await ok('update', '--project');
      expect(held.stderr).toContain('older than the locked 1.1.0');
      expect(held.stderr).toContain('--allow-downgrade');
      expect(await readFile(join(world.project, 'hookpm.lock'), 'utf8')).toBe(lockBefore);
      await ok('update', '--project', '--allow-downgrade', '--yes');
      expect(await lockedVersion()).toBe('1.0.0');
    } finally {
      doc.versions['1.1.0'] = removed;
      doc.distTags['latest'] = '1.1.0';
    }
    // `latest` names the prerelease: ^1.0.0 takes it only with --include-prerelease.
    await publishPlugin(world.acme, 'pg', '1.2.0-beta.1', { PreToolUse: [DENY] });
    try {
      await ok('update', '--project', '--yes');
      expect(await lockedVersion()).toBe('1.1.0');
      // `latest` moved back while 1.1.0 and 1.2.0-beta.1 are still listed: the lock holds, and
      // the note says what the registry offers for the range (its `latest`), not that 1.0.0 is
      // the newest version it lists.
      doc.distTags['latest'] = '1.0.0';
      const behind = await ok('update', '--project');
      expect(behind.stderr).toContain(
        'pg@acme: the version its registry offers for ^1.0.0 is 1.0.0, older than the locked 1.1.0',
      );
      expect(behind.stderr).not.toContain('newest version');
      expect(await lockedVersion()).toBe('1.1.0');
      doc.distTags['latest'] = '1.2.0-beta.1';
      await ok('update', '--project', '--include-prerelease', '--yes');
      expect(await lockedVersion()).toBe('1.2.0-beta.1');
    } finally {
      delete doc.versions['1.2.0-beta.1'];
      doc.distTags['latest'] = '1.1.0';
    }
  });
});
