import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { printsJson } from '../helpers/hook-fixtures.js';
import { claudeBashPayload } from '../helpers/claude-payload.js';

// docs/reference/rules/cli.md#w1: `hookpm link <agent> --timeout <s>` writes the agent's
// deadline for hookpm's handler, in the agent's unit and on the command line (`wire --deadline`),
// and under `wire` every plugin handler ends before it, so that hookpm answers with what finished.
// The handlers are run as the agent runs them: the command link wrote, under /bin/sh, payload on
// stdin.

const ws = useBinWorkspace('e2e-wire-deadline');

const DENY = printsJson({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: 'deny',
    permissionDecisionReason: 'slow-guard: no',
  },
});

/** A plugin whose PreToolUse runs a handler that never ends (timeout 3600) beside a deny. */
async function hungAndDeny(hung = 'sleep 3600'): Promise<string> {
  return writeClaudePlugin(join(ws.dir, `plugins${ws.n}`, 'slow-guard'), 'slow-guard', {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          { type: 'command', command: hung, timeout: 3600 },
          { type: 'command', command: DENY },
        ],
      },
    ],
    SessionEnd: [{ hooks: [{ type: 'command', command: hung, timeout: 3600 }] }],
  });
}

async function ok(args: string[], env: Record<string, string> = {}): Promise<string> {
  const run = await ws.hookpm(args, { env: ws.env(env) });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

const bash = (command: string) => claudeBashPayload(ws, `s${ws.n}`, command);

interface Handler {
  type: string;
  command: string;
  timeout: number;
}

/** The handler link wrote for `event` in a settings file. */
async function linked(file: string, event: string): Promise<Handler> {
  const doc = JSON.parse(await readFile(file, 'utf8')) as {
    hooks: Record<string, Array<{ hooks: Handler[] }>>;
  };
  const handler = doc.hooks[event]?.at(-1)?.hooks[0];
  if (handler === undefined) throw new Error(`no ${event} handler in ${file}`);
  return handler;
}

/** Runs a handler command as an agent does: `/bin/sh -c`, in the repository, payload on stdin. */
function asAgent(command: string, stdin: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>(
    (resolve, reject) => {
      const started = performance.now();
      const child = spawn('/bin/sh', ['-c', command], { cwd: ws.repo, env: ws.env() });
      let stdout = '';
      let stderr = '';
      child.on('error', reject);
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.stdin.end(stdin);
      child.on('close', (code) =>
        resolve({ code, stdout, stderr, ms: performance.now() - started }),
      );
    },
  );
}

const claudeFile = () => join(ws.home, '.claude', 'settings.json');

describe('deadlines that fit inside the agent (cli.md W1)', () => {
  it("W1: with an agent deadline of 3 s, a handler of timeout 3600 that hangs is ended and the other handler's deny reaches the agent before the deadline", async () => {
    await ok(['install', await hungAndDeny(), '--yes']);
    await ok(['link', 'claude', '--timeout', '3']);
    const handler = await linked(claudeFile(), 'PreToolUse');
    expect(handler.timeout).toBe(3);
    expect(handler.command).toContain(' wire claude --deadline 3 ');
    const run = await asAgent(handler.command, bash('git push --force origin main'));
    expect(run.ms).toBeLessThan(3000);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: 'slow-guard: no',
    });
    expect(run.stderr).toMatch(/timeout: ended at the host's deadline .*its own 3600s timeout/);
  });

  it('W1: a handler that ignores SIGTERM is killed after the grace, still before a 3 s deadline', async () => {
    await ok(['install', await hungAndDeny("trap '' TERM; sleep 3600"), '--yes']);
    await ok(['link', 'claude', '--timeout', '3']);
    const handler = await linked(claudeFile(), 'PreToolUse');
    const run = await asAgent(handler.command, bash('ls'));
    expect(run.ms).toBeLessThan(3000);
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it("W1: Codex's 3 s cap of SessionEnd is the deadline there, whatever --timeout says", async () => {
    await ok(['install', await hungAndDeny(), '--yes']);
    await ok(['link', 'codex'], { CODEX_HOME: join(ws.home, '.codex') });
    const file = join(ws.home, '.codex', 'hooks.json');
    const end = await linked(file, 'SessionEnd');
    expect(end.timeout).toBe(3);
    expect(end.command).toContain(' wire codex --deadline 600');
    const body = JSON.stringify({
      session_id: 'c1',
      transcript_path: join(ws.home, 't.jsonl'),
      cwd: ws.repo,
      hook_event_name: 'SessionEnd',
      reason: 'other',
    });
    const run = await asAgent(end.command, body);
    expect(run.ms).toBeLessThan(3000);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/timeout: ended at the host's deadline/);
  });

  it('W1: a link an earlier hookpm wrote (no --deadline) still answers, with the 600 s deadline it was written with', async () => {
    await ok(['install', await hungAndDeny('true'), '--yes']);
    const run = await ws.hookpm(['wire', 'claude'], { stdin: bash('ls') });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('W1: a --deadline that is not seconds is told on stderr and the event answered all the same', async () => {
    await ok(['install', await hungAndDeny('true'), '--yes']);
    const run = await ws.hookpm(['wire', 'claude', '--deadline', 'soon'], { stdin: bash('ls') });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(run.stderr).toContain('--deadline "soon" is not seconds; ignored');
  });
});

describe('link --timeout (cli.md W1)', () => {
  it('W1: --timeout is written in each agent’s unit (seconds; Gemini CLI: ms) and on the command line; Codex keeps its SessionEnd cap', async () => {
    const env = { CODEX_HOME: join(ws.home, '.codex'), GEMINI_CLI_HOME: ws.home };
    for (const agent of ['claude', 'deepagents', 'codex', 'gemini'])
      await ok(['link', agent, '--timeout', '45'], env);
    const files = {
      claude: [claudeFile(), 'PreToolUse', 45],
      deepagents: [join(ws.home, '.deepagents', 'hooks.json'), 'PreToolUse', 45],
      codex: [join(ws.home, '.codex', 'hooks.json'), 'PreToolUse', 45],
      gemini: [join(ws.home, '.gemini', 'settings.json'), 'BeforeTool', 45_000],
    } as const;
    for (const [agent, [file, event, timeout]] of Object.entries(files)) {
      const handler = await linked(file, event);
      expect(handler.timeout, agent).toBe(timeout);
      expect(handler.command, agent).toContain(` wire ${agent} --deadline 45 `);
    }
    expect((await linked(files.codex[0], 'SessionEnd')).timeout).toBe(3);
    await ok(['link', 'codex', '--timeout', '2'], env);
    expect((await linked(files.codex[0], 'SessionEnd')).timeout).toBe(2);
    expect((await linked(files.codex[0], 'Stop')).timeout).toBe(2);
  });

  it('W1: linking again with another --timeout rewrites the handlers; the default is 600', async () => {
    await ok(['link', 'claude', '--timeout', '30']);
    expect((await linked(claudeFile(), 'Stop')).timeout).toBe(30);
    const again = JSON.parse(await ok(['link', 'claude', '--json'])) as Record<string, unknown>;
    expect(again).toMatchObject({ changed: true, timeoutSec: 600 });
    const handler = await linked(claudeFile(), 'Stop');
    expect(handler.timeout).toBe(600);
    expect(handler.command).toContain(' wire claude --deadline 600 ');
  });

  it('W1: a --timeout that is not whole seconds from 1 to 86400 is E_USAGE and writes nothing', async () => {
    for (const bad of ['0', 'abc', '1.5', '86401', '-3']) {
      const run = await ws.hookpm(['link', 'claude', `--timeout=${bad}`]);
      expect(run.code, bad).toBe(2);
      expect(run.stderr, bad).toMatch(/--timeout/);
    }
    expect(existsSync(claudeFile())).toBe(false);
  });
});
