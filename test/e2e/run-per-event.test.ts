/**
 * `hookpm run` checks the trees of the plugins about to run, not of every installed plugin
 * (engine.md X10, plugins.md Q6), through the built binary.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fnv1a } from '../../src/text/fnv1a.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import {
  publishPlugin,
  startPluginRegistry,
  type ServedRegistry,
} from '../helpers/plugin-registry.js';

const ws = useBinWorkspace('e2e-run-per-event');

let acme: ServedRegistry;
beforeAll(async () => {
  acme = await startPluginRegistry('acme');
  await publishPlugin(acme, 'team', '1.0.0', { PreToolUse: ['true'] });
});
afterAll(() => acme.close());

/** A plugin whose one PreToolUse handler on `tool` runs `script.sh` (exit 0, or 2 to deny). */
async function plugin(name: string, tool: string): Promise<string> {
  const root = join(ws.dir, `${name}${ws.n}`);
  await mkdir(join(root, 'hooks'), { recursive: true });
  await writeFile(join(root, 'plugin.json'), JSON.stringify({ name, version: '1.0.0' }));
  await writeFile(join(root, 'script.sh'), '#!/bin/sh\ncat >/dev/null\nexit 0\n', { mode: 0o755 });
  const command = 'sh "${CLAUDE_PLUGIN_ROOT}/script.sh"';
  const hooks = { PreToolUse: [{ matcher: tool, hooks: [{ type: 'command', command }] }] };
  await writeFile(join(root, 'hooks', 'hooks.json'), JSON.stringify({ hooks }));
  expect((await ws.hookpm(['install', root, '--yes'])).code).toBe(0);
  const state = JSON.parse(await readFile(join(ws.home, 'hookpm', 'data', 'state.json'), 'utf8'));
  return state.plugins[`${name}@local`].path as string;
}

async function run(tool: string, env?: Record<string, string>, cwd = ws.repo) {
  const payload = join(ws.dir, `payload${ws.n}-${tool}.json`);
  await writeFile(payload, JSON.stringify({ tool_name: tool, tool_input: { command: 'ls' } }));
  const args = ['run', 'PreToolUse', '--payload', payload, '--json'];
  const out = await ws.hookpm(args, { cwd, ...(env === undefined ? {} : { env: ws.env(env) }) });
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as {
    snapshotId: string;
    permission: { decision: string; reason?: string } | null;
    diagnostics: Array<{ code: string; plugin?: string }>;
    runs: Array<{ handler: string; origin: string; plugin: string | null }>;
  };
}

/** A preload that writes, at exit, which of the store's whole files the process opened. */
async function openProbe(): Promise<{
  env: Record<string, string>;
  opened: () => Promise<string[]>;
}> {
  const probe = join(ws.dir, `probe${ws.n}.cjs`);
  const seen = join(ws.dir, `opened${ws.n}.json`);
  await writeFile(
    probe,
    `const fs = require('node:fs');
const opened = [];
const watch = (p) => { const s = String(p); if (/state\\.json$|plugin-documents/.test(s)) opened.push(s.split('/').pop()); };
for (const name of ['openSync', 'readFileSync']) {
  const real = fs[name];
  fs[name] = function (p, ...rest) { watch(p); return real.call(this, p, ...rest); };
}
const realOpen = fs.promises.open;
fs.promises.open = function (p, ...rest) { watch(p); return realOpen.call(this, p, ...rest); };
process.on('exit', () => fs.writeFileSync(${JSON.stringify(seen)}, JSON.stringify(opened)));
`,
  );
  return {
    env: { NODE_OPTIONS: `--require=${probe}` },
    opened: async () => JSON.parse(await readFile(seen, 'utf8')) as string[],
  };
}

/**
 * X11: a PreToolUse on Bash in the workspace's repository that loads the whole store and runs
 * `plugins`, then one read from the tables it wrote: the same runs, diagnostics and snapshot id
 * (R3: the whole configuration's, as the whole load computed it), with neither the state nor the
 * documents cache opened. Gives the probe, for later events.
 */
async function tabledAsWhole(plugins: string[]): Promise<Awaited<ReturnType<typeof openProbe>>> {
  const whole = await run('Bash');
  expect(whole.runs.map((r) => r.plugin)).toEqual(plugins);
  const probe = await openProbe();
  const tabled = await run('Bash', probe.env);
  expect(await probe.opened()).toEqual([]);
  expect(tabled.runs.map((r) => [r.handler, r.plugin])).toEqual(
    whole.runs.map((r) => [r.handler, r.plugin]),
  );
  expect(tabled.diagnostics).toEqual(whole.diagnostics);
  expect(tabled.snapshotId).toBe(whole.snapshotId);
  return probe;
}

describe('hookpm run: the tamper check of the plugins about to run (engine.md X10)', () => {
  it('X10, Q6, B2: a tampered plugin fails closed where its handlers match; elsewhere its tree is not walked', async () => {
    await plugin('bystander', 'Read');
    const tampered = await plugin('edited', 'Bash');
    // Both load once with the full check, which caches their documents once their files are
    // older than the stat cache's racy window (2 s, store/fingerprint-cache.ts).
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await run('Bash')).runs).toHaveLength(1);
    await writeFile(join(tampered, 'script.sh'), '#!/bin/sh\nexit 0\n');
    // A call that none of the edited plugin's handlers match does not check its tree...
    const other = await run('Read');
    expect(other.runs).toHaveLength(1);
    expect(other.diagnostics.map((d) => d.code)).not.toContain('plugin_tampered');
    // ...and one they match leaves it out and fails closed before anything runs.
    const bash = await run('Bash');
    expect(bash.runs).toHaveLength(0);
    expect(bash.permission?.decision).toBe('deny');
    expect(bash.permission?.reason).toMatch(/^hookpm fails closed: plugin edited@local/);
    expect(bash.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'plugin_tampered', plugin: 'edited@local' }),
    );
  });

  it('X11: once written for the state, `hookpm run` reads the store tables, not the state or the documents cache, with the same runs and ids; a change to the state is seen at the next event; a table file that is a FIFO is refused', async () => {
    await plugin('first', 'Bash');
    await plugin('second', 'Bash');
    await plugin('other', 'Read');
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const probe = await tabledAsWhole(['first@local', 'second@local']);
    expect((await run('Read')).runs.map((r) => r.plugin)).toEqual(['other@local']);
    // Disabling a plugin writes the state: the tables of the state before are not used.
    expect((await ws.hookpm(['disable', 'first@local'])).code).toBe(0);
    const after = await run('Bash', probe.env);
    expect(after.runs.map((r) => r.plugin)).toEqual(['second@local']);
    expect(await probe.opened()).toContain('state.json');
    expect((await run('Bash')).runs.map((r) => r.plugin)).toEqual(['second@local']);
    // A table file that is a FIFO is refused, never waited on: the event loads the whole store.
    const dir = join(ws.home, 'hookpm', 'cache', 'run-tables');
    for (const name of ['user.id', 'user.unqualified']) {
      await rm(join(dir, name), { force: true });
      execFileSync('mkfifo', [join(dir, name)]);
    }
    expect((await run('Bash', probe.env)).runs.map((r) => r.plugin)).toEqual(['second@local']);
    expect(await probe.opened()).toContain('state.json');
  });

  it('X11, A13: with a policy file in force, `hookpm run` loads the whole store, so the policy judges every plugin', async () => {
    await plugin('denied', 'Bash');
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await run('Bash')).runs).toHaveLength(1);
    expect((await run('Bash')).runs).toHaveLength(1);
    const policy = join(ws.dir, `policy${ws.n}.json`);
    await writeFile(policy, JSON.stringify({ plugins: { deny: ['denied@local'] } }));
    const probe = await openProbe();
    const stopped = await run('Bash', { ...probe.env, HOOKPM_POLICY_FILE: policy });
    expect(stopped.runs).toHaveLength(0);
    expect(await probe.opened()).toContain('state.json');
  });

  it("X11, R3: a change to the user hook file is seen at the next event, whose snapshot id is the whole configuration's, as `hookpm hooks` gives it", async () => {
    await plugin('only', 'Bash');
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await run('Bash');
    expect((await run('Bash')).runs.map((r) => r.origin)).toEqual(['plugin']);
    const userFile = join(ws.home, '.deepagents', 'hooks.json');
    await mkdir(join(ws.home, '.deepagents'), { recursive: true });
    const hooks = {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'true', argv: ['true'] }] },
      ],
    };
    await writeFile(userFile, JSON.stringify({ hooks }));
    const changed = await run('Bash');
    expect(changed.runs.map((r) => r.origin)).toEqual(['user', 'plugin']);
    const again = await run('Bash');
    expect(again.runs.map((r) => r.origin)).toEqual(['user', 'plugin']);
    const listed = JSON.parse((await ws.hookpm(['hooks', '--json'])).stdout) as {
      snapshotId: string;
    };
    expect(changed.snapshotId).toBe(listed.snapshotId);
    expect(again.snapshotId).toBe(listed.snapshotId);
  });

  it('X11: a state that records project plugins has tables per recorded project, read from that project only, and one set for every other directory', async () => {
    await plugin('mine', 'Bash');
    expect((await ws.hookpm(['registry', 'add', 'acme', acme.url])).code).toBe(0);
    const installed = await ws.hookpm(['install', '--project', 'team@acme', '--yes']);
    expect(installed.code, installed.stderr).toBe(0);
    const other = join(ws.dir, `other${ws.n}`);
    const third = join(ws.dir, `third${ws.n}`);
    for (const dir of [other, third]) await mkdir(join(dir, '.git'), { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const both = ['mine@local', 'team@acme'];
    const probe = await tabledAsWhole(both);
    const ran = async (cwd: string) =>
      (await run('Bash', probe.env, cwd)).runs.map((r) => r.plugin);
    // docs/guides/projects.md: another project does not run this one's plugin, from the tables
    // either; the directories of no recorded project share one set, and this project's stays.
    expect(await ran(other)).toEqual(['mine@local']);
    expect(await probe.opened()).toContain('state.json');
    expect(await ran(other)).toEqual(['mine@local']);
    expect(await probe.opened()).toEqual([]);
    expect(await ran(third)).toEqual(['mine@local']);
    expect(await probe.opened()).toEqual([]);
    expect(await ran(ws.repo)).toEqual(both);
    expect(await probe.opened()).toEqual([]);
    // A recorded project whose own tables are gone is not served by the shared set, which lists
    // it: it loads the whole store, and gets its own tables again.
    const dir = join(ws.home, 'hookpm', 'cache', 'run-tables');
    const mine = `project-${fnv1a(await realpath(ws.repo))}.`;
    for (const name of await readdir(dir)) if (name.startsWith(mine)) await rm(join(dir, name));
    expect(await ran(ws.repo)).toEqual(both);
    expect(await probe.opened()).toContain('state.json');
    expect(await ran(ws.repo)).toEqual(both);
    expect(await probe.opened()).toEqual([]);
    // A project's files under the name of another root (as two roots with one name would have)
    // are refused there: they name the root they were made for.
    const theirs = `project-${fnv1a(await realpath(third))}.`;
    for (const name of await readdir(dir))
      if (name.startsWith(mine))
        await copyFile(join(dir, name), join(dir, theirs + name.slice(mine.length)));
    expect(await ran(third)).toEqual(['mine@local']);
  });
});
