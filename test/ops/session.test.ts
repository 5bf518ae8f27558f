import { realpathSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isHookpmError } from '../../src/errors.js';
import type { DispatchResult } from '../../src/engine/types.js';
import { createSession, type Session } from '../../src/ops/run/session.js';
import { homeStorePaths, stateFile } from '../../src/store/home-paths.js';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { group, sleeperGroup, useSessionWorkspace } from '../helpers/session-workspace.js';
import { isAlive, waitForPid } from '../helpers/pids.js';

const ws = useSessionWorkspace();
let session: Session | null = null;

afterEach(async () => {
  await session?.close();
  session = null;
});

async function start(trustProjectHooks = false): Promise<Session> {
  session = await createSession({
    cwd: ws.repo,
    home: ws.home,
    env: ws.env,
    store: homeStorePaths(ws.hookpmHome),
    trustProjectHooks,
  });
  return session;
}

const DENY = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked"}}'`;
const BASH = { tool_name: 'Bash', tool_input: { command: 'ls' } };

describe('the library session (cli.md section 4)', () => {
  it('W2: a payload cwd that is gone or a file runs handlers in the session directory, with a cwd_unusable note, and a guard still denies', async () => {
    const seen = join(ws.home, 'where-handlers-ran');
    await ws.writeUserHooks({ PreToolUse: group(`pwd >> '${seen}'; ${DENY}`, 'Bash') });
    const s = await start();
    const file = join(ws.repo, 'a-file');
    await writeFile(file, '');
    for (const [cwd, problem] of [
      [join(ws.repo, 'gone'), 'does not exist'],
      [file, 'is not a directory'],
      [42, 'not a path'],
    ] as const) {
      const result = await s.dispatch('PreToolUse', { ...BASH, cwd });
      expect(result.permission).toEqual({ decision: 'deny', reason: 'blocked', interrupt: false });
      expect(result.diagnostics[0]).toMatchObject({ code: 'cwd_unusable', severity: 'warning' });
      expect(result.diagnostics[0]?.message).toContain(problem);
      expect(result.diagnostics[0]?.message).toContain(`handlers run in ${ws.repo}`);
    }
    const own = await s.dispatch('PreToolUse', { ...BASH, cwd: ws.home });
    expect(own.diagnostics.some((d) => d.code === 'cwd_unusable')).toBe(false);
    const dirs = (await readFile(seen, 'utf8')).trim().split('\n');
    expect(dirs).toEqual([ws.repo, ws.repo, ws.repo, ws.home].map((d) => realpathSync(d)));
  });

  // engine.md F2: `~/` in an `if` path rule is the session's home (createSession's `home`), the
  // one its user hooks come from, not the home of the process that embeds the engine.
  it("F2: a `~/` if rule of a session names the session's home, not the process's", async () => {
    const handler = { type: 'command', command: DENY, if: 'Edit(~/secret/**)' };
    await ws.writeUserHooks({ PreToolUse: [{ matcher: 'Edit', hooks: [handler] }] });
    const s = await start();
    const edit = (file_path: string) =>
      s.dispatch('PreToolUse', { tool_name: 'Edit', tool_input: { file_path }, cwd: ws.repo });
    expect((await edit(join(ws.home, 'secret', 'key'))).permission?.decision).toBe('deny');
    expect((await edit(join(ws.repo, 'secret', 'key'))).permission).toBeNull();
  });

  // engine.md F2, cli.md W2: an `if` path rule reads a relative path from the directory the
  // handlers run in and are told, the session's when the payload gives no usable `cwd`.
  it('F2: a relative path of a payload without a usable cwd is read from the session directory', async () => {
    const handler = { type: 'command', command: DENY, if: `Edit(/${ws.repo}/secret/**)` };
    await ws.writeUserHooks({ PreToolUse: [{ matcher: 'Edit', hooks: [handler] }] });
    const s = await start();
    const tool_input = { file_path: 'secret/key' };
    for (const cwd of [undefined, 'relative', join(ws.repo, 'gone')]) {
      const payload = { tool_name: 'Edit', tool_input, ...(cwd === undefined ? {} : { cwd }) };
      const result = await s.dispatch('PreToolUse', payload);
      expect(result.permission?.decision, String(cwd)).toBe('deny');
    }
    const elsewhere = { tool_name: 'Edit', tool_input, cwd: ws.home };
    expect((await s.dispatch('PreToolUse', elsewhere)).permission).toBeNull();
  });

  it('R1: an edit to the user hooks file is invisible to dispatches until reload, then visible with a new snapshotId', async () => {
    await ws.writeUserHooks({ PreToolUse: group('true', 'Bash') });
    const s = await start();
    const before = s.report.snapshotId;
    expect(s.report).toMatchObject({ handlers: 1, plugins: [], diagnostics: [] });

    await ws.writeUserHooks({ PreToolUse: group(DENY, 'Bash') });
    const stale = await s.dispatch('PreToolUse', BASH);
    expect(stale.permission).toBeNull();
    expect(stale.snapshotId).toBe(before);

    const report = await s.reload();
    expect(report.snapshotId).not.toBe(before);
    expect(report).toMatchObject({ handlers: 1, plugins: [], diagnostics: [] });
    const fresh = await s.dispatch('PreToolUse', BASH);
    expect(fresh.permission).toEqual({ decision: 'deny', reason: 'blocked', interrupt: false });
    expect(fresh.snapshotId).toBe(report.snapshotId);
    expect(s.snapshot.id).toBe(report.snapshotId);
  });

  it('cli.md section 4: a reload waits for the dispatches in flight and applies to those started after it', async () => {
    await ws.writeUserHooks({ PreToolUse: group('sleep 0.4', 'Bash') });
    const s = await start();
    const first = s.report.snapshotId;
    await ws.writeUserHooks({ PreToolUse: group(DENY, 'Bash') });
    const order: string[] = [];
    const inFlight = s.dispatch('PreToolUse', BASH).then((r) => (order.push('dispatch'), r));
    const reload = s.reload().then((r) => (order.push('reload'), r));
    const later = s.dispatch('PreToolUse', BASH);
    const [old, report, fresh] = await Promise.all([inFlight, reload, later]);
    expect(order).toEqual(['dispatch', 'reload']);
    expect(old.snapshotId).toBe(first);
    expect(old.runs).toHaveLength(1);
    expect(fresh.snapshotId).toBe(report.snapshotId);
    expect(fresh.permission?.decision).toBe('deny');
  });

  it('hooks() answers as `hookpm hooks --json` for the current snapshot', async () => {
    await ws.writeUserHooks({ Stop: group('true') });
    const s = await start();
    const listing = await s.hooks();
    expect(listing.snapshotId).toBe(s.report.snapshotId);
    expect(listing.handlers).toEqual([
      expect.objectContaining({
        id: 'Stop:0:0',
        event: 'Stop',
        origin: 'user',
        plugin: null,
        command: 'true',
      }),
    ]);
    expect(listing.diagnostics).toEqual([]);
  });

  it('T5: a session without askTrust loads project hooks only with trustProjectHooks, and says it skipped them', async () => {
    await ws.writeUserHooks({});
    await mkdir(join(ws.repo, '.deepagents'), { recursive: true });
    await writeFile(
      join(ws.repo, '.deepagents', 'hooks.json'),
      JSON.stringify({ hooks: { Stop: group('true') } }),
    );
    const untrusted = await start();
    expect(untrusted.report.handlers).toBe(0);
    expect(untrusted.report.diagnostics.map((d) => d.code)).toContain('project_untrusted');
    await untrusted.close();
    const trusted = await start(true);
    expect(trusted.report.handlers).toBe(1);
  });

  it('R4: when the plugin state cannot be read, start and reload still succeed with the user hooks and say so', async () => {
    await ws.writeUserHooks({ Stop: group('true') });
    const file = stateFile(homeStorePaths(ws.hookpmHome));
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, '{not json');
    const s = await start();
    expect(s.report.handlers).toBe(1);
    expect(s.report.diagnostics.map((d) => d.code)).toContain('plugin_state_unreadable');
    const report = await s.reload();
    expect(report.handlers).toBe(1);
    expect(report.diagnostics.map((d) => d.code)).toContain('plugin_state_unreadable');
  });

  it('rejects an unknown event and a payload that is not an object with E_USAGE, and the session carries on', async () => {
    const s = await start();
    const unknown = await s.dispatch('Nope' as never, {}).catch((e: unknown) => e);
    expect(isHookpmError(unknown, 'E_USAGE')).toBe(true);
    const array = await s.dispatch('Stop', [] as never).catch((e: unknown) => e);
    expect(isHookpmError(array, 'E_USAGE')).toBe(true);
    const count = await s.dispatch('Stop', {}, { continuationCount: -1 }).catch((e: unknown) => e);
    expect(isHookpmError(count, 'E_USAGE')).toBe(true);
    expect((await s.dispatch('Stop', {})).event).toBe('Stop');
  });

  it('B1: an event that is a BigInt, and a payload getter that throws, reject with E_USAGE instead of throwing', async () => {
    const s = await start();
    const bigint = await s.dispatch(10n as never, {}).catch((e: unknown) => e);
    expect(isHookpmError(bigint, 'E_USAGE')).toBe(true);
    const payload = {
      tool_name: 'Bash',
      get session_id(): string {
        throw new Error('no id');
      },
    };
    let threw: unknown = null;
    let dispatched: Promise<unknown> | null = null;
    try {
      dispatched = s.dispatch('PreToolUse', payload);
    } catch (error) {
      threw = error;
    }
    expect(threw).toBeNull();
    const rejected = await dispatched?.catch((e: unknown) => e);
    expect(isHookpmError(rejected, 'E_USAGE')).toBe(true);
    expect((await s.dispatch('Stop', {})).event).toBe('Stop');
  });
  it('B1: a payload whose prototype cannot be read, and options whose signal getter throws, reject with E_USAGE instead of throwing', async () => {
    const s = await start();
    const noPrototype = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('no prototype');
        },
      },
    );
    const badOptions = {
      get signal(): AbortSignal {
        throw new Error('no signal');
      },
    };
    const calls = [
      () => s.dispatch('PreToolUse', noPrototype),
      () => s.dispatch('PreToolUse', BASH, badOptions as never),
    ];
    for (const call of calls) {
      let threw: unknown = null;
      let dispatched: Promise<unknown> | null = null;
      try {
        dispatched = call();
      } catch (error) {
        threw = error;
      }
      expect(threw).toBeNull();
      const rejected = await dispatched?.catch((e: unknown) => e);
      expect(isHookpmError(rejected, 'E_USAGE'), String(rejected)).toBe(true);
    }
    expect((await s.dispatch('Stop', {})).event).toBe('Stop');
  });
});

describe('the library session with a plugin about to run (engine.md B1, B2)', () => {
  beforeAll(() => ensureBuilt());

  it('B1: a payload getter or proxy trap that throws while the plugins are matched rejects with E_USAGE, and the session carries on', async () => {
    const root = await writeClaudePlugin(join(ws.dir, 'guard'), 'guard', {
      PreToolUse: group(`cat >/dev/null; ${DENY}`, 'Bash'),
    });
    const installed = await runBin(['install', root, '--yes'], { env: ws.env, cwd: ws.repo });
    expect(installed.code, installed.stderr).toBe(0);
    const s = await start();
    const getter = {
      tool_name: 'Bash',
      get tool_input(): unknown {
        throw new Error('no input');
      },
    };
    const trap = new Proxy(
      { ...BASH },
      {
        ownKeys() {
          throw new Error('no keys');
        },
      },
    );
    for (const payload of [getter, trap]) {
      const rejected = await s.dispatch('PreToolUse', payload).catch((e: unknown) => e);
      expect(isHookpmError(rejected, 'E_USAGE'), String(rejected)).toBe(true);
    }
    const after = await s.dispatch('PreToolUse', BASH);
    expect(after.permission).toMatchObject({ decision: 'deny', reason: 'blocked' });
  });
  /**
   * A session's dispatch of a Bash PreToolUse to an installed guard whose handler stands for one
   * whose files an uninstall removes as it starts: it removes its plugin's tree, then fails.
   */
  async function dispatchVanishingGuard(): Promise<DispatchResult> {
    const gone = 'rm -rf "${CLAUDE_PLUGIN_ROOT}"; echo "Cannot find module guard.js" >&2; exit 1';
    const root = await writeClaudePlugin(join(ws.dir, 'guard'), 'guard', {
      PreToolUse: group(`cat >/dev/null; ${gone}`, 'Bash'),
    });
    const installed = await runBin(['install', root, '--yes'], { env: ws.env, cwd: ws.repo });
    expect(installed.code, installed.stderr).toBe(0);
    const s = await start();
    return s.dispatch('PreToolUse', BASH);
  }

  it('B2: a guard whose tree goes while its dispatch runs (an uninstall or update meanwhile) and that then fails is a deny naming the fix, not an allow', async () => {
    const result = await dispatchVanishingGuard();
    expect(result.runs).toEqual([expect.objectContaining({ plugin: 'guard@local', exitCode: 1 })]);
    expect(result.permission).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining('hookpm fails closed: plugin guard@local'),
    });
    expect(result.permission?.reason).toContain('`reload` the session');
    expect(result.diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining(['plugin_tampered', 'failed_closed']),
    );
  });
  it('B2: the decision log records the deny of a guard whose tree went while it ran, as returned', async () => {
    const result = await dispatchVanishingGuard();
    expect(result.permission?.decision).toBe('deny');
    const log = join(ws.hookpmHome, 'data', 'log', 'dispatch.jsonl');
    const lines = (await readFile(log, 'utf8')).trim().split('\n');
    const line = JSON.parse(lines.at(-1) ?? '') as { decision: unknown };
    expect(line.decision).toBe('deny');
  });
});

describe('Stop continuation counting (engine.md O3, cli.md section 4)', () => {
  const flagBlock = (flag: string): string =>
    `if [ -f ${flag} ]; then echo 'one more turn' >&2; exit 2; fi`;

  it('O3: without continuationCount the session counts consecutive continuations, caps them at 8, then starts over', async () => {
    const flag = join(ws.dir, 'block');
    await writeFile(flag, '');
    await ws.writeUserHooks({ Stop: group(flagBlock(flag)) });
    const s = await start();
    const loops: boolean[] = [];
    for (let i = 0; i < 9; i += 1) loops.push((await s.dispatch('Stop', {})).continueLoop);
    expect(loops).toEqual([true, true, true, true, true, true, true, true, false]);
    const again = await s.dispatch('Stop', {});
    expect(again.continueLoop).toBe(true);
  });

  it('O3: the ninth consecutive request is ignored with continuation_cap', async () => {
    const flag = join(ws.dir, 'block');
    await writeFile(flag, '');
    await ws.writeUserHooks({ Stop: group(flagBlock(flag)) });
    const s = await start();
    for (let i = 0; i < 8; i += 1) await s.dispatch('Stop', {});
    const capped = await s.dispatch('Stop', {});
    expect(capped.continueLoop).toBe(false);
    expect(capped.diagnostics.map((d) => d.code)).toContain('continuation_cap');
  });

  it('O3: a Stop that ends without continuing resets the count', async () => {
    const flag = join(ws.dir, 'block');
    await writeFile(flag, '');
    await ws.writeUserHooks({ Stop: group(flagBlock(flag)) });
    const s = await start();
    for (let i = 0; i < 5; i += 1) expect((await s.dispatch('Stop', {})).continueLoop).toBe(true);
    await rm(flag);
    expect((await s.dispatch('Stop', {})).continueLoop).toBe(false);
    await writeFile(flag, '');
    const loops: boolean[] = [];
    for (let i = 0; i < 9; i += 1) loops.push((await s.dispatch('Stop', {})).continueLoop);
    expect(loops.filter(Boolean)).toHaveLength(8);
    expect(loops[8]).toBe(false);
  });

  it('O3: an explicit continuationCount is used as given, and the count carries on from it', async () => {
    const flag = join(ws.dir, 'block');
    await writeFile(flag, '');
    await ws.writeUserHooks({ Stop: group(flagBlock(flag)) });
    const s = await start();
    const atCap = await s.dispatch('Stop', {}, { continuationCount: 8 });
    expect(atCap.continueLoop).toBe(false);
    const seven = await s.dispatch('Stop', {}, { continuationCount: 7 });
    expect(seven.continueLoop).toBe(true);
    const counted = await s.dispatch('Stop', {});
    expect(counted.continueLoop).toBe(false);
    expect(counted.diagnostics.map((d) => d.code)).toContain('continuation_cap');
  });
});

describe('close (cli.md section 4, security.md "The runtime")', () => {
  it("X4: close kills a running handler's process group promptly and resolves once its dispatch settled", async () => {
    const pidFile = join(ws.dir, 'pid');
    await ws.writeUserHooks({ PreToolUse: sleeperGroup(pidFile, 'Bash') });
    const s = await start();
    const running = s.dispatch('PreToolUse', BASH);
    const pid = await waitForPid(pidFile);
    expect(isAlive(pid)).toBe(true);
    const started = Date.now();
    await s.close();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(isAlive(pid)).toBe(false);
    const result = await running;
    expect(result.runs[0]).toMatchObject({
      handler: 'PreToolUse:0:0',
      exitCode: null,
      timedOut: false,
    });
    const after = await s.dispatch('Stop', {}).catch((e: unknown) => e);
    expect(isHookpmError(after, 'E_SESSION_CLOSED')).toBe(true);
    expect(isHookpmError(await s.reload().catch((e: unknown) => e), 'E_SESSION_CLOSED')).toBe(true);
  });

  it("B8: a dispatch's own signal stops that dispatch only: its guard fails closed naming the caller's signal, the session goes on", async () => {
    const pidFile = join(ws.dir, 'pid');
    await ws.writeUserHooks({ PreToolUse: sleeperGroup(pidFile, 'Bash') });
    const s = await start();
    const controller = new AbortController();
    const running = s.dispatch('PreToolUse', BASH, { signal: controller.signal });
    const pid = await waitForPid(pidFile);
    controller.abort();
    const result = await running;
    expect(isAlive(pid)).toBe(false);
    expect(result.permission?.decision).toBe('deny');
    expect(result.permission?.reason).toContain(
      "as its dispatch was stopped by its caller's signal",
    );
    await rm(pidFile);
    const next = s.dispatch('PreToolUse', BASH);
    const again = await waitForPid(pidFile);
    expect(again).not.toBe(pid);
    await s.close();
    expect((await next).permission?.reason).toContain('(the session shut down)');
  });
});
