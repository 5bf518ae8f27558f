import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/built-bin.js';
import { MOUNT, requireTool } from '../helpers/system-package.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';

// The decision log of every dispatch (run, session, wire), read back with
// `hookpm log`, `hookpm stats` and `hookpm doctor`, with real child processes and temp homes.

const ws = useBinWorkspace('e2e-dlog', '.deepagents');
const mounts: string[] = [];

afterEach(() => {
  for (const mount of mounts.splice(0)) spawnSync('umount', [mount]);
});

const hookpm = (args: string[], stdin?: string) => ws.hookpm(args, { stdin });
const logFile = () => join(ws.home, 'hookpm', 'data', 'log', 'dispatch.jsonl');

async function userHooks(hooks: Record<string, unknown>): Promise<void> {
  await writeFile(join(ws.home, '.deepagents', 'hooks.json'), JSON.stringify({ hooks }));
}
async function settings(value: unknown): Promise<void> {
  await mkdir(join(ws.home, 'hookpm', 'config'), { recursive: true });
  await writeFile(join(ws.home, 'hookpm', 'config', 'settings.json'), JSON.stringify(value));
}
const cmd = (command: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command,
  ...extra,
});
const denyJson = JSON.stringify({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: 'deny',
    permissionDecisionReason: 'SECRET-REASON',
  },
});
const BASH = { tool_name: 'Bash', tool_input: { command: 'echo SECRET-COMMAND' } };

/** Claude Code's PreToolUse of BASH in session `session`, as `hookpm wire claude` reads it. */
function bashEvent(session: string): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: join(ws.home, 't.jsonl'),
    cwd: ws.repo,
    hook_event_name: 'PreToolUse',
    permission_mode: 'default',
    ...BASH,
    tool_use_id: 't1',
  });
}

async function logLines(): Promise<any[]> {
  const text = await readFile(logFile(), 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** `hookpm session` fed `count` dispatches of `event` on stdin; resolves with its answers. */
async function session(count: number, event = 'PreToolUse', payload: unknown = BASH) {
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'dispatch', params: { event, payload } }),
  );
  const run = await hookpm(['session'], `${lines.join('\n')}\n`);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((m) => m.id !== undefined);
}

describe('the decision log', () => {
  it('`run` appends one line: time, event, session, snapshot, each handler, the decision; no text by default', async () => {
    await userHooks({
      PreToolUse: [
        { matcher: 'Bash', hooks: [cmd(`printf '%s' '${denyJson}'`)] },
        { hooks: [cmd('echo SECRET-STDERR >&2; exit 1')] },
      ],
      Stop: [{ hooks: [cmd('true')] }],
    });
    const run = await hookpm(
      ['run', 'PreToolUse', '--payload', '-', '--json'],
      JSON.stringify({ ...BASH, session_id: 'sess-1' }),
    );
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    const [line, ...more] = await logLines();
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      v: 1,
      event: 'PreToolUse',
      source: 'run',
      session: 'sess-1',
      snapshot: result.snapshotId,
      decision: 'deny',
    });
    expect(Date.now() - Date.parse(line.time)).toBeLessThan(60_000);
    expect(line.runs).toEqual([
      expect.objectContaining({
        handler: 'PreToolUse:0:0',
        origin: 'user',
        plugin: null,
        exitCode: 0,
        timedOut: false,
        failed: false,
        decision: 'deny',
      }),
      expect.objectContaining({
        handler: 'PreToolUse:1:0',
        exitCode: 1,
        failed: true,
        decision: null,
      }),
    ]);
    expect(line.runs[0].ms).toBeGreaterThan(0);
    const text = await readFile(logFile(), 'utf8');
    for (const secret of ['SECRET-COMMAND', 'SECRET-REASON', 'SECRET-STDERR'])
      expect(text).not.toContain(secret);
  });

  it('settings.json log.text adds payload and output text; log.enabled false writes nothing; a bad value is reported', async () => {
    await userHooks({
      PreToolUse: [{ hooks: [cmd(`printf '%s' '${denyJson}'; echo SECRET-STDERR >&2`)] }],
    });
    await settings({ log: { text: true } });
    expect((await hookpm(['run', 'PreToolUse', '--payload', '-'], JSON.stringify(BASH))).code).toBe(
      0,
    );
    const [line] = await logLines();
    expect(line.payload.tool_input.command).toBe('echo SECRET-COMMAND');
    expect(line.text.reason).toBe('SECRET-REASON');
    expect(line.runs[0].stderr).toContain('SECRET-STDERR');
    await rm(logFile());
    await settings({ log: { enabled: false } });
    expect((await hookpm(['run', 'PreToolUse', '--payload', '-'], JSON.stringify(BASH))).code).toBe(
      0,
    );
    expect(existsSync(logFile())).toBe(false);
    await settings({ log: { text: 'yes' } });
    const bad = await hookpm(
      ['run', 'PreToolUse', '--payload', '-', '--json'],
      JSON.stringify(BASH),
    );
    const diagnostics = JSON.parse(bad.stdout).diagnostics;
    expect(diagnostics).toContainEqual(
      expect.objectContaining({
        code: 'config_read_failed',
        message: expect.stringContaining('log.text must be true or false'),
      }),
    );
    const [fallback] = await logLines();
    expect(fallback.payload).toBeUndefined();
  });

  it('a `run` of an event nothing matches writes one line with no runs and no decision; log shows it with --all, stats does not count it', async () => {
    await userHooks({ PreToolUse: [{ matcher: 'Write', hooks: [cmd('true')] }] });
    const run = await hookpm(['run', 'PreToolUse', '--payload', '-'], JSON.stringify(BASH));
    expect(run.code, run.stderr).toBe(0);
    const lines = await logLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      v: 1,
      event: 'PreToolUse',
      source: 'run',
      session: null, // no session_id given, and no payload was built to make one up
      decision: null,
      runs: [],
    });
    expect(lines[0].snapshot).toMatch(/^[0-9a-f]{64}$/);
    expect(lines[0].payload).toBeUndefined(); // no text unless log.text is on

    // One that ran a handler, for the defaults to keep.
    await userHooks({ PreToolUse: [{ matcher: 'Bash', hooks: [cmd('true')] }] });
    expect((await hookpm(['run', 'PreToolUse', '--payload', '-'], JSON.stringify(BASH))).code).toBe(
      0,
    );
    const shown = JSON.parse((await hookpm(['log', '--json'])).stdout);
    expect(shown.entries).toHaveLength(1);
    expect(shown.entries[0].runs).toHaveLength(1);
    const all = JSON.parse((await hookpm(['log', '--all', '--json'])).stdout);
    expect(all.entries.map((e: any) => e.runs.length)).toEqual([0, 1]);
    const human = await hookpm(['log', '--all']);
    expect(human.stdout.trimEnd().split('\n')[0]).toMatch(
      /PreToolUse {2}- {2}run {2}no handler matched$/,
    );
    const stats = JSON.parse((await hookpm(['stats', '--json'])).stdout);
    expect(stats.dispatches).toBe(1);
    expect(stats.handlers).toEqual([
      expect.objectContaining({ handler: 'PreToolUse:0:0', count: 1 }),
    ]);
  });

  it('a linked agent event (`hookpm wire claude`) that matches nothing writes one line, loading neither zod nor node:crypto', async () => {
    const root = join(ws.dir, `plugin${ws.n}`);
    await mkdir(join(root, 'hooks'), { recursive: true });
    await writeFile(join(root, 'plugin.json'), JSON.stringify({ name: 'quiet', version: '1.0.0' }));
    await writeFile(
      join(root, 'hooks', 'hooks.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Write', hooks: [cmd('true')] }] } }),
    );
    expect((await hookpm(['install', root, '--yes'])).code).toBe(0);
    // The wire path's cost (bench/link.bench.mjs): at exit, whether zod initialised (it sets
    // globalThis.__zod_globalConfig) and whether Node loaded its crypto module.
    const probe = join(ws.dir, `probe${ws.n}.cjs`);
    const seen = join(ws.dir, `seen${ws.n}.json`);
    await writeFile(
      probe,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify({
        zod: '__zod_globalConfig' in globalThis,
        crypto: process.moduleLoadList.filter((m) => /crypto/i.test(m)),
      })));\n`,
    );
    const common = {
      session_id: 'agent-quiet',
      transcript_path: join(ws.home, 't.jsonl'),
      cwd: ws.repo,
      permission_mode: 'default',
    };
    // The session's start pins its snapshot (hashing it), as the agent's SessionStart does.
    const start = { ...common, hook_event_name: 'SessionStart', source: 'startup' };
    expect((await hookpm(['wire', 'claude'], JSON.stringify(start))).code).toBe(0);
    const body = JSON.stringify({
      ...common,
      hook_event_name: 'PreToolUse',
      ...BASH,
      tool_use_id: 't1',
    });
    const wire = spawnSync(process.execPath, ['--require', probe, BIN, 'wire', 'claude'], {
      cwd: ws.repo,
      env: ws.env(),
      input: body,
      encoding: 'utf8',
    });
    expect(wire.status, wire.stderr).toBe(0);
    expect(wire.stdout).toBe('');
    expect(JSON.parse(await readFile(seen, 'utf8'))).toEqual({ zod: false, crypto: [] });
    const lines = await logLines();
    expect(lines.map((l) => l.event)).toEqual(['SessionStart', 'PreToolUse']);
    expect(lines[1]).toMatchObject({
      source: 'wire:claude',
      session: 'agent-quiet',
      event: 'PreToolUse',
      decision: null,
      runs: [],
    });
  });

  it('a session logs each dispatch with its session id; a linked agent event logs as wire:claude', async () => {
    await userHooks({ Stop: [{ hooks: [cmd('true')] }] });
    const answers = await session(3, 'Stop', {});
    expect(answers).toHaveLength(3);
    const lines = await logLines();
    expect(lines.map((l) => l.source)).toEqual(['session', 'session', 'session']);
    expect(new Set(lines.map((l) => l.session)).size).toBe(1);

    const root = join(ws.dir, `plugin${ws.n}`);
    await mkdir(join(root, 'hooks'), { recursive: true });
    await writeFile(join(root, 'plugin.json'), JSON.stringify({ name: 'wired', version: '1.0.0' }));
    await writeFile(
      join(root, 'hooks', 'hooks.json'),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`printf '%s' '${denyJson}'`)] }] },
      }),
    );
    expect((await hookpm(['install', root, '--yes'])).code).toBe(0);
    const body = bashEvent('agent-s1');
    const wire = await hookpm(['wire', 'claude'], body);
    expect(wire.code, wire.stderr).toBe(0);
    const last = (await logLines()).at(-1);
    expect(last).toMatchObject({
      source: 'wire:claude',
      session: 'agent-s1',
      event: 'PreToolUse',
      decision: 'deny',
    });
    expect(last.runs).toEqual([
      expect.objectContaining({ plugin: 'wired@local', decision: 'deny' }),
    ]);
  });

  // docs/guides/decision-log.md: `block` is a stop. Claude Code reads `continue: false` before any
  // permission decision beside it, so the agent stops: the log must not say the tool was allowed.
  it('a linked event whose handler allows beside continue:false is logged as the stop it is: block', async () => {
    const stopJson = (decision: string) =>
      JSON.stringify({
        continue: false,
        stopReason: 'halt',
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision },
      });
    const root = join(ws.dir, `plugin${ws.n}`);
    await mkdir(join(root, 'hooks'), { recursive: true });
    await writeFile(join(root, 'plugin.json'), JSON.stringify({ name: 'halts', version: '1.0.0' }));
    const halts = (decision: string) => cmd(`printf '%s' '${stopJson(decision)}'`);
    await writeFile(
      join(root, 'hooks', 'hooks.json'),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [halts('allow'), halts('ask')] }] },
      }),
    );
    expect((await hookpm(['install', root, '--yes'])).code).toBe(0);
    const body = bashEvent('agent-stop');
    const wire = await hookpm(['wire', 'claude'], body);
    expect(wire.code, wire.stderr).toBe(0);
    expect(JSON.parse(wire.stdout)).toMatchObject({ continue: false, stopReason: 'halt' });
    const last = (await logLines()).at(-1);
    expect(last).toMatchObject({ source: 'wire:claude', session: 'agent-stop', decision: 'block' });
    expect(last.runs.map((r: any) => r.decision)).toEqual(['block', 'block']);
    const run = await hookpm(['run', 'PreToolUse', '--payload', '-'], JSON.stringify(BASH));
    expect(run.code, run.stderr).toBe(0);
    expect((await logLines()).at(-1)).toMatchObject({ source: 'run', decision: 'block' });
  });

  it('concurrent dispatches from several processes leave whole lines only', async () => {
    // Long lines (text on, a 1.5 KB payload) make an interleaved write easy to see.
    await userHooks({ PreToolUse: [{ hooks: [cmd('echo out'), cmd('true')] }] });
    await settings({ log: { text: true } });
    const payload = { ...BASH, tool_input: { command: 'x'.repeat(1500) } };
    const PROCESSES = 6;
    const EACH = 25;
    const answers = await Promise.all(
      Array.from({ length: PROCESSES }, () => session(EACH, 'PreToolUse', payload)),
    );
    expect(answers.flat()).toHaveLength(PROCESSES * EACH);
    const lines = await logLines(); // every line parses
    expect(lines).toHaveLength(PROCESSES * EACH);
    expect(new Set(lines.map((l) => l.session)).size).toBe(PROCESSES);
    for (const line of lines) expect(line.runs).toHaveLength(2);
  });

  it('a full disk (a 64 KiB tmpfs) never fails a dispatch, and the log stays readable', async () => {
    await userHooks({
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`printf '%s' '${denyJson}'`)] }],
    });
    await settings({ log: { text: true } });
    const logDir = join(ws.home, 'hookpm', 'data', 'log');
    await mkdir(logDir, { recursive: true });
    const mount = spawnSync(
      await requireTool(MOUNT),
      ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', logDir],
      { encoding: 'utf8' },
    );
    // Mounting needs root, as the suite's machine is: elsewhere this fails saying so, never less.
    expect(mount.status, `mount -t tmpfs failed (it needs root): ${mount.stderr}`).toBe(0);
    mounts.push(logDir);
    const payload = { ...BASH, tool_input: { command: 'y'.repeat(2000) } };
    const answers = await session(60, 'PreToolUse', payload);
    expect(answers).toHaveLength(60);
    for (const a of answers) expect(a.result.permission.decision).toBe('deny');
    const run = await hookpm(
      ['run', 'PreToolUse', '--payload', '-', '--json'],
      JSON.stringify(BASH),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).permission.decision).toBe('deny');
    const log = await hookpm(['log', '--json']);
    expect(log.code, log.stderr).toBe(0);
    const read = JSON.parse(log.stdout);
    expect(lstatSync(logFile()).size).toBeLessThanOrEqual(64 * 1024);
    expect(read.entries.length).toBeGreaterThan(5);
    expect(read.entries.length).toBeLessThan(61);
    expect((await hookpm(['stats'])).code).toBe(0);
  });
});

describe('hookpm log, stats and doctor', () => {
  it('log filters by plugin, event and since; stats gives count, p50/p95/max, timeouts, failures, decisions, slowest first; doctor names the bad hooks', async () => {
    await userHooks({
      PreToolUse: [
        { matcher: 'Bash', hooks: [cmd('sleep 0.3')] },
        { hooks: [cmd('exit 1')] },
        { hooks: [cmd('sleep 5', { timeout: 1 })] },
      ],
      Stop: [{ hooks: [cmd('echo more >&2; exit 2')] }],
    });
    await session(4);
    await session(2, 'Stop', {});
    const all = JSON.parse((await hookpm(['log', '--json'])).stdout);
    expect(Object.keys(all)[0]).toBe('schemaVersion');
    expect(all.entries).toHaveLength(6);
    const stops = JSON.parse((await hookpm(['log', '--event', 'Stop', '--json'])).stdout);
    expect(stops.entries.map((e: any) => e.decision)).toEqual(['block', 'block']);
    const future = JSON.parse((await hookpm(['log', '--since', '2999-01-01', '--json'])).stdout);
    expect(future.entries).toEqual([]);
    expect(
      JSON.parse((await hookpm(['log', '--since', '1h', '--json'])).stdout).entries,
    ).toHaveLength(6);
    expect(
      JSON.parse((await hookpm(['log', '--plugin', 'nobody', '--json'])).stdout).entries,
    ).toEqual([]);
    const human = await hookpm(['log']);
    expect(human.stdout.trimEnd().split('\n')).toHaveLength(6);
    expect(human.stdout).toContain('PreToolUse:2:0 timeout');
    const badSince = await hookpm(['log', '--since', 'yesterday']);
    expect(badSince.code).toBe(2);

    const stats = JSON.parse((await hookpm(['stats', '--json'])).stdout);
    expect(Object.keys(stats)[0]).toBe('schemaVersion');
    expect(stats.dispatches).toBe(6);
    expect(stats.plugins).toEqual([
      expect.objectContaining({ plugin: 'user', count: 14, timeouts: 4, failures: 8 }),
    ]);
    const byId = Object.fromEntries(stats.handlers.map((h: any) => [h.handler, h]));
    expect(stats.handlers[0].handler).toBe('PreToolUse:2:0'); // slowest first
    expect(byId['PreToolUse:2:0']).toMatchObject({ count: 4, timeouts: 4, failures: 4 });
    expect(byId['PreToolUse:2:0'].p95Ms).toBeGreaterThanOrEqual(900);
    expect(byId['PreToolUse:0:0'].p50Ms).toBeGreaterThanOrEqual(250);
    expect(byId['PreToolUse:0:0'].maxMs).toBeGreaterThanOrEqual(byId['PreToolUse:0:0'].p95Ms);
    expect(byId['PreToolUse:1:0']).toMatchObject({ count: 4, failures: 4, timeouts: 0 });
    expect(byId['Stop:0:0']).toMatchObject({
      count: 2,
      failures: 0,
      decisions: { allow: 0, ask: 0, deny: 0, block: 2, context: 0 },
    });
    expect((await hookpm(['stats'])).stdout).toMatch(/^user +PreToolUse:2:0 +4 +\d+ ms/m);

    const doctor = JSON.parse((await hookpm(['doctor', '--json'])).stdout);
    const hooks = doctor.checks.filter((c: any) => c.name.startsWith('hook:'));
    expect(hooks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'hook:user PreToolUse:2:0',
          status: 'warning',
          code: 'hook_times_out',
        }),
        expect.objectContaining({
          name: 'hook:user PreToolUse:1:0',
          status: 'warning',
          code: 'hook_fails',
        }),
      ]),
    );
    expect(hooks).toHaveLength(2);
  });

  it('log --follow prints dispatches as they are logged', async () => {
    await userHooks({ Stop: [{ hooks: [cmd('true')] }] });
    const { spawn } = await import('node:child_process');
    const follow = spawn(process.execPath, [BIN, 'log', '--follow', '--json'], {
      cwd: ws.repo,
      env: ws.env(),
    });
    let out = '';
    follow.stdout.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await new Promise((r) => setTimeout(r, 1500));
      expect((await hookpm(['run', 'Stop'])).code).toBe(0);
      expect((await hookpm(['run', 'Stop'])).code).toBe(0);
      const deadline = Date.now() + 10_000;
      while (out.split('\n').filter(Boolean).length < 2 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      const lines = out
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => [l.schemaVersion, l.event, l.source])).toEqual([
        [1, 'Stop', 'run'],
        [1, 'Stop', 'run'],
      ]);
    } finally {
      follow.kill('SIGINT');
    }
    const code = await new Promise((r) => follow.on('close', r));
    expect(code).toBe(0);
  });
});

describe('hooks named by their stable key in log and stats', () => {
  async function plugin(name: string, command: string): Promise<string> {
    const root = join(ws.dir, `${name}${ws.n}`);
    await mkdir(join(root, 'hooks'), { recursive: true });
    await writeFile(join(root, 'plugin.json'), JSON.stringify({ name, version: '1.0.0' }));
    await writeFile(
      join(root, 'hooks', 'hooks.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(command)] }] } }),
    );
    return root;
  }

  it("a plugin hook's figures stay one row, under the key `hooks --json` shows, when another plugin installed before it moves its position; log names it by that key", async () => {
    expect((await hookpm(['install', await plugin('zeta', 'sleep 0.05'), '--yes'])).code).toBe(0);
    const listed = JSON.parse((await hookpm(['hooks', '--json'])).stdout);
    const zeta = listed.handlers.find((h: any) => h.plugin === 'zeta@local');
    expect(zeta.key).toMatch(/^[0-9a-f]{10}$/);
    await session(2);
    // `alpha` sorts first (snapshot order S3): zeta's handler id moves from PreToolUse:0:0.
    expect((await hookpm(['install', await plugin('alpha', 'true'), '--yes'])).code).toBe(0);
    const moved = JSON.parse((await hookpm(['hooks', '--json'])).stdout);
    const zetaNow = moved.handlers.find((h: any) => h.plugin === 'zeta@local');
    expect(zetaNow.id).not.toBe(zeta.id);
    expect(zetaNow.key).toBe(zeta.key);
    await session(3);

    const stats = JSON.parse((await hookpm(['stats', '--json'])).stdout);
    const rows = stats.handlers.filter((h: any) => h.plugin === 'zeta@local');
    expect(rows).toEqual([
      expect.objectContaining({ key: zeta.key, event: 'PreToolUse', count: 5 }),
    ]);
    const log = (await hookpm(['log'])).stdout;
    expect(log).toContain(`zeta@local ${zeta.key} exit 0`);
    expect(log).not.toContain('zeta@local PreToolUse:');
    const text = (await hookpm(['stats'])).stdout;
    expect(text).toMatch(new RegExp(`^zeta@local +${zeta.key} +5 +\\d+ ms`, 'm'));
  });

  it('stats and hooks at 80 columns show every plugin id, key and figure whole; only decisions, events and matchers give way', async () => {
    await userHooks({
      PreToolUse: [{ hooks: [cmd(`sleep 0.3; echo '${denyJson}'`)] }],
    });
    expect(
      (await hookpm(['install', await plugin('guard-shell', 'sleep 0.31'), '--yes'])).code,
    ).toBe(0);
    await session(2);
    const text = await ws.hookpm(['stats'], { env: ws.env({ HOOKPM_COLUMNS: '80' }) });
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(text.stdout).not.toMatch(/\d…/);
    const row = new RegExp(
      '^(guard-shell@local|user)( +(?:[0-9a-f]{10}|PreToolUse:\\d:\\d))? +2 +(\\d+ ms +){3}0 +0',
    );
    expect(lines.filter((l: string) => row.test(l))).toHaveLength(4);
    expect(text.stdout).toContain('2 deny');

    const hooks = await ws.hookpm(['hooks'], { env: ws.env({ HOOKPM_COLUMNS: '80' }) });
    const key = JSON.parse((await hookpm(['hooks', '--json'])).stdout).handlers[1].key;
    expect(hooks.stdout).toMatch(
      new RegExp(`^PreToolUse:1:0 +plugin guard-shell@local +${key} +Bash +\\d+s`, 'm'),
    );
    for (const line of hooks.stdout.split('\n').filter((l: string) => !l.startsWith('snapshot ')))
      expect(line.length, line).toBeLessThanOrEqual(80);
  });
});
