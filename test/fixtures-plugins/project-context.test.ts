import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GIT as GIT_TOOL, INSTALL_TIMEOUT_MS, requireTool } from '../helpers/system-package.js';
import { checkPluginFiles, expectGroupMatches } from './plugin-files.js';
import { payload, runHook, useSandboxes } from './run-hook.js';
import type { HookSandbox } from './run-hook.js';

let GIT: string;
beforeAll(async () => {
  GIT = await requireTool(GIT_TOOL);
}, INSTALL_TIMEOUT_MS);

const sandbox = useSandboxes('project-context', (box) => box.addTool('git', { link: GIT }));

function git(box: HookSandbox, ...args: string[]): void {
  execFileSync(GIT, args, {
    cwd: box.project,
    env: {
      PATH: box.bin,
      HOME: box.home,
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
    },
    stdio: 'ignore',
  });
}

function repoWithCommits(box: HookSandbox, count: number): void {
  git(box, 'init', '-q', '-b', 'feature/login');
  for (let i = 1; i <= count; i += 1) {
    writeFileSync(join(box.project, 'file.txt'), `version ${i}\n`);
    git(box, 'add', 'file.txt');
    git(box, 'commit', '-q', '-m', `commit number ${i}`);
  }
}

const start = (box: HookSandbox) =>
  payload('SessionStart', box.project, { source: 'startup', model: 'm' });

describe('project-context (example plugin)', () => {
  it('P2, C1, E1-E2: its manifest and hooks.json are valid, with SessionStart matching startup|resume', () => {
    checkPluginFiles('project-context', ['SessionStart']);
    expectGroupMatches(
      'project-context',
      'SessionStart',
      ['startup', 'resume'],
      ['clear', 'compact'],
    );
  });

  it('L2: injects branch, the last 5 commits, the uncommitted count and CONTEXT.md as additionalContext', async () => {
    const box = sandbox();
    repoWithCommits(box, 6);
    writeFileSync(join(box.project, 'file.txt'), 'edited\n');
    writeFileSync(
      join(box.project, 'CONTEXT.md'),
      '# Billing service\n\nRun `make test` before committing.\n',
    );
    const run = await runHook(box, 'SessionStart', start(box));
    expect(run.code).toBe(0);
    expect(Object.keys(run.json)).toEqual(['hookSpecificOutput']);
    expect(run.json.hookSpecificOutput.hookEventName).toBe('SessionStart');
    const context: string = run.json.hookSpecificOutput.additionalContext;
    expect(context).toContain('Git branch: feature/login');
    for (let i = 2; i <= 6; i += 1) expect(context).toContain(`commit number ${i} (Ada,`);
    expect(context).not.toContain('commit number 1 ');
    // file.txt modified and CONTEXT.md untracked
    expect(context).toContain('Working tree: 2 files with uncommitted changes');
    expect(context).toContain(
      'CONTEXT.md (excerpt):\n# Billing service\n\nRun `make test` before committing.',
    );
  });

  it('M7: caps the context well under 10,000 characters, cutting a long AGENTS.md', async () => {
    const box = sandbox();
    repoWithCommits(box, 1);
    writeFileSync(join(box.project, 'AGENTS.md'), `${'Rules for agents. '.repeat(3000)}\n`);
    const run = await runHook(box, 'SessionStart', start(box));
    const context: string = run.json.hookSpecificOutput.additionalContext;
    expect(context.length).toBeLessThanOrEqual(6000);
    expect(context).toContain('[... AGENTS.md continues]');
    expect(context).toContain('Working tree: 1 file with uncommitted changes');
  });

  it('works without git: only the document excerpt; with nothing to say it prints nothing', async () => {
    const box = sandbox();
    const empty = await runHook(box, 'SessionStart', start(box));
    expect(empty).toMatchObject({ code: 0, stdout: '' });
    writeFileSync(join(box.project, 'AGENTS.md'), 'Use pnpm.\n');
    const run = await runHook(box, 'SessionStart', start(box));
    expect(run.json.hookSpecificOutput.additionalContext).toBe(
      'Project context (from the project-context plugin):\n\nAGENTS.md (excerpt):\nUse pnpm.',
    );
  });

  it('security: a hostile repository config (core.fsmonitor) cannot make it run a command', async () => {
    const box = sandbox();
    repoWithCommits(box, 1);
    const marker = join(box.base, 'pwned');
    const touch = await requireTool({ command: 'touch', package: 'coreutils' });
    git(box, 'config', 'core.fsmonitor', `${touch} '${marker}'`);
    writeFileSync(join(box.project, 'new.txt'), 'x\n');
    const run = await runHook(box, 'SessionStart', start(box));
    expect(run.json.hookSpecificOutput.additionalContext).toContain('Working tree: 1 file');
    expect(existsSync(marker)).toBe(false);
  });
});
