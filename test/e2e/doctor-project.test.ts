/**
 * `hookpm doctor` in a project (docs/guides/projects.md; plugins.md Q6;
 * docs/reference/rules/engine.md#fail-closed), with the built binary, a registry served on
 * 127.0.0.1 and a project directory: a project's plugin whose installed tree was changed or deleted
 * fails closed there, so doctor reports it, with `hookpm ci` as the fix, and that fix restores it.
 */
import { execFileSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateFile, resolveStorePaths } from '../../src/store/paths.js';
import { runBin, type BinRun } from '../helpers/built-bin.js';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { useProjectWorld } from '../helpers/project-world.js';

const DENY = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"pg"}}'`;

const world = useProjectWorld('hookpm-doctor-project-', async (acme) => {
  await publishPlugin(acme, 'pg', '1.0.0', { PreToolUse: [DENY] });
});

function hookpm(...args: string[]): Promise<BinRun> {
  return runBin(args, { env: world.home.env, cwd: world.project });
}

async function ok(...args: string[]): Promise<BinRun> {
  const run = await hookpm(...args);
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run;
}

interface Check {
  name: string;
  status: string;
  code?: string;
  message: string;
  fix?: string;
}

async function doctor(): Promise<{ code: number | null; ok: boolean; checks: Check[] }> {
  const run = await hookpm('doctor', '--json');
  const report = JSON.parse(run.stdout) as { ok: boolean; checks: Check[] };
  return { code: run.code, ...report };
}

/** The installed tree of the project's pg@acme, as the state records it. */
async function projectTree(): Promise<string> {
  const file = stateFile(resolveStorePaths({ HOOKPM_HOME: world.home.env.HOOKPM_HOME }));
  const state = JSON.parse(await readFile(file, 'utf8')) as {
    projects: Record<string, { plugins: Record<string, { path: string }> }>;
  };
  return Object.values(state.projects)[0]!.plugins['pg@acme']!.path;
}

async function projectFiles(): Promise<string[]> {
  return Promise.all(
    ['hookpm.json', 'hookpm.lock'].map((f) => readFile(join(world.project, f), 'utf8')),
  );
}

describe("hookpm doctor: a project's plugins (plugins.md Q6, engine.md#fail-closed)", () => {
  it("Q6: a project plugin's changed tree is an error naming the project, fixed by `hookpm ci`", async () => {
    await ok('registry', 'add', 'acme', world.acme.url);
    await ok('install', '--project', 'pg@acme@^1.0.0', '--yes');
    const files = await projectFiles();
    await writeFile(join(await projectTree(), 'hooks', 'hooks.json'), '{"hooks":{}}\n');

    const report = await doctor();
    expect(report.code).toBe(1);
    const tampered = report.checks.find((c) => c.code === 'plugin_tampered');
    expect(tampered?.name).toBe('plugin:pg@acme');
    expect(tampered?.message).toContain(`in project ${world.project}`);
    expect(tampered?.fix).toBe('hookpm ci');
    const closed = report.checks.find((c) => c.name === 'fail-closed:pg@acme');
    expect(closed?.status).toBe('error');
    expect(closed?.fix).toContain('`hookpm disable pg@acme --project` stops using it');

    await ok('ci', '--yes');
    const after = await doctor();
    expect(after.checks.filter((c) => c.status !== 'ok')).toEqual([]);
    expect(await projectFiles()).toEqual(files);
  });

  it("Q6: a project plugin's deleted tree is plugin_missing, and `hookpm ci` installs it again", async () => {
    await ok('registry', 'add', 'acme', world.acme.url);
    await ok('install', '--project', 'pg@acme@^1.0.0', '--yes');
    await rm(await projectTree(), { recursive: true, force: true });

    const report = await doctor();
    expect(report.code).toBe(1);
    const missing = report.checks.find((c) => c.code === 'plugin_missing');
    expect(missing?.message).toContain(`in project ${world.project}`);
    expect(missing?.fix).toBe('hookpm ci');

    await ok('ci', '--yes');
    expect((await doctor()).ok).toBe(true);
  });

  it("engine.md#fail-closed: a tampered project plugin's deny and `list` name `hookpm ci` in the project and `disable --project`, and following it restores the guard", async () => {
    await ok('registry', 'add', 'acme', world.acme.url);
    await ok('install', '--project', 'pg@acme@^1.0.0', '--yes');
    await writeFile(join(await projectTree(), 'hooks', 'hooks.json'), '{"hooks":{}}\n');
    const payload = JSON.stringify({
      session_id: 'doctor-project-1',
      transcript_path: join(world.work, 't.jsonl'),
      cwd: world.project,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 't1',
    });
    const wire = () =>
      runBin(['wire', 'claude'], { env: world.home.env, cwd: world.project, stdin: payload });
    const denied = await wire();
    const reason = JSON.parse(denied.stdout).hookSpecificOutput.permissionDecisionReason as string;
    const advice = `run \`hookpm ci\` in ${world.project} to restore it, or \`hookpm disable pg@acme --project\` there to stop using it`;
    expect(reason).toContain(advice);
    expect(reason).not.toContain('install --force');
    expect((await ok('list', '--verify')).stdout).toContain(advice);
    const review = JSON.parse((await ok('review', '--project', 'pg', '--json')).stdout) as {
      diagnostics: Array<{ code: string; message: string }>;
    };
    expect(review.diagnostics.find((d) => d.code === 'plugin_tampered')?.message).toContain(
      `until \`hookpm ci\` in ${world.project} restores them`,
    );

    await ok('ci', '--yes');
    const restored = await wire();
    expect(JSON.parse(restored.stdout).hookSpecificOutput.permissionDecisionReason).toBe('pg');
  });

  it('projects.md: a hookpm.json that is not strict JSON, or a hookpm.lock that is a FIFO, is a warning naming the file and its repair; neither is rewritten', async () => {
    await writeFile(join(world.project, 'hookpm.json'), '{"plugins": {}, "plugins": {}}');
    const broken = await doctor();
    const check = broken.checks.find((c) => c.name === 'project-files');
    expect(check).toMatchObject({ status: 'warning', code: 'project_file_invalid' });
    expect(check?.message).toContain(join(world.project, 'hookpm.json'));
    expect(check?.fix).toContain('restore it from version control');
    expect(await readFile(join(world.project, 'hookpm.json'), 'utf8')).toBe(
      '{"plugins": {}, "plugins": {}}',
    );
    await rm(join(world.project, 'hookpm.json'));
    execFileSync('mkfifo', [join(world.project, 'hookpm.lock')]);
    const fifo = await doctor();
    expect(fifo.checks.find((c) => c.name === 'project-files')).toMatchObject({
      status: 'warning',
      code: 'project_file_invalid',
    });
    await rm(join(world.project, 'hookpm.lock'));
    expect((await doctor()).checks.some((c) => c.name === 'project-files')).toBe(false);
  });
});
