/**
 * Projects, end to end with the built binary and a real registry on 127.0.0.1: what project plugins
 * share with the user-wide ones in a user's store.
 * - Data directories (plugins.md V3): one per plugin id, shared by the user-wide plugin and every
 *   project's; uninstalling either keeps it while another record names the id, and the last
 *   uninstall deletes it, or the next command when that uninstall was killed (registry.md S41).
 * - A project plugin that writes `.state/` into its own installed folder (Q6) is
 *   not tampered: it keeps running in its project, and `hookpm ci` of the project works.
 * - `install --project --dry-run` and `install --dry-run` in a project print the plan and what
 *   would be locked, and leave hookpm.json, hookpm.lock and the store byte-identical.
 */
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { markedDataIds } from '../../src/store/collect-marker.js';
import { resolveStorePaths, stagingRoot, stateFile } from '../../src/store/paths.js';
import { pluginDataDir } from '../../src/store/plugin-dirs.js';
import { ensureBuilt, runBin, type BinRun } from '../helpers/built-bin.js';
import { killAfterStateWrite } from '../helpers/kill-after-state-write.js';
import {
  publishPlugin,
  publishTree,
  type ServedRegistry,
  startPluginRegistry,
} from '../helpers/plugin-registry.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { COUNTER, SESSION_START } from '../helpers/plugin-scripts.js';

/** Appends a line to `$CLAUDE_PLUGIN_DATA/seen` on each PreToolUse: the data a user would lose. */
const REMEMBER = 'echo seen >> "$CLAUDE_PLUGIN_DATA/seen"';

const PRE_TOOL_USE = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } });

let acme: ServedRegistry;
let homes: TempHome[];
let work: string;
let project: string;
let outside: string;

beforeAll(async () => {
  ensureBuilt();
  acme = await startPluginRegistry('acme');
  await publishPlugin(acme, 'keeper', '1.0.0', { PreToolUse: [REMEMBER] });
  await publishPlugin(acme, 'tool', '1.0.0', { PreToolUse: ['echo tool'] });
  await publishPlugin(acme, 'bumped', '1.0.0', { PreToolUse: ['echo bumped'] });
  await publishTree(acme, 'counter', '1.0.0', {
    '.claude-plugin/plugin.json': { json: { name: 'counter', version: '1.0.0' } },
    'hooks/hooks.json': {
      json: {
        hooks: {
          SessionStart: [
            {
              hooks: [
                { type: 'command', command: 'node "${CLAUDE_PLUGIN_ROOT}/scripts/count.js"' },
              ],
            },
          ],
        },
      },
    },
    'scripts/count.js': COUNTER,
  });
}, 120_000);
afterAll(() => acme.close());

beforeEach(async () => {
  homes = [await makeTempHome('hookpm-store-a-'), await makeTempHome('hookpm-store-b-')];
  work = await realpath(await mkdtemp(join(tmpdir(), 'hookpm-project-store-')));
  project = join(work, 'repo');
  outside = join(work, 'elsewhere');
  await mkdir(join(project, '.git'), { recursive: true });
  await mkdir(join(outside, '.git'), { recursive: true });
});
afterEach(async () => {
  for (const home of homes) await home.cleanup();
  await rm(work, { recursive: true, force: true });
});

function hookpm(
  home: TempHome,
  cwd: string,
  args: string[],
  stdin = PRE_TOOL_USE,
): Promise<BinRun> {
  return runBin(args, { env: home.env, cwd, stdin: args[0] === 'run' ? stdin : '' });
}

async function ok(home: TempHome, cwd: string, ...args: string[]): Promise<BinRun> {
  const run = await hookpm(home, cwd, args);
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run;
}

const storeOf = (home: TempHome) => resolveStorePaths({ HOOKPM_HOME: home.env.HOOKPM_HOME });
const dataOf = (home: TempHome, id: string) => pluginDataDir(storeOf(home), id);
const seen = (home: TempHome) =>
  readFile(join(dataOf(home, 'keeper@acme'), 'seen'), 'utf8').catch(() => null);
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
const projectFiles = async () => ({
  json: await readFile(join(project, 'hookpm.json'), 'utf8').catch(() => null),
  lock: await readFile(join(project, 'hookpm.lock'), 'utf8').catch(() => null),
});

/** keeper@acme installed user-wide and for the project, each having written its data once. */
async function keeperBothWays(a: TempHome): Promise<void> {
  await ok(a, project, 'registry', 'add', 'acme', acme.url);
  await ok(a, project, 'install', '--project', 'keeper@acme', '--yes');
  await ok(a, outside, 'install', 'keeper@acme', '--yes');
  await ok(a, project, 'run', 'PreToolUse', '--payload', '-');
  await ok(a, outside, 'run', 'PreToolUse', '--payload', '-');
  expect(await seen(a)).toBe('seen\nseen\n');
}

describe('one data directory per plugin id, shared by the user-wide plugin and projects (V3)', () => {
  it('uninstalling the user-wide plugin keeps the data a project still uses; the last uninstall (--project) deletes it', async () => {
    const [a] = homes as [TempHome];
    await keeperBothWays(a);
    const plan = await ok(a, outside, 'uninstall', 'keeper@acme', '--dry-run');
    expect(plan.stdout).toContain(
      `would uninstall keeper@acme 1.0.0 (data kept: the project ${project} uses it)`,
    );
    expect(plan.stdout).not.toContain(dataOf(a, 'keeper@acme'));
    const gone = await ok(a, outside, 'uninstall', 'keeper@acme', '--json');
    expect(JSON.parse(gone.stdout)).toMatchObject({
      uninstalled: [
        { id: 'keeper@acme', keptData: true, dataDir: null, keptFor: [`the project ${project}`] },
      ],
    });
    expect(await seen(a)).toBe('seen\nseen\n');
    // The project's plugin keeps running with its data.
    await ok(a, project, 'run', 'PreToolUse', '--payload', '-');
    expect(await seen(a)).toBe('seen\nseen\nseen\n');

    const last = await ok(a, project, 'uninstall', '--project', 'keeper');
    expect(last.stderr).toContain(
      `removed the data directory of keeper@acme: ${dataOf(a, 'keeper@acme')}`,
    );
    expect(await exists(dataOf(a, 'keeper@acme'))).toBe(false);
  });

  it('uninstall --project keeps the data the user-wide plugin uses; the last uninstall deletes it', async () => {
    const [a] = homes as [TempHome];
    await keeperBothWays(a);
    const removed = await ok(a, project, 'uninstall', '--project', 'keeper@acme');
    expect(removed.stderr).toContain(
      'kept the data directory of keeper@acme: the user-wide plugin uses it',
    );
    expect(await seen(a)).toBe('seen\nseen\n');
    await ok(a, outside, 'run', 'PreToolUse', '--payload', '-');
    expect(await seen(a)).toBe('seen\nseen\nseen\n');
    const last = await ok(a, outside, 'uninstall', 'keeper@acme', '--json');
    expect(JSON.parse(last.stdout)).toMatchObject({
      uninstalled: [{ id: 'keeper@acme', keptData: false, keptFor: [] }],
    });
    expect(await exists(dataOf(a, 'keeper@acme'))).toBe(false);
  });

  it('uninstall --project --keep-data keeps the data of the last record; --dry-run with --project is refused and changes nothing', async () => {
    const [a] = homes as [TempHome];
    await ok(a, project, 'registry', 'add', 'acme', acme.url);
    await ok(a, project, 'install', '--project', 'keeper@acme', '--yes');
    await ok(a, project, 'run', 'PreToolUse', '--payload', '-');
    const before = { files: await projectFiles(), store: await hashStore(storeOf(a)) };
    const refused = await hookpm(a, project, ['uninstall', '--project', 'keeper', '--dry-run']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('error[E_USAGE]');
    expect({ files: await projectFiles(), store: await hashStore(storeOf(a)) }).toEqual(before);
    await ok(a, project, 'uninstall', '--project', 'keeper', '--keep-data');
    expect(await seen(a)).toBe('seen\n');
  });
});

describe('an uninstall --project killed after its state write (V3, registry.md D4)', () => {
  it('V3, S41: its mark lists the id whose data it deletes, and the next command deletes that data when no record names the id', async () => {
    const [a] = homes as [TempHome];
    await ok(a, project, 'registry', 'add', 'acme', acme.url);
    await ok(a, project, 'install', '--project', 'keeper@acme', '--yes');
    await ok(a, project, 'run', 'PreToolUse', '--payload', '-');
    const staging = stagingRoot(storeOf(a));
    await killAfterStateWrite(['uninstall', '--project', 'keeper'], {
      env: a.env,
      cwd: project,
      stateFile: stateFile(storeOf(a)),
    });
    // Where the kill landed is up to the scheduler: when the data outlived it, a mark says so.
    if (await exists(dataOf(a, 'keeper@acme'))) {
      const marks = (await readdir(staging)).map((name) => join(staging, name));
      expect(marks.flatMap(markedDataIds)).toEqual(['keeper@acme']);
    }
    await ok(a, outside, 'install', 'tool@acme', '--yes');
    expect(await exists(dataOf(a, 'keeper@acme'))).toBe(false);
    expect(await readdir(staging)).toEqual([]);
  });
});

describe('a project plugin that writes into its own folder (Q6)', () => {
  async function start(home: TempHome, cwd: string) {
    const run = await hookpm(
      home,
      cwd,
      ['run', 'SessionStart', '--payload', '-', '--json'],
      SESSION_START,
    );
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as {
      diagnostics: Array<{ code: string; message: string }>;
      context: string[];
    };
    const tampered = out.diagnostics.filter((d) => d.code === 'plugin_tampered');
    return { tampered, text: out.context.join('\n') };
  }

  it('keeps running in its project on every dispatch, and `hookpm ci` of the project works for a teammate and again for its user', async () => {
    const [a, b] = homes as [TempHome, TempHome];
    await ok(a, project, 'registry', 'add', 'acme', acme.url);
    await ok(a, project, 'install', '--project', 'counter@acme', '--yes');
    for (const count of [1, 2]) {
      const { tampered, text } = await start(a, project);
      expect(tampered).toEqual([]);
      expect(text).toContain(`run ${count}`);
    }
    const state = JSON.parse(await readFile(join(storeOf(a).data, 'state.json'), 'utf8'));
    const root: string = state.projects[project].plugins['counter@acme'].path;
    expect(await readFile(join(root, '.state', 'count'), 'utf8')).toBe('2');
    // Outside its project it does not run at all.
    expect((await start(a, outside)).text).not.toContain('run');

    const files = await projectFiles();
    await ok(b, project, 'ci', '--yes');
    expect((await start(b, project)).text).toContain('run 1');
    // Its user's `ci` finds the installed tree (with its .state/) matching the lock, and keeps it.
    const again = await ok(a, project, 'ci', '--yes', '--json');
    expect(JSON.parse(again.stdout).installed).toMatchObject([
      { id: 'counter@acme', status: 'unchanged', active: true },
    ]);
    const third = await start(a, project);
    expect(third.tampered).toEqual([]);
    expect(third.text).toContain('run 3');
    expect(await projectFiles()).toEqual(files);
  });
});

describe('install --dry-run in a project', () => {
  it('`install --project <spec> --dry-run` prints the plan and what would be locked and written; files and store stay byte-identical', async () => {
    const [a] = homes as [TempHome];
    await ok(a, project, 'registry', 'add', 'acme', acme.url);
    await ok(a, project, 'install', '--project', 'keeper@acme', '--yes');
    const before = { files: await projectFiles(), store: await hashStore(storeOf(a)) };
    const plan = await ok(a, project, 'install', '-P', 'tool@acme', '--dry-run');
    expect(plan.stdout).toContain('would-install tool@acme 1.0.0');
    expect(plan.stdout).toMatch(
      new RegExp(
        `would lock tool@acme 1\\.0\\.0 sha512-\\S+ \\(${acme.url}tarballs/tool-1\\.0\\.0\\.tgz\\)`,
      ),
    );
    expect(plan.stdout).toContain(`would write ${join(project, 'hookpm.lock')}`);
    expect(plan.stdout).toContain(`would write ${join(project, 'hookpm.json')}`);
    expect(plan.stderr).toContain('dry run: nothing was changed');
    const json = JSON.parse(
      (await ok(a, project, 'install', '-P', 'tool@acme', '--dry-run', '--json')).stdout,
    );
    expect(json).toMatchObject({
      schemaVersion: 1,
      project,
      dryRun: true,
      wrote: [],
      installed: [{ id: 'tool@acme', status: 'would-install', plan: { from: null, to: '1.0.0' } }],
      wouldWrite: [join(project, 'hookpm.lock'), join(project, 'hookpm.json')],
    });
    expect(Object.keys(json.wouldLock)).toEqual(['tool@acme']);
    expect({ files: await projectFiles(), store: await hashStore(storeOf(a)) }).toEqual(before);
    // Nothing was installed or locked: the project still has keeper alone.
    const listed = JSON.parse((await ok(a, project, 'list', '--project', '--json')).stdout);
    expect(listed.plugins.map((p: { id: string }) => p.id)).toEqual(['keeper@acme']);
  });

  it('`install --dry-run` with no spec plans what hookpm.json lists (a hand-added plugin would be locked), writing nothing', async () => {
    const [a, b] = homes as [TempHome, TempHome];
    await ok(a, project, 'registry', 'add', 'acme', acme.url);
    await ok(a, project, 'install', '--project', 'keeper@acme', '--yes');
    // A teammate's fresh clone: nothing installed, lock and hookpm.json agreeing.
    const clean = await hashStore(storeOf(b));
    const agreeing = await ok(b, project, 'install', '--dry-run', '--json');
    expect(JSON.parse(agreeing.stdout)).toMatchObject({
      dryRun: true,
      installed: [{ id: 'keeper@acme', status: 'would-install' }],
      wouldLock: {},
      wouldWrite: [],
    });
    expect(await hashStore(storeOf(b))).toEqual(clean);
    // tool added to hookpm.json by hand: the dry run says it would lock it, and writes nothing.
    const manifest = JSON.parse((await projectFiles()).json!);
    manifest.plugins['tool@acme'] = '^1.0.0';
    await writeFile(join(project, 'hookpm.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const before = { files: await projectFiles(), store: await hashStore(storeOf(a)) };
    const plan = await ok(a, project, 'install', '--dry-run');
    expect(plan.stdout).toContain('would-keep keeper@acme 1.0.0');
    expect(plan.stdout).toContain('would-install tool@acme 1.0.0');
    expect(plan.stdout).toContain('would lock tool@acme 1.0.0');
    expect(plan.stdout).not.toContain('would lock keeper@acme');
    expect(plan.stdout).toContain(`would write ${join(project, 'hookpm.lock')}`);
    expect(plan.stdout).not.toContain(`would write ${join(project, 'hookpm.json')}`);
    expect({ files: await projectFiles(), store: await hashStore(storeOf(a)) }).toEqual(before);
  });

  it('`update --project --dry-run` prints the newer version it would lock, and writes nothing', async () => {
    const [a] = homes as [TempHome];
    await ok(a, project, 'registry', 'add', 'acme', acme.url);
    await ok(a, project, 'install', '--project', 'bumped@acme', '--yes');
    await publishPlugin(acme, 'bumped', '1.1.0', { PreToolUse: ['echo bumped'] });
    const before = { files: await projectFiles(), store: await hashStore(storeOf(a)) };
    const plan = await ok(a, project, 'update', '--project', 'bumped', '--dry-run');
    expect(plan.stdout).toContain('would-install bumped@acme 1.1.0');
    expect(plan.stdout).toContain('version: 1.0.0 -> 1.1.0');
    expect(plan.stdout).toContain('would lock bumped@acme 1.1.0');
    expect(plan.stdout).toContain(`would write ${join(project, 'hookpm.lock')}`);
    expect({ files: await projectFiles(), store: await hashStore(storeOf(a)) }).toEqual(before);
  });
});

describe('hookpm test --project (docs/reference/commands.md)', () => {
  it("runs the project's installed plugin; without --project only user-wide plugins are named", async () => {
    const [a] = homes as [TempHome];
    await ok(a, project, 'registry', 'add', 'acme', acme.url);
    await ok(a, project, 'install', '--project', 'tool@acme', '--yes');
    const before = await hashStore(storeOf(a));
    const userWide = await hookpm(a, project, ['test', 'tool', 'PreToolUse', '--json']);
    expect(userWide.code).toBe(1);
    expect(JSON.parse(userWide.stdout)).toMatchObject({ error: { code: 'E_NOT_INSTALLED' } });
    const run = await ok(a, project, 'test', 'tool', 'PreToolUse', '--project', '--json');
    expect(JSON.parse(run.stdout)).toMatchObject({
      kind: 'installed',
      plugin: 'tool@acme',
      handlers: [{ exitCode: 0, stdout: 'tool\n' }],
    });
    expect(await hashStore(storeOf(a))).toEqual(before);
  });
});
