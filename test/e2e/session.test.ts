import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { whileRunning } from '../engine/runner-fixtures.js';
import { startRpcSession, type RpcMessage, type RpcSession } from '../helpers/rpc-session.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import {
  BIN,
  ROOT,
  ensureBuilt,
  group,
  useSessionWorkspace,
  sleeperGroup,
} from '../helpers/session-workspace.js';
import { goneWithin, isAlive, waitForPid } from '../helpers/pids.js';
import { dispatchLogFiles, LOG_LINE_MAX_BYTES } from '../../src/store/dispatch-log.js';
import { homeStorePaths } from '../../src/store/home-paths.js';
import { useBubblewrap } from '../helpers/bubblewrap.js';

// guard declares capabilities: its handlers run under bubblewrap.
useBubblewrap();

const ws = useSessionWorkspace();
let session: RpcSession | null = null;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  if (session !== null && session.proc.exitCode === null && session.proc.signalCode === null) {
    session.proc.stdin.end();
    const timer = setTimeout(() => session?.proc.kill('SIGKILL'), 3000);
    await session.exited;
    clearTimeout(timer);
  }
  session = null;
});

function start(args: string[] = []): RpcSession {
  session = startRpcSession(ws.repo, ws.env, args);
  return session;
}

const ready = (s: RpcSession): Promise<RpcMessage> => s.waitFor((m) => m.method === 'ready');
const DENY = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked"}}'`;
const BASH = { tool_name: 'Bash', tool_input: { command: 'ls' } };

type Result = {
  snapshotId: string;
  continueLoop: boolean;
  permission: unknown;
  runs: unknown[];
  diagnostics: { code: string }[];
};
const resultOf = (m: RpcMessage): Result => {
  expect(m.error).toBeUndefined();
  return m.result as Result;
};

describe('hookpm session over JSON-RPC (cli.md section 4)', () => {
  it('R1: an edit to the user hooks.json is invisible until reload, then visible, and the snapshotId changes', async () => {
    await ws.writeUserHooks({ PreToolUse: group('true', 'Bash') });
    const s = start();
    const first = (await ready(s)).params as { snapshotId: string; handlers: number };
    expect(s.messages[0]?.method).toBe('ready');
    expect(first).toMatchObject({ handlers: 1, plugins: [], diagnostics: [] });

    await ws.writeUserHooks({ PreToolUse: group(DENY, 'Bash') });
    const stale = resultOf(await s.call('dispatch', { event: 'PreToolUse', payload: BASH }));
    expect(stale.permission).toBeNull();
    expect(stale.snapshotId).toBe(first.snapshotId);

    const reload = (await s.call('reload')).result as { snapshotId: string; handlers: number };
    expect(reload.snapshotId).toMatch(/^[0-9a-f]{64}$/);
    expect(reload.snapshotId).not.toBe(first.snapshotId);
    expect(reload).toMatchObject({ handlers: 1, plugins: [], diagnostics: [] });
    const fresh = resultOf(await s.call('dispatch', { event: 'PreToolUse', payload: BASH }));
    expect(fresh.permission).toEqual({ decision: 'deny', reason: 'blocked', interrupt: false });
    expect(fresh.snapshotId).toBe(reload.snapshotId);

    const hooks = (await s.call('hooks')).result as {
      snapshotId: string;
      handlers: { id: string }[];
    };
    expect(hooks.snapshotId).toBe(reload.snapshotId);
    expect(hooks.handlers.map((h) => h.id)).toEqual(['PreToolUse:0:0']);
  });

  it('cli.md section 4: a malformed line gets -32700 and the session keeps serving', async () => {
    const s = start();
    await ready(s);
    s.send('{"jsonrpc":"2.0","id":1,"method":\n');
    const parse = await s.waitFor((m) => m.error?.code === -32700);
    expect(parse.id).toBeNull();
    s.send('{"jsonrpc":"2.0","id":2,"id":3,"method":"hooks"}\n');
    await s.waitFor((m) => m.error?.code === -32700 && m !== parse);
    const after = await s.call('dispatch', { event: 'Stop', payload: {} });
    expect(resultOf(after).continueLoop).toBe(false);
  });

  it('B5: a dispatch whose payload nests 100,000 levels deep is answered with its id and a deny; one of 512 levels runs the guard', async () => {
    await ws.writeUserHooks({ PreToolUse: group(DENY, 'Bash') });
    const s = start();
    await ready(s);
    const nested = (levels: number): string => '['.repeat(levels - 1) + ']'.repeat(levels - 1);
    const request = (id: number, levels: number): string =>
      `{"jsonrpc":"2.0","id":${id},"method":"dispatch","params":{"event":"PreToolUse","payload":{"tool_name":"Bash","deep":${nested(levels)}}}}\n`;
    s.send(request(1, 100_000));
    s.send(
      '{"jsonrpc":"2.0","id":2,"id":2,"method":"dispatch","params":{"deep":' + nested(600) + '}}\n',
    );
    s.send(request(3, 512));
    const deep = resultOf(await s.waitFor((m) => m.id === 1));
    expect(deep.permission).toMatchObject({ decision: 'deny' });
    expect(deep.runs).toEqual([]);
    expect(deep.diagnostics.map((d) => d.code)).toEqual(['payload_too_deep']);
    // A repeated key is still a parse error, however deep the line nests.
    const repeated = await s.waitFor((m) => m.error?.code === -32700);
    expect(repeated.id).toBeNull();
    const deepest = resultOf(await s.waitFor((m) => m.id === 3));
    expect(deepest.permission).toMatchObject({ decision: 'deny', reason: 'blocked' });
    expect(deepest.runs).toHaveLength(1);
  });

  it("W2: with the session's directory removed, a guard of a payload without cwd still runs, in the user's home, and denies", async () => {
    await ws.writeUserHooks({ PreToolUse: group(DENY, 'Bash') });
    const s = start();
    await ready(s);
    await rm(ws.repo, { recursive: true, force: true });
    const result = resultOf(await s.call('dispatch', { event: 'PreToolUse', payload: BASH }));
    expect(result.permission).toMatchObject({ decision: 'deny', reason: 'blocked' });
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        code: 'cwd_unusable',
        message: expect.stringContaining(`handlers run in ${ws.home}, the user's home`),
      }),
    ]);
  });

  it("R4: a reload after the session's directory was removed is a -32000 hookpm error (E_USAGE), not bad params, and the snapshot stays", async () => {
    await ws.writeUserHooks({ Stop: group('true') });
    const s = start();
    const first = (await ready(s)).params as { snapshotId: string };
    await rm(ws.repo, { recursive: true, force: true });
    const reload = await s.call('reload');
    expect(reload.error).toMatchObject({ code: -32000, data: { code: 'E_USAGE' } });
    expect(reload.error?.message).toContain(ws.repo);
    const after = resultOf(await s.call('dispatch', { event: 'Stop', payload: {} }));
    expect(after.snapshotId).toBe(first.snapshotId);
  });

  it('cli.md section 4: invalid requests get -32600, unknown methods -32601, bad params -32602, and the session carries on', async () => {
    const s = start();
    await ready(s);
    s.send('{"jsonrpc":"1.0","id":"a","method":"hooks"}\n[]\n{"jsonrpc":"2.0","id":"b"}\n"text"\n');
    await s.call('hooks'); // answered after every line sent before it
    expect(s.messages.filter((m) => m.error?.code === -32600).map((m) => m.id)).toEqual([
      'a',
      null,
      'b',
      null,
    ]);

    expect((await s.call('subscribe')).error?.code).toBe(-32601);
    const bad = [
      { event: 'Nope', payload: {} },
      { event: 'pretooluse', payload: {} },
      { event: 'Stop', payload: [] },
      { event: 'Stop', payload: 'x' },
      { event: 'Stop', payload: {}, continuationCount: -1 },
      { event: 'Stop', payload: {}, continuationCount: 1.5 },
      { event: 'Stop', payload: {}, extra: true },
      { payload: {} },
      ['Stop', {}],
    ];
    for (const params of bad) {
      const reply = await s.call('dispatch', params);
      expect(reply.error?.code, JSON.stringify(params)).toBe(-32602);
    }
    expect((await s.call('reload', { now: true })).error?.code).toBe(-32602);
    expect((await s.call('hooks', [])).result).toMatchObject({ handlers: [] });
    expect(resultOf(await s.call('dispatch', { event: 'Stop' })).continueLoop).toBe(false);
  });

  it('JSON-RPC 2.0: a notification (no id) is carried out and never answered, even when it fails', async () => {
    const marker = join(ws.dir, 'ran');
    await ws.writeUserHooks({ Notification: group(`touch ${marker}`) });
    const s = start();
    await ready(s);
    s.send(
      '{"jsonrpc":"2.0","method":"dispatch","params":{"event":"Notification","payload":{"message":"hi"}}}\n',
    );
    s.send(
      '{"jsonrpc":"2.0","method":"nope"}\n{"jsonrpc":"2.0","method":"dispatch","params":{"event":"Nope"}}\n',
    );
    await s.call('reload'); // waits for the notification's dispatch
    expect(existsSync(marker)).toBe(true);
    expect(s.messages.filter((m) => m.method === undefined)).toHaveLength(1);
  });

  it('security.md (bounded): a payload session_id of 1 MB is logged cut short; the line stays whole and under PIPE_BUF', async () => {
    await ws.writeUserHooks({ Stop: group('true') });
    const s = start();
    await ready(s);
    const sessionId = 's'.repeat(1_000_000);
    resultOf(await s.call('dispatch', { event: 'Stop', payload: { session_id: sessionId } }));
    const { current, previous } = dispatchLogFiles(homeStorePaths(ws.hookpmHome));
    expect(existsSync(previous)).toBe(false); // one event never rotates the log away
    const lines = readFileSync(current, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(Buffer.byteLength(lines[0]!)).toBeLessThanOrEqual(LOG_LINE_MAX_BYTES);
    expect(JSON.parse(lines[0]!)).toMatchObject({ session: `${'s'.repeat(200)}…`, runs: [{}] });
  });

  it('cli.md section 4: concurrent dispatches are answered as they finish, matched by id', async () => {
    await ws.writeUserHooks({ PreToolUse: group('sleep 0.5', 'Bash') });
    const s = start();
    await ready(s);
    const slow = s.call('dispatch', { event: 'PreToolUse', payload: BASH });
    const fast = s.call('dispatch', { event: 'Stop', payload: {} });
    const [slowReply, fastReply] = await Promise.all([slow, fast]);
    const replies = s.messages.filter((m) => m.method === undefined);
    expect(replies.map((m) => m.id)).toEqual([fastReply.id, slowReply.id]);
    expect(resultOf(slowReply).runs).toHaveLength(1);
  });

  it('O3: without continuationCount the session counts Stop continuations and stops at the cap of 8', async () => {
    await ws.writeUserHooks({ Stop: group(`echo 'keep going' >&2; exit 2`) });
    const s = start();
    await ready(s);
    const loops: boolean[] = [];
    for (let i = 0; i < 10; i += 1) {
      loops.push(resultOf(await s.call('dispatch', { event: 'Stop', payload: {} })).continueLoop);
    }
    expect(loops).toEqual([true, true, true, true, true, true, true, true, false, true]);
    const capped = s.messages.filter((m) => m.method === undefined)[8];
    expect(resultOf(capped as RpcMessage).diagnostics.map((d) => d.code)).toContain(
      'continuation_cap',
    );
    const given = resultOf(
      await s.call('dispatch', { event: 'Stop', payload: {}, continuationCount: 8 }),
    );
    expect(given.continueLoop).toBe(false);
  });
});

describe('hookpm session shutdown (cli.md section 4, security.md "The runtime")', () => {
  async function withSleeper(): Promise<{
    s: RpcSession;
    pid: number;
    pending: Promise<RpcMessage>;
  }> {
    const pidFile = join(ws.dir, 'pid');
    await ws.writeUserHooks({ PreToolUse: sleeperGroup(pidFile, 'Bash') });
    const s = start();
    await ready(s);
    const pending = s.call('dispatch', { event: 'PreToolUse', payload: BASH });
    pending.catch(() => {}); // a signal ends the session before it can answer
    const pid = await waitForPid(pidFile);
    expect(isAlive(pid)).toBe(true);
    return { s, pid, pending };
  }

  it('shutdown while a 30 s handler runs returns promptly, answers null last, exits 0 and leaves no handler alive', async () => {
    const { s, pid, pending } = await withSleeper();
    const started = Date.now();
    const reply = await s.call('shutdown');
    const { code } = await s.exited;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(reply.result).toBeNull();
    expect(code).toBe(0);
    expect(isAlive(pid)).toBe(false);
    expect((await pending).result).toMatchObject({ runs: [{ exitCode: null, timedOut: false }] });
    // engine.md B8: the guard killed before it decided fails closed, never an allow.
    expect(resultOf(await pending).permission).toEqual({
      decision: 'deny',
      reason:
        'hookpm fails closed: handler PreToolUse:0:0 of user hooks was killed before it decided, as its dispatch was stopped (the session shut down); retry in a new session',
      interrupt: false,
    });
    expect(s.messages.at(-1)).toBe(reply);
  });

  it('cli.md section 4: end of input lets a running dispatch finish and answers it before exiting 0', async () => {
    const deny = `sleep 0.5; ${DENY}`;
    await ws.writeUserHooks({ PreToolUse: group(deny, 'Bash') });
    const s = start();
    await ready(s);
    const pending = s.call('dispatch', { event: 'PreToolUse', payload: BASH });
    s.proc.stdin.end();
    const { code } = await s.exited;
    expect(code).toBe(0);
    expect(resultOf(await pending).permission).toEqual({
      decision: 'deny',
      reason: 'blocked',
      interrupt: false,
    });
  });

  it('cli.md section 4, X6: at end of input a running handler is waited for only until its deadline', async () => {
    const pidFile = join(ws.dir, 'pid');
    const sleeper = sleeperGroup(pidFile, 'Bash') as [{ hooks: [Record<string, unknown>] }];
    sleeper[0].hooks[0]['timeout'] = 1;
    await ws.writeUserHooks({ PreToolUse: sleeper });
    const s = start();
    await ready(s);
    const pending = s.call('dispatch', { event: 'PreToolUse', payload: BASH });
    const pid = await waitForPid(pidFile);
    const started = Date.now();
    s.proc.stdin.end();
    const { code } = await s.exited;
    expect(Date.now() - started).toBeLessThan(3000);
    expect(code).toBe(0);
    expect(resultOf(await pending).diagnostics.map((d) => d.code)).toEqual(['timeout']);
    expect(await goneWithin(pid)).toBe(true);
  });

  it('cli.md section 4: a shutdown request still kills a running handler, even with input ended after it', async () => {
    const { s, pid, pending } = await withSleeper();
    const started = Date.now();
    const reply = s.call('shutdown');
    s.proc.stdin.end();
    const { code } = await s.exited;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(code).toBe(0);
    expect((await reply).result).toBeNull();
    expect((await pending).result).toMatchObject({ runs: [{ exitCode: null, timedOut: false }] });
    expect(isAlive(pid)).toBe(false);
  });

  it('security: SIGKILL of the session (no code of its own runs) leaves no handler alive: its watchdog kills them within 2 s', async () => {
    const { s, pid } = await withSleeper();
    await whileRunning();
    s.proc.kill('SIGKILL');
    expect((await s.exited).signal).toBe('SIGKILL');
    expect(await goneWithin(pid, 2000)).toBe(true);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    "%s kills the running handlers' process groups, then the session exits",
    async (signal) => {
      const { s, pid } = await withSleeper();
      const started = Date.now();
      s.proc.kill(signal);
      const { code } = await s.exited;
      expect(Date.now() - started).toBeLessThan(2000);
      expect(code).toBe(signal === 'SIGTERM' ? 143 : 130);
      expect(await goneWithin(pid)).toBe(true);
    },
  );
});

describe('hookpm session at the end of a pipe (cli.md section 4)', () => {
  it("cli.md section 4: printf '<a PreToolUse dispatch of rm -rf />\\n' | hookpm session prints guard's deny", () => {
    const guard = join(ROOT, 'registry-fixtures', 'plugins', 'guard');
    const install = spawnSync(process.execPath, [BIN, 'install', guard, '--yes', '--json'], {
      cwd: ws.repo,
      env: ws.env,
      encoding: 'utf8',
    });
    expect(install.status, install.stderr).toBe(0);
    const line = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'dispatch',
      params: {
        event: 'PreToolUse',
        payload: { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } },
      },
    });
    const piped = spawnSync('/bin/sh', ['-c', `printf '%s\\n' "$LINE" | "$NODE" "$BIN" session`], {
      cwd: ws.repo,
      env: { ...ws.env, LINE: line, NODE: process.execPath, BIN },
      encoding: 'utf8',
    });
    expect(piped.status, piped.stderr).toBe(0);
    const messages = piped.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RpcMessage);
    expect(messages.map((m) => m.method ?? m.id)).toEqual(['ready', 1]);
    const result = resultOf(messages[1] as RpcMessage) as Result & {
      permission: { decision: string; reason: string };
    };
    expect(result.permission.decision).toBe('deny');
    expect(result.permission.reason).toMatch(/whole file system/);
    expect(result.runs).toMatchObject([{ plugin: 'guard@local', exitCode: 0 }]);
  });
});

describe('hookpm session and plugins (engine.md R1, R4)', () => {
  it('R1/R4: a plugin enabled with the CLI after the session started is active after reload, not before', async () => {
    const plugin = await writeClaudePlugin(
      join(ws.dir, 'late-plugin'),
      'late-plugin',
      { Stop: group(`echo 'from the plugin' >&2; exit 2`) },
      {
        description: 'blocks every Stop',
      },
    );
    const s = start();
    const first = (await ready(s)).params as { snapshotId: string };
    const cli = (args: string[]): void => {
      const run = spawnSync(process.execPath, [BIN, ...args, '--json'], {
        cwd: ws.repo,
        env: ws.env,
        encoding: 'utf8',
      });
      expect(run.status, run.stderr + run.stdout).toBe(0);
    };
    cli(['install', plugin, '--no-enable']);
    cli(['enable', 'late-plugin', '--yes']);

    const before = resultOf(await s.call('dispatch', { event: 'Stop', payload: {} }));
    expect(before.runs).toEqual([]);
    expect(before.snapshotId).toBe(first.snapshotId);

    const reload = (await s.call('reload')).result as {
      snapshotId: string;
      plugins: unknown[];
      handlers: number;
    };
    expect(reload.snapshotId).not.toBe(first.snapshotId);
    expect(reload.plugins).toEqual([{ id: 'late-plugin@local', events: ['Stop'] }]);
    expect(reload.handlers).toBe(1);
    const after = resultOf(await s.call('dispatch', { event: 'Stop', payload: {} }));
    expect(after.continueLoop).toBe(true);
    expect(after.runs).toEqual([
      expect.objectContaining({ origin: 'plugin', plugin: 'late-plugin@local' }),
    ]);
  });

  it('B2/B4: a plugin whose installed script is changed between two dispatches fails closed on the next, and the changed script never runs', async () => {
    const plugin = await writeClaudePlugin(
      join(ws.dir, 'guard'),
      'guard',
      { PreToolUse: group('sh "${CLAUDE_PLUGIN_ROOT}/guard.sh"', 'Bash') },
      { description: 'denies Bash' },
    );
    await writeFile(join(plugin, 'guard.sh'), `cat >/dev/null; ${DENY}\n`);
    const installed = spawnSync(process.execPath, [BIN, 'install', plugin, '--yes', '--json'], {
      cwd: ws.repo,
      env: ws.env,
      encoding: 'utf8',
    });
    expect(installed.status, installed.stderr).toBe(0);
    const s = start();
    await ready(s);
    const first = resultOf(await s.call('dispatch', { event: 'PreToolUse', payload: BASH }));
    expect(first.permission).toMatchObject({ decision: 'deny', reason: 'blocked' });

    const tree = (JSON.parse(installed.stdout) as { installed: { path: string }[] }).installed[0]!;
    const ran = join(ws.dir, 'tampered-ran');
    await writeFile(join(tree.path, 'guard.sh'), `cat >/dev/null; touch '${ran}'\n`);
    const second = resultOf(await s.call('dispatch', { event: 'PreToolUse', payload: BASH }));
    expect(second.permission).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining('hookpm install --force'),
    });
    expect(second.runs).toEqual([]);
    expect(second.diagnostics.map((d) => d.code)).toEqual(['plugin_tampered', 'failed_closed']);
    expect(existsSync(ran)).toBe(false);
  });

  it('B2/R1: a plugin uninstalled between two dispatches fails closed on the next with a reason naming reload, and reload ends it', async () => {
    const plugin = await writeClaudePlugin(
      join(ws.dir, 'guard'),
      'guard',
      { PreToolUse: group(`cat >/dev/null; ${DENY}`, 'Bash') },
      {
        description: 'denies Bash',
      },
    );
    const cli = (args: string[]): void => {
      const run = spawnSync(process.execPath, [BIN, ...args], { cwd: ws.repo, env: ws.env });
      expect(run.status, String(run.stderr)).toBe(0);
    };
    cli(['install', plugin, '--yes']);
    const s = start();
    await ready(s);
    cli(['uninstall', 'guard@local', '--yes']);
    const gone = resultOf(await s.call('dispatch', { event: 'PreToolUse', payload: BASH }));
    expect(gone.permission).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining('`reload` the session'),
    });
    resultOf(await s.call('reload'));
    const after = resultOf(await s.call('dispatch', { event: 'PreToolUse', payload: BASH }));
    expect(after.permission).toBeNull();
  });

  it('X5/R4: settings.json env.pass is read at start and again at reload', async () => {
    const envDump = join(ws.dir, 'env');
    await ws.writeUserHooks({ Stop: group(`env > '${envDump}'`) });
    const settings = join(ws.hookpmHome, 'config', 'settings.json');
    await mkdir(join(ws.hookpmHome, 'config'), { recursive: true });
    await writeFile(settings, JSON.stringify({ env: { pass: ['GH_PAT'] } }));
    session = startRpcSession(ws.repo, { ...ws.env, GH_PAT: 'gh-pat-secret', MYSQL_PWD: 'pw' });
    const s = session;
    await ready(s);
    resultOf(await s.call('dispatch', { event: 'Stop', payload: {} }));
    const before = readFileSync(envDump, 'utf8');
    expect(before).toContain('GH_PAT=gh-pat-secret');
    expect(before).not.toContain('MYSQL_PWD');

    await writeFile(settings, '{"env": {"pass": []}}');
    resultOf(await s.call('reload'));
    resultOf(await s.call('dispatch', { event: 'Stop', payload: {} }));
    expect(readFileSync(envDump, 'utf8')).not.toContain('gh-pat-secret');
  });

  it('R4: a reload with unreadable plugin state still succeeds with the user hooks and says so', async () => {
    await ws.writeUserHooks({ Stop: group('true') });
    const s = start();
    await ready(s);
    const state = join(ws.hookpmHome, 'data', 'state.json');
    await mkdir(join(ws.hookpmHome, 'data'), { recursive: true });
    await writeFile(state, '{"version": oops');
    const reload = (await s.call('reload')).result as {
      handlers: number;
      diagnostics: { code: string }[];
    };
    expect(reload.handlers).toBe(1);
    expect(reload.diagnostics.map((d) => d.code)).toContain('plugin_state_unreadable');
    await rm(state);
  });
});
