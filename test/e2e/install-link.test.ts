import { cp, mkdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { marketplaceCatalog } from '../helpers/claude-plugin.js';
import { stateFileHash } from '../helpers/store-snapshot.js';

/**
 * `hookpm install --link <dir>` (plugins.md D15): a plugin directory read in place, as `npm link`
 * does, with the built binary.
 */

const ws = useBinWorkspace('e2e-install-link');

/** A Stop hook that runs `say.sh` of the plugin, which prints a systemMessage. */
function hooks(command = 'sh "${CLAUDE_PLUGIN_ROOT}/say.sh"') {
  return { hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } };
}

const say = (text: string) => `printf '{"systemMessage":"${text}"}'\n`;

async function pluginDir(name = 'dev'): Promise<string> {
  const dir = join(ws.dir, `src${ws.n}`, name);
  await mkdir(join(dir, '.claude-plugin'), { recursive: true });
  await mkdir(join(dir, 'hooks'), { recursive: true });
  await writeFile(
    join(dir, '.claude-plugin', 'plugin.json'),
    JSON.stringify({ name, version: '1.0.0' }),
  );
  await writeFile(join(dir, 'hooks', 'hooks.json'), JSON.stringify(hooks()));
  await writeFile(join(dir, 'say.sh'), say('one'));
  return dir;
}

async function ok(args: string[], stdin?: string) {
  const run = await ws.hookpm(args, stdin === undefined ? {} : { stdin });
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run;
}

interface Result {
  systemMessages: string[];
  runs: Array<{ plugin: string | null }>;
  diagnostics: Array<{ code: string; message: string }>;
}

async function stop(): Promise<Result> {
  const run = await ws.hookpm(['run', 'Stop', '--payload', '{}', '--json']);
  return JSON.parse(run.stdout) as Result;
}

interface ReviewKeys {
  hooks: Array<{ key: string }>;
}

interface LinkedRecord {
  enabled: boolean;
  consent: { confine?: unknown } | null;
  disabledHooks?: string[];
}

/** A record still confined as `enable --confine network=false,write=none` left it, `key` off. */
function keptFor(key: string): Partial<LinkedRecord> {
  return {
    enabled: true,
    consent: expect.objectContaining({ confine: { network: false, write: [] } }) as never,
    disabledHooks: [key],
  };
}

describe('install --link (plugins.md D15)', () => {
  it('D15: the directory is read in place: an edited script runs at once, with no version bump, no copy and no tamper check', async () => {
    const dir = await pluginDir();
    const linked = JSON.parse((await ok(['install', '--link', dir, '--yes', '--json'])).stdout) as {
      id: string;
      path: string;
      linked: boolean;
    };
    expect(linked).toMatchObject({ id: 'dev@local', linked: true });
    expect((await stop()).systemMessages).toEqual(['one']);
    await writeFile(join(dir, 'say.sh'), say('two'));
    const after = await stop();
    expect(after.systemMessages).toEqual(['two']);
    expect(after.diagnostics.map((d) => d.code)).not.toContain('plugin_tampered');
    const state = JSON.parse(
      await readFile(join(ws.home, 'hookpm', 'data', 'state.json'), 'utf8').catch(() => '{}'),
    ) as { plugins?: Record<string, { path: string; linked?: boolean }> };
    if (state.plugins !== undefined)
      expect(state.plugins['dev@local']).toMatchObject({ linked: true, path: linked.path });
    const doctor = await ws.hookpm(['doctor', '--json']);
    expect(doctor.stdout).not.toContain('plugin_tampered');
  });

  it('D15, Q3: the review of a linked plugin with an edited script shows no plugin_tampered diagnostic', async () => {
    const dir = await pluginDir();
    await ok(['install', '--link', dir, '--yes']);
    await writeFile(join(dir, 'say.sh'), say('two'));
    const review = JSON.parse((await ok(['review', 'dev', '--json'])).stdout) as {
      diagnostics: Array<{ code: string }>;
    };
    expect(review.diagnostics.map((d) => d.code)).not.toContain('plugin_tampered');
    expect((await ok(['review', 'dev'])).stdout).not.toContain('plugin_tampered');
  });

  it('D15: a change of its hooks stops them (failing closed) until consent is given again with enable', async () => {
    const dir = await pluginDir();
    await ok(['install', '--link', dir, '--yes']);
    await writeFile(
      join(dir, 'hooks', 'hooks.json'),
      JSON.stringify(hooks(`sh "\${CLAUDE_PLUGIN_ROOT}/say.sh" && true`)),
    );
    const changed = await stop();
    expect(changed.systemMessages).not.toContain('one');
    expect(changed.diagnostics.map((d) => d.code)).toContain('linked_surface_changed');
    // The fail-closed reason names the fix D15 gives (enable), not a reinstall, which would
    // replace the link with a copy (engine.md fail closed).
    const blocked = (await ws.hookpm(['run', 'Stop', '--payload', '{}', '--json'])).stdout;
    expect(blocked).toContain('hookpm fails closed: plugin dev@local');
    expect(blocked).toContain('run `hookpm enable dev@local` to review');
    expect(blocked).not.toContain('install --force');
    // No TTY and no --yes: the new hooks are not consented to.
    const asked = await ws.hookpm(['enable', 'dev']);
    expect(asked.code).not.toBe(0);
    expect(asked.stderr).toContain('E_CONSENT_REQUIRED');
    await ok(['enable', 'dev', '--yes']);
    expect((await stop()).systemMessages).toEqual(['one']);
  });

  it('D15, security.md Z4: linking again keeps the confinement and the hooks turned off given with the consent', async () => {
    const dir = await pluginDir();
    await ok(['install', '--link', dir, '--yes']);
    await ok(['enable', 'dev', '--confine', 'network=false,write=none']);
    const key = (JSON.parse((await ok(['review', 'dev', '--json'])).stdout) as ReviewKeys).hooks[0]!
      .key;
    await ok(['disable', 'dev', '--hook', key]);
    await ok(['disable', 'dev']);
    const record = async () => {
      const state = JSON.parse(
        await readFile(join(ws.home, 'hookpm', 'data', 'state.json'), 'utf8'),
      ) as { plugins: Record<string, LinkedRecord> };
      return state.plugins['dev@local']!;
    };
    // The same surface asks nothing; another one is consented with --yes: neither lifts them.
    await ok(['install', '--link', dir]);
    expect(await record()).toMatchObject(keptFor(key));
    const wider = hooks();
    wider.hooks.Stop.push({ hooks: [{ type: 'command', command: 'true' }] });
    await writeFile(join(dir, 'hooks', 'hooks.json'), JSON.stringify(wider));
    await ok(['install', '--link', dir, '--yes']);
    expect(await record()).toMatchObject(keptFor(key));
  });

  it('D15: `update` passes over a linked plugin saying it runs as edited, never to install it again (which would replace the link)', async () => {
    const dir = await pluginDir();
    await ok(['install', '--link', dir, '--yes']);
    const run = await ok(['update', 'dev', '--json']);
    const skipped = (
      JSON.parse(run.stdout) as { skipped: Array<{ reason: string; message: string }> }
    ).skipped;
    expect(skipped).toMatchObject([{ reason: 'local' }]);
    expect(skipped[0]?.message).toContain('is linked to');
    expect(skipped[0]?.message).toContain('hookpm enable dev@local');
    expect(skipped[0]?.message).not.toContain('install it again');
  });

  it('rollback of a local or linked plugin with nothing to roll back names a fix that exists (commands.md#rollback)', async () => {
    const dir = await pluginDir();
    await ok(['install', '--link', dir, '--yes']);
    const linked = await ws.hookpm(['rollback', 'dev']);
    expect(linked.code).toBe(1);
    expect(linked.stderr).toContain('E_NOT_FOUND');
    expect(linked.stderr).not.toContain('@local@');
    expect(linked.stderr).toContain('runs as its directory is edited');
    const copied = await pluginDir('copy');
    await ok(['install', copied, '--yes']);
    const local = await ws.hookpm(['rollback', 'copy']);
    expect(local.code).toBe(1);
    expect(local.stderr).not.toContain('@local@');
    expect(local.stderr).toContain(`hookpm install ${copied}`);
  });

  it('D15, Q6: a copy replacing a link keeps no rollback to the directory, which is no tree of the store', async () => {
    const dir = await pluginDir();
    await ok(['install', '--link', dir, '--yes']);
    const copy = join(ws.dir, `copy${ws.n}`);
    await cp(dir, copy, { recursive: true });
    await writeFile(
      join(copy, '.claude-plugin', 'plugin.json'),
      JSON.stringify({ name: 'dev', version: '2.0.0' }),
    );
    await ok(['install', copy, '--yes']);
    const back = await ws.hookpm(['rollback', 'dev']);
    expect(back.code).toBe(1);
    expect(back.stderr).toContain('E_NOT_FOUND');
    const state = JSON.parse(
      await readFile(join(ws.home, 'hookpm', 'data', 'state.json'), 'utf8'),
    ) as { plugins: Record<string, { version: string; path: string }> };
    expect(state.plugins['dev@local']).toMatchObject({ version: '2.0.0' });
    expect(state.plugins['dev@local']!.path).not.toBe(dir);
  });

  it('D15, Q6: a copy that waited for consent beside a link is an installed copy once enabled, held to the tamper check', async () => {
    const dir = await pluginDir();
    await ok(['install', '--link', dir, '--yes']);
    const copy = join(ws.dir, `copy${ws.n}`);
    await cp(dir, copy, { recursive: true });
    await writeFile(join(copy, 'say.sh'), say('two'));
    const waits = await ws.hookpm(['install', copy]);
    expect(waits.stderr).toContain('E_CONSENT_REQUIRED');
    await ok(['enable', 'dev', '--yes']);
    const state = JSON.parse(
      await readFile(join(ws.home, 'hookpm', 'data', 'state.json'), 'utf8'),
    ) as { plugins: Record<string, { path: string; linked?: boolean }> };
    const record = state.plugins['dev@local']!;
    expect(record.linked).toBeUndefined();
    expect((await stop()).systemMessages).toEqual(['two']);
    await writeFile(join(record.path, 'say.sh'), say('three'));
    const changed = await stop();
    expect(changed.systemMessages).not.toContain('three');
    expect(changed.diagnostics.map((d) => d.code)).toContain('plugin_tampered');
  });

  it('D15: under a linked agent the pinned plugin runs an edited script without a tamper refusal', async () => {
    const dir = await pluginDir();
    await ok(['install', '--link', dir, '--yes']);
    const payload = (event: string, extra: Record<string, unknown>) =>
      JSON.stringify({
        session_id: 's-link',
        transcript_path: join(ws.home, 't.jsonl'),
        cwd: ws.repo,
        hook_event_name: event,
        ...extra,
      });
    await ok(['wire', 'claude'], payload('SessionStart', { source: 'startup' }));
    await writeFile(join(dir, 'say.sh'), say('three'));
    const answer = await ok(
      ['wire', 'claude'],
      payload('Stop', { stop_hook_active: false, last_assistant_message: 'ok' }),
    );
    expect(JSON.parse(answer.stdout)).toEqual({ systemMessage: 'three' });
  });

  it('D15: linking needs consent (E_CONSENT_REQUIRED without --yes or a TTY, nothing recorded); --link takes one directory and no --project', async () => {
    const dir = await pluginDir();
    const refused = await ws.hookpm(['install', '--link', dir]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('E_CONSENT_REQUIRED');
    expect((await stop()).runs).toEqual([]);
    for (const args of [
      ['install', '--link', dir, '--project', '--yes'],
      ['install', '--link', dir, dir, '--yes'],
      ['install', '--link', dir, '--dry-run'],
    ]) {
      const run = await ws.hookpm(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('error[E_USAGE]');
    }
  });

  it('D15, registry.md A2: a directory over a tree limit is refused before its files are hashed and consent is asked, nothing recorded', async () => {
    const dir = await pluginDir();
    // A sparse 3 GiB file: over the 20 MiB a file its integrity is computed under, and hashing
    // it first would take seconds.
    await writeFile(join(dir, 'blob.bin'), '');
    await truncate(join(dir, 'blob.bin'), 3 * 1024 ** 3);
    const before = stateFileHash(ws.home);
    for (const args of [
      ['install', '--link', dir],
      ['install', '--link', dir, '--yes'],
    ]) {
      const run = await ws.hookpm(args);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('error[E_ARCHIVE_TOO_LARGE]');
      expect(run.stderr).toContain('blob.bin is 3221225472 bytes (limit 20971520 a file)');
      expect(run.stdout).toBe('');
    }
    expect(stateFileHash(ws.home)).toBe(before);
    expect((await stop()).runs).toEqual([]);
  });

  it('registry.md A2: a directory installed as a copy is held to the same limits before a byte of it is copied, nothing recorded', async () => {
    const dir = await pluginDir();
    await writeFile(join(dir, 'blob.bin'), '');
    await truncate(join(dir, 'blob.bin'), 3 * 1024 ** 3);
    const before = stateFileHash(ws.home);
    const run = await ws.hookpm(['install', dir, '--yes']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('error[E_ARCHIVE_TOO_LARGE]');
    expect(run.stderr).toContain('blob.bin is 3221225472 bytes (limit 20971520 a file)');
    expect(stateFileHash(ws.home)).toBe(before);
    const staging = join(ws.home, 'hookpm', 'data', '.staging');
    expect(existsSync(staging) ? readdirSync(staging) : []).toEqual([]);
  });

  it('D15: unlinked, a plugin of a marketplace on disk edited without a version bump stays E_INTEGRITY_CHANGED, and the hint names --link', async () => {
    const market = join(ws.dir, `market${ws.n}`);
    const dir = join(market, 'plugins', 'dev');
    await mkdir(join(market, '.claude-plugin'), { recursive: true });
    await mkdir(join(dir, '.claude-plugin'), { recursive: true });
    await mkdir(join(dir, 'hooks'), { recursive: true });
    await writeFile(
      join(dir, '.claude-plugin', 'plugin.json'),
      JSON.stringify({ name: 'dev', version: '1.0.0' }),
    );
    await writeFile(join(dir, 'hooks', 'hooks.json'), JSON.stringify(hooks()));
    await writeFile(join(dir, 'say.sh'), say('one'));
    await writeFile(
      join(market, '.claude-plugin', 'marketplace.json'),
      JSON.stringify(marketplaceCatalog('mk', [{ name: 'dev', source: './plugins/dev' }])),
    );
    await ok(['registry', 'add', 'mk', market]);
    await ok(['install', 'dev@mk', '--yes']);
    await writeFile(join(dir, 'say.sh'), say('two'));
    const update = await ws.hookpm(['update', 'dev']);
    expect(update.code).not.toBe(0);
    expect(update.stderr).toContain('E_INTEGRITY_CHANGED');
    expect(update.stderr).toContain('hookpm install --link <dir>');
  });
});
