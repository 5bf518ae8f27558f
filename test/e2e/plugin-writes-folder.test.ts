/**
 * Plugins that write into their own folder (plugins.md Q6, V3): files a plugin creates in its own
 * installed folder after install (a `.state/` beside its scripts, as six Dev-GOM plugins of the
 * corpus do) are not tampering, so it runs every time; installed files changed or removed still
 * are; and a created file that would change what runs without consent is tampering: a hooks
 * document or manifest hookpm would read, or a file a handler names. `doctor` names the plugins
 * that write into their folder and points at CLAUDE_PLUGIN_DATA. The built CLI, real handler
 * processes, real trees.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { writeFiles } from '../helpers/git-repo.js';
import { COUNTER, SESSION_START } from '../helpers/plugin-scripts.js';

let dir: string;
let n = 0;

beforeAll(async () => {
  ensureBuilt();
  dir = await mkdtemp(join(tmpdir(), 'hookpm-writes-folder-'));
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

async function setUp(extraHandler?: string) {
  n += 1;
  const home = join(dir, `home${n}`);
  const src = join(dir, `src${n}`);
  const handlers = [{ type: 'command', command: 'node "${CLAUDE_PLUGIN_ROOT}/scripts/count.js"' }];
  if (extraHandler !== undefined) handlers.push({ type: 'command', command: extraHandler });
  await writeFiles(src, {
    '.claude-plugin/plugin.json': JSON.stringify({
      name: 'counter',
      version: '1.0.0',
      hooks: './extra/hooks.json',
    }),
    'extra/hooks.json': JSON.stringify({ hooks: { SessionStart: [{ hooks: handlers }] } }),
    'scripts/count.js': COUNTER,
  });
  await mkdir(home, { recursive: true });
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    HOOKPM_HOME: join(home, 'hk'),
    NO_COLOR: '1',
  };
  const hookpm = (...args: string[]) => runBin(args, { env, cwd: dir, stdin: SESSION_START });
  const installed = await hookpm('install', src, '--yes');
  expect(installed.code, installed.stderr).toBe(0);
  const state = JSON.parse(await readFile(join(home, 'hk', 'data', 'state.json'), 'utf8'));
  const root: string = state.plugins['counter@local'].path;
  const start = async () => {
    const run = await hookpm('run', 'SessionStart', '--payload', '-', '--json');
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as {
      diagnostics: Array<{ code: string; plugin?: string; message: string }>;
      context: string[];
    };
    const tampered = out.diagnostics.find((d) => d.code === 'plugin_tampered');
    return { out, tampered, text: out.context.join('\n') };
  };
  return { hookpm, root, start, src, home };
}

describe('a plugin that writes into its own folder (Q6)', () => {
  it('`review` of it reports no tampering, and an update changing only its version carries the consent (Q5)', async () => {
    const { hookpm, start, src } = await setUp();
    await start();
    const review = JSON.parse((await hookpm('review', 'counter', '--json')).stdout);
    expect(JSON.stringify(review.diagnostics)).not.toContain('plugin_tampered');
    expect(review.ok).toBe(true);
    const manifest = join(src, '.claude-plugin', 'plugin.json');
    const text = await readFile(manifest, 'utf8');
    await writeFile(manifest, text.replace('1.0.0', '1.0.1'));
    const updated = await hookpm('install', src);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain('installed counter@local 1.0.1 (enabled)');
    expect((await start()).text).toContain('run 1');
  });

  it('install keeps the installed paths beside the state; uninstall collects them (D4)', async () => {
    const { hookpm, home } = await setUp();
    const lists = join(home, 'hk', 'data', 'installed-files');
    const [name] = await readdir(lists);
    expect(JSON.parse(await readFile(join(lists, name!), 'utf8'))).toEqual([
      '.claude-plugin/plugin.json',
      'extra/hooks.json',
      'scripts/count.js',
    ]);
    expect((await hookpm('uninstall', 'counter')).code).toBe(0);
    expect(await readdir(lists)).toEqual([]);
  });

  it('runs every time: its created .state/ is not tampering (Q6)', async () => {
    const { start, root } = await setUp();
    for (const count of [1, 2, 3]) {
      const { tampered, text } = await start();
      expect(tampered, tampered?.message).toBeUndefined();
      expect(text).toContain(`run ${count}`);
    }
    expect(await readFile(join(root, '.state', 'count'), 'utf8')).toBe('3');
  });

  it('an installed file changed or removed is still tampering', async () => {
    const changed = await setUp();
    await changed.start();
    await writeFile(join(changed.root, 'scripts', 'count.js'), 'process.stdout.write("evil")');
    const afterEdit = await changed.start();
    expect(afterEdit.tampered?.message).toContain('its installed files were changed after install');
    expect(afterEdit.text).not.toContain('evil');

    const removed = await setUp();
    await removed.start();
    await unlink(join(removed.root, 'extra', 'hooks.json'));
    expect((await removed.start()).tampered?.message).toContain('were changed after install');
  });

  it('a created hooks document hookpm would read (hooks/hooks.json, absent at install) is tampering', async () => {
    const { hookpm, start, root } = await setUp();
    await mkdir(join(root, 'hooks'));
    await writeFile(
      join(root, 'hooks', 'hooks.json'),
      JSON.stringify({
        hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo sneaked-in' }] }] },
      }),
    );
    const { tampered, text } = await start();
    expect(tampered?.message).toContain(
      'hooks/hooks.json was created after install and is read as its manifest or hooks, which would change what runs without consent',
    );
    expect(text).not.toContain('sneaked-in');
    const review = JSON.parse((await hookpm('review', 'counter', '--json')).stdout);
    expect(review.diagnostics[0]).toMatchObject({ code: 'plugin_tampered' });
  });

  it('a created root plugin.json (a manifest that would take over) is tampering', async () => {
    const { start, root } = await setUp();
    await writeFile(
      join(root, 'plugin.json'),
      JSON.stringify({ name: 'counter', hooks: './x.json' }),
    );
    expect((await start()).tampered?.message).toContain('plugin.json was created after install');
  });

  it('a created file a handler names (a script missing at install) is tampering', async () => {
    const { start, root } = await setUp('sh "${CLAUDE_PLUGIN_ROOT}/scripts/later.sh"');
    await start();
    await writeFile(join(root, 'scripts', 'later.sh'), 'echo shadowed');
    const { tampered, text } = await start();
    expect(tampered?.message).toContain(
      'scripts/later.sh was created after install and a handler names scripts/later.sh',
    );
    expect(text).not.toContain('shadowed');
  });

  it('`doctor` names the plugin that writes into its folder and points at CLAUDE_PLUGIN_DATA; disable and enable keep working', async () => {
    const { hookpm, start } = await setUp();
    await start();
    const doctor = await hookpm('doctor', '--json');
    const report = JSON.stringify(JSON.parse(doctor.stdout));
    expect(report).toContain('plugin_writes_folder');
    expect(report).toContain('writes into its installed folder');
    expect(report).toContain('.state/count');
    expect(report).toContain('$CLAUDE_PLUGIN_DATA');
    expect(report).not.toContain('plugin_tampered');
    expect((await hookpm('disable', 'counter')).code).toBe(0);
    const enabled = await hookpm('enable', 'counter', '--yes');
    expect(enabled.code, enabled.stderr).toBe(0);
    expect((await start()).text).toContain('run 2');
  });
});
