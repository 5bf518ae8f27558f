import { existsSync } from 'node:fs';
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { installedTree } from '../helpers/installed-tree.js';
import { printsJson } from '../helpers/hook-fixtures.js';

// plugins.md G1-G2: Claude Code's own events (beyond the engine's twelve) through the built
// `hookpm wire claude`, with the payloads Claude Code 2.1.332 documents for them; inert under the
// other agents and hookpm's engine; linked by `hookpm link claude` when an enabled plugin hooks them.

const ws = useBinWorkspace('e2e-wire-claude-events', '.claude');

async function ok(args: string[]): Promise<string> {
  const run = await ws.hookpm(args);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

/** Installs (consented, enabled) a plugin with one hooks document. */
async function install(name: string, hooks: Record<string, unknown>): Promise<void> {
  const root = await writeClaudePlugin(join(ws.dir, `plugins${ws.n}`, name), name, hooks);
  await ok(['install', root, '--yes']);
}

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command,
  ...extra,
});

function payload(event: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: `s-${ws.n}`,
    transcript_path: join(ws.home, 't.jsonl'),
    cwd: ws.repo,
    hook_event_name: event,
    ...extra,
  });
}

async function wire(body: string, agent = 'claude') {
  const run = await ws.hookpm(['wire', agent], { stdin: body });
  return { code: run.code, stdout: run.stdout, stderr: run.stderr };
}

const json = (stdout: string): Record<string, any> => JSON.parse(stdout) as Record<string, any>;

describe("hookpm wire claude: Claude Code's own events (plugins.md G1-G2)", () => {
  it('G2 blocking family: an exit 2 on TaskCreated is the answer (exit 2, the stderr of each such handler), whatever the other handlers said', async () => {
    await install('gate', { TaskCreated: [{ hooks: [cmd("echo 'no tasks today' >&2; exit 2")] }] });
    await install('note', {
      TaskCreated: [
        {
          hooks: [
            cmd(printsJson({ hookSpecificOutput: { additionalContext: 'noted' } })),
            cmd("echo 'second gate' >&2; exit 2"),
          ],
        },
      ],
    });
    const run = await wire(
      payload('TaskCreated', { task_id: '1', task_subject: 'x', task_description: 'y' }),
    );
    expect(run).toEqual({ code: 2, stdout: '', stderr: 'no tasks today\nsecond gate\n' });
  });

  it('G2 context family: PostToolBatch additionalContext of two plugins is joined in one hookSpecificOutput; UserPromptExpansion plain stdout is joined', async () => {
    const context = (text: string) =>
      cmd(
        printsJson({
          hookSpecificOutput: { hookEventName: 'PostToolBatch', additionalContext: text },
        }),
      );
    await install('one', {
      PostToolBatch: [{ hooks: [context('first')] }],
      UserPromptExpansion: [{ matcher: 'review', hooks: [cmd('echo expanded by one')] }],
    });
    await install('two', {
      PostToolBatch: [{ hooks: [context('second')] }],
      UserPromptExpansion: [{ matcher: 'other', hooks: [cmd('echo never')] }],
    });
    const batch = await wire(payload('PostToolBatch', { tool_calls: [] }));
    expect(batch.code).toBe(0);
    expect(json(batch.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: 'PostToolBatch', additionalContext: 'first\nsecond' },
    });
    const expansion = await wire(
      payload('UserPromptExpansion', { expansion_type: 'slash_command', command_name: 'review' }),
    );
    expect(expansion).toEqual({ code: 0, stdout: 'expanded by one\n', stderr: '' });
  });

  it('G2 decision family: on PreModelSwitch a deny beats an allow and keeps its reason; the matcher reads to_model', async () => {
    const decide = (decision: string, reason: string) =>
      cmd(
        printsJson({
          hookSpecificOutput: {
            hookEventName: 'PreModelSwitch',
            permissionDecision: decision,
            permissionDecisionReason: reason,
          },
        }),
      );
    await install('allow', { PreModelSwitch: [{ hooks: [decide('allow', 'fine')] }] });
    await install('deny', {
      PreModelSwitch: [{ matcher: 'opus', hooks: [decide('deny', 'too dear')] }],
    });
    const denied = await wire(
      payload('PreModelSwitch', { from_model: 'sonnet', to_model: 'opus' }),
    );
    expect(json(denied.stdout).hookSpecificOutput).toEqual({
      hookEventName: 'PreModelSwitch',
      permissionDecision: 'deny',
      permissionDecisionReason: 'too dear',
    });
    const allowed = await wire(
      payload('PreModelSwitch', { from_model: 'opus', to_model: 'haiku' }),
    );
    expect(json(allowed.stdout).hookSpecificOutput.permissionDecision).toBe('allow');
  });

  it('G2 observing family: exit 2 on StopFailure or InstructionsLoaded blocks nothing (exit 0; the hook error told the user, as Claude Code tells it, and on stderr); FileChanged matches the base name and watchPaths are united', async () => {
    const marker = join(ws.dir, `ran${ws.n}`);
    await install('watch', {
      StopFailure: [{ matcher: 'rate_limit', hooks: [cmd(`touch '${marker}'; exit 2`)] }],
      FileChanged: [
        {
          matcher: '.envrc|.env',
          hooks: [
            cmd(
              printsJson({
                hookSpecificOutput: { hookEventName: 'FileChanged', watchPaths: ['/a'] },
              }),
            ),
            cmd(
              printsJson({
                hookSpecificOutput: { hookEventName: 'FileChanged', watchPaths: ['/a', '/b'] },
              }),
            ),
          ],
        },
      ],
    });
    const failure = await wire(payload('StopFailure', { error: 'rate_limit' }));
    expect(failure.code).toBe(0);
    expect(json(failure.stdout)).toEqual({
      systemMessage: expect.stringMatching(
        /^hookpm: hook error \(watch@\S+\): handler StopFailure:0:0 exited 2$/,
      ),
    });
    expect(failure.stderr).toMatch(
      /^hookpm: warning nonzero_exit: handler StopFailure:0:0 exited 2\n$/,
    );
    expect(existsSync(marker)).toBe(true);
    const changed = await wire(
      payload('FileChanged', { file_path: join(ws.repo, '.envrc'), event: 'change' }),
    );
    expect(json(changed.stdout).hookSpecificOutput).toEqual({
      hookEventName: 'FileChanged',
      watchPaths: ['/a', '/b'],
    });
    const other = await wire(
      payload('FileChanged', { file_path: join(ws.repo, 'README.md'), event: 'change' }),
    );
    expect(other).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('G2 WorktreeCreate: the first handler that succeeds gives the path; when none succeeds the answer is exit 1, which fails the creation', async () => {
    const path = join(ws.dir, `tree${ws.n}`);
    await install('trees', {
      WorktreeCreate: [{ hooks: [cmd(`echo '${path}'`), cmd('echo /other')] }],
    });
    expect(await wire(payload('WorktreeCreate', { name: 'feature' }))).toEqual({
      code: 0,
      stdout: `${path}\n`,
      stderr: '',
    });
    await ok(['uninstall', 'trees']);
    await install('broken', { WorktreeCreate: [{ hooks: [cmd('echo nope >&2; exit 1')] }] });
    // A new session: the first one keeps its pin (engine.md R1).
    const failed = await wire(payload('WorktreeCreate', { name: 'feature', session_id: 'new' }));
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('nope');
  });

  it("G1: outside Claude Code the same handlers stay inert: wire codex, wire deepagents and hookpm's engine run nothing", async () => {
    const marker = join(ws.dir, `ran${ws.n}`);
    await install('batch', { PostToolBatch: [{ hooks: [cmd(`touch '${marker}'`)] }] });
    for (const agent of ['codex', 'deepagents', 'gemini'])
      expect(await wire(payload('PostToolBatch', { tool_calls: [] }), agent)).toEqual({
        code: 0,
        stdout: '',
        stderr: '',
      });
    const run = await ws.hookpm(['run', 'PostToolBatch'], { stdin: '{}' });
    expect(run.code).not.toBe(0);
    expect(existsSync(marker)).toBe(false);
    await wire(payload('PostToolBatch', { tool_calls: [] }));
    expect(existsSync(marker)).toBe(true);
  });

  it('G1: review says a hook under a Claude Code event runs inside Claude Code only', async () => {
    await install('batch', { PostToolBatch: [{ hooks: [cmd('true')] }] });
    const text = await ok(['review', 'batch']);
    expect(text).toContain('runs inside Claude Code only');
    const data = JSON.parse(await ok(['review', 'batch', '--json'])) as {
      hooks: Array<{ event: string; valid: boolean; runsIn?: string }>;
    };
    expect(data.hooks).toEqual([
      expect.objectContaining({ event: 'PostToolBatch', valid: true, runsIn: 'claude' }),
    ]);
  });

  it('G1: link claude links the Claude Code events enabled plugins hook; disable, enable and uninstall relink', async () => {
    const settings = join(ws.home, '.claude', 'settings.json');
    await writeFile(settings, '{}\n');
    await install('batch', {
      PostToolBatch: [{ hooks: [cmd('true')] }],
      CwdChanged: [{ hooks: [cmd('true')] }],
    });
    const linked = JSON.parse(await ok(['link', 'claude', '--json'])) as { events: string[] };
    expect(linked.events.slice(12)).toEqual(['PostToolBatch', 'CwdChanged']);
    const events = async () =>
      Object.keys((JSON.parse(await readFile(settings, 'utf8')) as { hooks: object }).hooks);
    expect(await events()).toContain('CwdChanged');
    const disabled = await ws.hookpm(['disable', 'batch']);
    expect(disabled.stderr).toContain('relinked Claude Code (user)');
    expect(await events()).toHaveLength(12);
    await ok(['enable', 'batch', '--yes']);
    expect(await events()).toEqual(expect.arrayContaining(['PostToolBatch', 'CwdChanged']));
    await ok(['uninstall', 'batch']);
    expect(await events()).toHaveLength(12);
  });

  it('G1: a Claude Code link that cannot be made again (a comment added since) is named on stderr when it misses an event, and the file is left as it is', async () => {
    const settings = join(ws.home, '.claude', 'settings.json');
    await writeFile(settings, '{}\n');
    await ok(['link', 'claude']);
    await appendFile(settings, '// mine\n');
    const before = await readFile(settings, 'utf8');
    const installFrom = async (name: string, hooks: Record<string, unknown>) => {
      const root = await writeClaudePlugin(join(ws.dir, `plugins${ws.n}`, name), name, hooks);
      const run = await ws.hookpm(['install', root, '--yes']);
      expect(run.code, run.stderr).toBe(0);
      return run.stderr;
    };
    // A plugin that changes nothing in the link: nothing to say.
    expect(await installFrom('plain', { PreToolUse: [{ hooks: [cmd('true')] }] })).not.toContain(
      'relink',
    );
    const told = await installFrom('cwd', { CwdChanged: [{ hooks: [cmd('true')] }] });
    expect(told).toContain(`cannot relink Claude Code (user): ${settings}`);
    expect(told).toContain('hookpm link claude');
    expect(await readFile(settings, 'utf8')).toBe(before);
  });

  it('G3: link claude adds a background entry (async, asyncRewake) per event with background handlers; wire claude --background runs them alone, a rewake exit 2 carries its rewakeMessage; foreground wire and the engine do not run async ones', async () => {
    const settings = join(ws.home, '.claude', 'settings.json');
    const fg = join(ws.dir, `fg${ws.n}`);
    const bg = join(ws.dir, `bg${ws.n}`);
    await install('review', {
      Stop: [
        {
          hooks: [
            cmd(`touch '${fg}'`),
            cmd(`touch '${bg}'`, { async: true, timeout: 40 }),
            cmd("echo 'found a leaked key' >&2; exit 2", {
              async: true,
              asyncRewake: true,
              rewakeMessage: 'Background review:',
              timeout: 90,
            }),
          ],
        },
      ],
    });
    await ok(['link', 'claude']);
    const stop = (JSON.parse(await readFile(settings, 'utf8')) as { hooks: Record<string, any[]> })
      .hooks['Stop']!;
    expect(stop).toHaveLength(2);
    expect(stop[1].hooks[0]).toMatchObject({ async: true, asyncRewake: true, timeout: 90 });
    expect(stop[1].hooks[0].command).toMatch(/ wire claude --background --deadline 90 /);
    const body = payload('Stop', { stop_hook_active: false });
    expect(await wire(body)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(fg)).toBe(true);
    expect(existsSync(bg)).toBe(false);
    const run = await ws.hookpm(['wire', 'claude', '--background', '--deadline', '90'], {
      stdin: body,
    });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'Background review:\nfound a leaked key\n',
    });
    expect(existsSync(bg)).toBe(true);
    const log = await ok(['log', '--json']);
    expect(log).toContain('wire:claude:background');
  });

  it("A13: a plugin the administrator's policy denies after the session pinned it runs on none of Claude Code's own events, in the foreground or the background, while another still does", async () => {
    const ran = (name: string) => join(ws.dir, `${name}-ran${ws.n}`);
    const [denied, deniedBg, allowed] = [ran('denied'), ran('denied-bg'), ran('allowed')];
    await install('denied', {
      PostToolBatch: [{ hooks: [cmd(`touch '${denied}'`)] }],
      PostToolUse: [{ hooks: [cmd(`touch '${deniedBg}'`, { async: true })] }],
    });
    await install('allowed', { PostToolBatch: [{ hooks: [cmd(`touch '${allowed}'`)] }] });
    const batch = payload('PostToolBatch', { tool_calls: [] });
    const used = payload('PostToolUse', { tool_name: 'Bash', tool_input: {}, tool_response: {} });
    // The session pins both plugins before any policy exists.
    expect((await wire(batch)).code).toBe(0);
    expect([existsSync(denied), existsSync(allowed)]).toEqual([true, true]);
    await Promise.all([rm(denied), rm(allowed)]);
    const policy = join(ws.dir, `policy${ws.n}.json`);
    await writeFile(policy, JSON.stringify({ plugins: { deny: ['denied'] } }));
    const env = ws.env({ HOOKPM_POLICY_FILE: policy });
    const underPolicy = await ws.hookpm(['wire', 'claude'], { stdin: batch, env });
    expect(underPolicy.code, underPolicy.stderr).toBe(0);
    expect([existsSync(denied), existsSync(allowed)]).toEqual([false, true]);
    const background = await ws.hookpm(['wire', 'claude', '--background'], { stdin: used, env });
    expect(background.code, background.stderr).toBe(0);
    expect(existsSync(deniedBg)).toBe(false);
    // Without the policy the same session's background event runs it: the check is not vacuous.
    const open = await ws.hookpm(['wire', 'claude', '--background'], { stdin: used });
    expect(open.code, open.stderr).toBe(0);
    expect(existsSync(deniedBg)).toBe(true);
  });

  it('G3, B2: a background-only plugin whose tree changed is left out of the background entry, which wakes no one but says so on stderr and in the decision log', async () => {
    const ran = join(ws.dir, `bg-tampered-ran${ws.n}`);
    await install('bg-only', {
      PostToolUse: [{ hooks: [cmd(`touch '${ran}'`, { async: true })] }],
    });
    const used = payload('PostToolUse', { tool_name: 'Bash', tool_input: {}, tool_response: {} });
    const background = () => ws.hookpm(['wire', 'claude', '--background'], { stdin: used });
    // The session pins the plugin, and the entry runs it while its tree is as installed.
    expect(await background()).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(ran)).toBe(true);
    await rm(ran);
    await appendFile(join(installedTree(ws.home, 'bg-only'), 'hooks', 'hooks.json'), '\n');
    const left = await background();
    expect(left.code).toBe(0);
    expect(left.stdout).toBe('');
    expect(left.stderr).toContain('failed_closed');
    expect(left.stderr).toContain('bg-only@local');
    expect(existsSync(ran)).toBe(false);
    const { entries } = JSON.parse(await ok(['log', '--all', '--json'])) as {
      entries: Record<string, any>[];
    };
    const last = JSON.stringify(entries.at(-1));
    expect(last).toContain('wire:claude:background');
    expect(last).toContain('failed_closed');
  });
});
