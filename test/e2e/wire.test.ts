import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, runBin } from '../helpers/built-bin.js';
import { HANDLERS } from '../helpers/session-workspace.js';
import { killHostWhileHandlerRuns } from '../engine/runner-fixtures.js';
import { printsJson } from '../helpers/hook-fixtures.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { claudeBashPayload, claudePayload } from '../helpers/claude-payload.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { installedTree } from '../helpers/installed-tree.js';
import { useBubblewrap } from '../helpers/bubblewrap.js';

// `hookpm wire <agent>`, the handler link writes, on per-session pins (engine.md R1). The payloads
// are the ones Claude Code 2.1.332 sends (test/agents/claude-code.ts lists them).

const GUARD = fileURLToPath(new URL('../../registry-fixtures/plugins/guard', import.meta.url));
const FORCE_PUSH = 'git push --force origin main';

// guard declares capabilities: its handlers run under bubblewrap.
useBubblewrap();

const ws = useBinWorkspace('e2e-wire');

const hookpm = (args: string[], stdin?: string) => ws.hookpm(args, { stdin });

async function ok(args: string[]): Promise<string> {
  const run = await hookpm(args);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

/** A plugin directory with one hooks document. */
async function plugin(name: string, hooks: Record<string, unknown>): Promise<string> {
  return writeClaudePlugin(join(ws.dir, `plugins${ws.n}`, name), name, hooks);
}

const contextPlugin = () =>
  plugin('ctx', {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          {
            type: 'command',
            command: printsJson({
              hookSpecificOutput: {
                hookEventName: 'PreToolUse',
                additionalContext: 'ctx was here',
              },
            }),
          },
        ],
      },
    ],
  });

const payload = (event: string, session: string, extra: Record<string, unknown> = {}) =>
  claudePayload(ws, event, session, extra);
const start = (session: string) => payload('SessionStart', session, { source: 'startup' });
const bash = (session: string, command: string) => claudeBashPayload(ws, session, command);

async function wire(body: string, agent = 'claude') {
  const run = await hookpm(['wire', agent], body);
  return {
    code: run.code,
    stderr: run.stderr,
    out: run.stdout === '' ? null : (JSON.parse(run.stdout) as Record<string, any>),
  };
}

describe('hookpm wire claude', () => {
  it("PreToolUse: guard's deny reaches Claude Code as permissionDecision deny with guard's reason; an allowed command gets no output", async () => {
    await ok(['install', GUARD, '--yes']);
    const denied = await wire(bash('s1', FORCE_PUSH));
    expect(denied.code).toBe(0);
    expect(denied.out?.hookSpecificOutput).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
    });
    expect(denied.out?.hookSpecificOutput.permissionDecisionReason).toMatch(
      /^guard: `git push --force` rewrites shared history/,
    );
    expect(await wire(bash('s1', 'ls -la'))).toEqual({ code: 0, stderr: '', out: null });
  });

  it('an event nobody hooks, a SessionEnd, a Notification: exit 0 and nothing on stdout', async () => {
    await ok(['install', GUARD, '--yes']);
    for (const body of [
      start('s2'),
      payload('Notification', 's2', { notification_type: 'idle_prompt', message: 'waiting' }),
      payload('SessionEnd', 's2', { reason: 'other' }),
    ])
      expect(await wire(body)).toEqual({ code: 0, stderr: '', out: null });
  });

  it('a payload that is not a JSON object is exit 1 (a non-blocking error for the agent) with a message', async () => {
    const run = await wire('not json');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('not a JSON object');
  });

  it("O3: a plugin's Stop block continues the turn, and the session's count caps it at 8 (the pin keeps the count)", async () => {
    await ok([
      'install',
      await plugin('again', {
        Stop: [{ hooks: [{ type: 'command', command: "echo 'not yet' >&2; exit 2" }] }],
      }),
      '--yes',
    ]);
    await wire(start('s3'));
    const answers = [];
    for (let i = 0; i < 9; i++)
      answers.push((await wire(payload('Stop', 's3', { stop_hook_active: i > 0 }))).out);
    expect(answers.slice(0, 8)).toEqual(Array(8).fill({ decision: 'block', reason: 'not yet' }));
    expect(answers[8]).toBeNull();
    // A Stop that did not continue resets the count: the next one blocks again.
    expect((await wire(payload('Stop', 's3', { stop_hook_active: false }))).out).toEqual({
      decision: 'block',
      reason: 'not yet',
    });
  });

  it("security: SIGKILL of `hookpm wire` while a plugin's handler runs leaves no handler alive (the watchdog kills it)", async () => {
    const pidFile = join(ws.dir, `wire-sleeper-${ws.n}`);
    const sleeper = {
      type: 'command',
      command: `sh record-pid-and-sleep.sh ${pidFile}`,
      argv: ['/bin/sh', join(HANDLERS, 'record-pid-and-sleep.sh'), pidFile],
    };
    await ok(['install', await plugin('sleeper', { PreToolUse: [{ hooks: [sleeper] }] }), '--yes']);
    await wire(start('s9'));
    const child = spawn(process.execPath, [BIN, 'wire', 'claude'], {
      cwd: ws.repo,
      env: ws.env(),
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.stdin.end(bash('s9', 'ls'));
    expect(await killHostWhileHandlerRuns(child, pidFile, 'SIGKILL')).toBeNull();
  });

  it("X5: a plugin's handler under `hookpm wire` sees no GH_PAT or MYSQL_PWD, unless settings.json env.pass names it", async () => {
    const envDump = join(ws.dir, `wire-env-${ws.n}`);
    const dump = { type: 'command', command: `env > '${envDump}'` };
    await ok(['install', await plugin('dump', { PreToolUse: [{ hooks: [dump] }] }), '--yes']);
    const secrets = { ...ws.env(), GH_PAT: 'gh-pat-secret', MYSQL_PWD: 'mysql-secret' };
    const run = () =>
      runBin(['wire', 'claude'], { cwd: ws.repo, env: secrets, stdin: bash('s8', 'ls') });
    expect((await run()).code).toBe(0);
    const filtered = readFileSync(envDump, 'utf8');
    expect(filtered).not.toContain('gh-pat-secret');
    expect(filtered).not.toContain('mysql-secret');
    await mkdir(join(ws.home, 'hookpm', 'config'), { recursive: true });
    await writeFile(
      join(ws.home, 'hookpm', 'config', 'settings.json'),
      JSON.stringify({ env: { pass: ['GH_PAT'] } }),
    );
    expect((await run()).code).toBe(0);
    const passed = readFileSync(envDump, 'utf8');
    expect(passed).toContain('GH_PAT=gh-pat-secret');
    expect(passed).not.toContain('mysql-secret');
  });

  it('deepagents speaks the same format, with its suppressOriginalPrompt', async () => {
    await ok([
      'install',
      await plugin('quiet', {
        UserPromptSubmit: [
          {
            hooks: [
              {
                type: 'command',
                command: printsJson({
                  hookSpecificOutput: {
                    hookEventName: 'UserPromptSubmit',
                    suppressOriginalPrompt: true,
                    additionalContext: 'c',
                  },
                }),
              },
            ],
          },
        ],
      }),
      '--yes',
    ]);
    const body = payload('UserPromptSubmit', 's4', { prompt: 'hi' });
    expect((await wire(body, 'deepagents')).out).toEqual({
      hookSpecificOutput: {
        hookEventName: 'UserPromptSubmit',
        additionalContext: 'c',
        suppressOriginalPrompt: true,
      },
    });
    expect((await wire(body, 'claude')).out).toEqual({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'c' },
    });
  });

  it("D13: a guard's deny reaches Deep Agents Code in the 100,000 bytes of stdout it reads, however much context other handlers add (its hooks/runner.py reads a longer answer as plain text)", async () => {
    // A control character takes six bytes in JSON: each handler's context is 54 KB of stdout.
    const context = printsJson({
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: '\u0001'.repeat(9000) },
    });
    const guard = { type: 'command', command: "echo 'no rm here' >&2; exit 2" };
    const handlers = [
      { type: 'command', command: context },
      guard,
      { type: 'command', command: context },
    ];
    await ok(['install', await plugin('loud', { PreToolUse: [{ hooks: handlers }] }), '--yes']);
    const run = await hookpm(['wire', 'deepagents'], bash('s5', 'rm -rf build'));
    expect(run.code).toBe(0);
    expect(Buffer.byteLength(run.stdout)).toBeLessThanOrEqual(100_000);
    expect(JSON.parse(run.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: 'no rm here',
    });
    expect(run.stderr).toContain('output_capped: the answer was cut to the 100,000 bytes');
  });
});

describe('per-session pins (engine.md R1)', () => {
  it('a plugin enabled mid-session does not join it; a new session sees it at once; `reload --session` lets the first one see it', async () => {
    await ok(['install', GUARD, '--yes']);
    await wire(start('old'));
    await ok(['install', await contextPlugin(), '--yes']);
    const context = (session: string) =>
      wire(bash(session, 'ls')).then((r) => r.out?.hookSpecificOutput?.additionalContext ?? null);
    expect(await context('old')).toBeNull();
    await wire(start('new'));
    expect(await context('new')).toBe('ctx was here');
    const reload = JSON.parse(await ok(['reload', '--session', 'old', '--json']));
    expect(reload.sessions).toEqual([
      expect.objectContaining({
        sessionId: 'old',
        agent: 'claude',
        plugins: expect.arrayContaining([expect.objectContaining({ id: 'ctx@local' })]),
      }),
    ]);
    expect(await context('old')).toBe('ctx was here');
  });

  it('a plugin disabled mid-session keeps running there until reload --all; a new session is not denied', async () => {
    await ok(['install', GUARD, '--yes']);
    await wire(start('a'));
    await ok(['disable', 'guard']);
    expect((await wire(bash('a', FORCE_PUSH))).out?.hookSpecificOutput?.permissionDecision).toBe(
      'deny',
    );
    await wire(start('b'));
    expect((await wire(bash('b', FORCE_PUSH))).out).toBeNull();
    await ok(['reload', '--all']);
    expect((await wire(bash('a', FORCE_PUSH))).out).toBeNull();
  });

  it('an event of a session whose start hookpm missed pins the plugins of that moment', async () => {
    await ok(['install', GUARD, '--yes']);
    expect((await wire(bash('late', FORCE_PUSH))).out?.hookSpecificOutput?.permissionDecision).toBe(
      'deny',
    );
    await ok(['disable', 'guard']);
    expect((await wire(bash('late', FORCE_PUSH))).out?.hookSpecificOutput?.permissionDecision).toBe(
      'deny',
    );
  });

  it('a compact SessionStart keeps the pin; a resume pins afresh', async () => {
    await ok(['install', GUARD, '--yes']);
    await wire(start('c'));
    await ok(['disable', 'guard']);
    await wire(payload('SessionStart', 'c', { source: 'compact' }));
    expect((await wire(bash('c', FORCE_PUSH))).out).not.toBeNull();
    await wire(payload('SessionStart', 'c', { source: 'resume' }));
    expect((await wire(bash('c', FORCE_PUSH))).out).toBeNull();
  });

  it("D4, S41: an uninstalled plugin's tree stays while a session runs it, and the next install collects it once SessionEnd released the pin", async () => {
    await ok(['install', GUARD, '--yes']);
    await wire(start('u'));
    const trees = () =>
      readdirSync(join(ws.home, 'hookpm', 'data', 'plugins')).filter((d) => d.startsWith('guard-'));
    await ok(['uninstall', 'guard']);
    expect(trees()).toHaveLength(1);
    expect((await wire(bash('u', FORCE_PUSH))).out?.hookSpecificOutput?.permissionDecision).toBe(
      'deny',
    );
    await wire(payload('SessionEnd', 'u', { reason: 'other' }));
    expect(readdirSync(join(ws.home, 'hookpm', 'data', 'sessions'))).toEqual([]);
    await ok(['install', await contextPlugin(), '--yes']);
    expect(
      readdirSync(join(ws.home, 'hookpm', 'data', 'plugins')).filter((d) => d.startsWith('guard-')),
    ).toEqual([]);
  });

  it('Q6, B2: a pinned plugin whose files change is left out at the next event, with plugin_tampered on stderr, and fails closed', async () => {
    await ok(['install', GUARD, '--yes']);
    await wire(start('t'));
    const installed = installedTree(ws.home, 'guard');
    await appendFile(join(installed, 'scripts', 'guard.mjs'), '\n// changed\n');
    const run = await wire(bash('t', FORCE_PUSH));
    expect(run.out?.hookSpecificOutput?.permissionDecisionReason).toMatch(
      /^hookpm fails closed: plugin guard@local/,
    );
    expect(run.stderr).toContain('plugin_tampered');
  });

  it('Q6, B2: a file the pinned plugin created in its folder keeps it running; a created manifest fails closed', async () => {
    await ok(['install', GUARD, '--yes']);
    await wire(start('w'));
    const installed = installedTree(ws.home, 'guard');
    await mkdir(join(installed, '.state'));
    await writeFile(join(installed, '.state', 'seen.json'), '{}');
    const kept = await wire(bash('w', FORCE_PUSH));
    expect(kept.out?.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(kept.stderr).not.toContain('plugin_tampered');
    await writeFile(join(installed, 'plugin.json'), '{"name": "guard"}');
    const shadowed = await wire(bash('w', FORCE_PUSH));
    expect(shadowed.out?.hookSpecificOutput?.permissionDecisionReason).toMatch(
      /^hookpm fails closed: plugin guard@local .*plugin\.json was created after install/,
    );
    expect(shadowed.stderr).toContain(
      'plugin.json was created after install and is read as its manifest or hooks',
    );
  });

  it('reload of a session hookpm never saw is E_NOT_FOUND; reload needs --session or --all', async () => {
    const unknown = await hookpm(['reload', '--session', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('E_NOT_FOUND');
    expect((await hookpm(['reload'])).code).toBe(2);
  });
});
