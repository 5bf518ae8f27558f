import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import {
  appendFile,
  cp,
  mkdir,
  readdir,
  rename,
  rm,
  symlink,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { claudeBashPayload, claudePayload } from '../helpers/claude-payload.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { installedTree } from '../helpers/installed-tree.js';
import { FORCE_PUSH, GUARD, GUARD_REASON } from '../helpers/linked-agent.js';
import { startRpcSession, type RpcSession } from '../helpers/rpc-session.js';
import { useBubblewrap } from '../helpers/bubblewrap.js';

// docs/reference/rules/engine.md#fail-closed through the command `hookpm link claude` writes
// (`hookpm wire claude`, payload on stdin), and through `hookpm run` and `hookpm session`.

// guard declares capabilities: its handlers run under bubblewrap.
useBubblewrap();

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ws = useBinWorkspace('e2e-fail-closed');
let session: RpcSession | null = null;

afterEach(async () => {
  if (session === null) return;
  session.proc.stdin.end();
  await session.exited;
  session = null;
});

async function ok(args: string[]): Promise<string> {
  const run = await ws.hookpm(args);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

const stateFile = () => join(ws.home, 'hookpm', 'data', 'state.json');
const sessionsDir = () => join(ws.home, 'hookpm', 'data', 'sessions');

const payload = (event: string, session: string, extra: Record<string, unknown> = {}) =>
  claudePayload(ws, event, session, extra);
const bash = (session: string, command: string) => claudeBashPayload(ws, session, command);

async function wire(body: string | Buffer) {
  const run = await ws.hookpm(['wire', 'claude'], { stdin: body });
  return {
    code: run.code,
    stderr: run.stderr,
    out: run.stdout === '' ? null : (JSON.parse(run.stdout) as Record<string, any>),
  };
}

const decision = (out: Record<string, any> | null) => out?.hookSpecificOutput?.permissionDecision;
const reason = (out: Record<string, any> | null): string =>
  out?.hookSpecificOutput?.permissionDecisionReason ?? '';

async function tamperGuard(): Promise<void> {
  await appendFile(join(installedTree(ws.home, 'guard'), 'scripts', 'guard.mjs'), '\n// changed\n');
}

/** A plugin that hooks every event this test looks at, and says so. */
async function everyEventPlugin(): Promise<string> {
  const say = { type: 'command', command: 'true' };
  const hooks = Object.fromEntries(
    ['PreToolUse', 'UserPromptSubmit', 'Stop', 'PostToolUse', 'Notification'].map((e) => [
      e,
      [{ hooks: [say] }],
    ]),
  );
  return writeClaudePlugin(join(ws.dir, `plugins${ws.n}`, 'every'), 'every', hooks);
}

describe('fail closed through `hookpm wire claude` (engine.md B1-B6)', () => {
  it('B3: a truncated state.json denies a Bash call with a reason naming hookpm, the file and `hookpm doctor`; no pin is stored', async () => {
    await ok(['install', GUARD, '--yes']);
    const good = readFileSync(stateFile(), 'utf8');
    await writeFile(stateFile(), good.slice(0, 120));
    const run = await wire(bash('trunc', 'ls'));
    expect(run.code).toBe(0);
    expect(decision(run.out)).toBe('deny');
    expect(reason(run.out)).toMatch(/^hookpm fails closed: it cannot read its plugin state/);
    expect(reason(run.out)).toContain(stateFile());
    expect(reason(run.out)).toContain('hookpm doctor');
    expect(existsSync(sessionsDir()) ? readdirSync(sessionsDir()) : []).toEqual([]);
  });

  it('B2, B3: a state written by a newer hookpm denies; UserPromptSubmit is blocked, Stop continues once, Notification gets a systemMessage', async () => {
    await ok(['install', GUARD, '--yes']);
    const state = JSON.parse(readFileSync(stateFile(), 'utf8'));
    await writeFile(stateFile(), JSON.stringify({ ...state, version: 2 }));
    const denied = await wire(bash('newer', FORCE_PUSH));
    expect(decision(denied.out)).toBe('deny');
    expect(reason(denied.out)).toContain('has version 2, newer than');
    const prompt = await wire(payload('UserPromptSubmit', 'newer', { prompt: 'hi' }));
    expect(prompt.out).toMatchObject({ decision: 'block' });
    expect(prompt.out?.reason).toMatch(/^hookpm fails closed/);
    const stop = await wire(payload('Stop', 'newer', { stop_hook_active: false }));
    expect(stop.out).toMatchObject({ decision: 'block' });
    expect(stop.out?.reason).toMatch(/^hookpm fails closed/);
    // A Stop already continued by a hook is not blocked again: no endless turn.
    const again = await wire(payload('Stop', 'newer', { stop_hook_active: true }));
    expect(again.out?.decision).toBeUndefined();
    expect(again.out?.systemMessage).toMatch(/^hookpm fails closed/);
    const note = await wire(payload('Notification', 'newer', { notification_type: 'idle_prompt' }));
    expect(note.out).toEqual({ systemMessage: expect.stringMatching(/^hookpm fails closed/) });
  });

  it('B4: a pin made while the state could not be read is not kept; once it is repaired, guard runs at the next event', async () => {
    await ok(['install', GUARD, '--yes']);
    const good = readFileSync(stateFile(), 'utf8');
    await writeFile(stateFile(), good.slice(0, 50));
    await wire(payload('SessionStart', 'broken', { source: 'startup' }));
    expect(decision((await wire(bash('broken', 'ls'))).out)).toBe('deny');
    await writeFile(stateFile(), good);
    expect((await wire(bash('broken', 'ls'))).out).toBeNull();
    const guarded = await wire(bash('broken', FORCE_PUSH));
    expect(reason(guarded.out).startsWith(GUARD_REASON)).toBe(true);
  });

  it('B4: a pin an older hookpm made from an unreadable state (no plugins, plugin_state_unreadable) is made afresh', async () => {
    await ok(['install', GUARD, '--yes']);
    await wire(payload('SessionStart', 'old', { source: 'startup' }));
    const [file] = readdirSync(sessionsDir());
    const pin = JSON.parse(readFileSync(join(sessionsDir(), file!), 'utf8'));
    const unreadable = { code: 'plugin_state_unreadable', severity: 'warning', message: 'x' };
    await writeFile(
      join(sessionsDir(), file!),
      JSON.stringify({ ...pin, plugins: [], sources: [], diagnostics: [unreadable] }),
    );
    expect(decision((await wire(bash('old', FORCE_PUSH))).out)).toBe('deny');
  });

  it('B2, Q6: a tampered guard denies every Bash call when the first event of the session is not SessionStart', async () => {
    await ok(['install', GUARD, '--yes']);
    await tamperGuard();
    const run = await wire(bash('late', 'ls'));
    expect(run.code).toBe(0);
    expect(decision(run.out)).toBe('deny');
    expect(reason(run.out)).toMatch(
      /^hookpm fails closed: plugin guard@local 1\.3\.0 cannot run as consented \(its installed files were changed after install\); run `hookpm install --force .*guard` to restore it, or `hookpm disable guard@local` to stop using it$/,
    );
    expect(run.stderr).toContain('failed_closed');
    // Restored, the next event of the same session runs the real guard.
    await ok(['install', '--force', GUARD, '--yes']);
    expect((await wire(bash('late', 'ls'))).out).toBeNull();
    expect(decision((await wire(bash('late', FORCE_PUSH))).out)).toBe('deny');
  });

  it('B2, Q6: the fix a deny, `list` and `doctor` name quotes a 200 KB source by its first 200 characters, for the shell', async () => {
    await ok(['install', GUARD, '--yes']);
    await tamperGuard();
    const source = `/src/it's ${'x'.repeat(200_000)}`;
    const state = JSON.parse(readFileSync(stateFile(), 'utf8'));
    state.plugins['guard@local'].source = source;
    await writeFile(stateFile(), JSON.stringify(state));
    const fix = `hookpm install --force '/src/it'\\''s ${'x'.repeat(190)}...'`;
    const denied = reason((await wire(bash('long', 'ls'))).out);
    expect(denied).toContain(`run \`${fix}\` to restore it`);
    expect(denied.length).toBeLessThan(1_000);
    const list = await ok(['list']);
    expect(list).toContain(`run \`${fix}\` to restore it`);
    expect(list.length).toBeLessThan(2_000);
    const doctor = await ws.hookpm(['doctor']);
    expect(doctor.stdout).toContain(fix);
    expect(doctor.stdout.length).toBeLessThan(10_000);
  });

  it('B2, Q6: a guard tampered after SessionStart pinned it denies where its handlers match, and only there', async () => {
    await ok(['install', GUARD, '--yes']);
    await wire(payload('SessionStart', 'pinned', { source: 'startup' }));
    await tamperGuard();
    expect(decision((await wire(bash('pinned', 'ls'))).out)).toBe('deny');
    const read = payload('PreToolUse', 'pinned', { tool_name: 'Read', tool_input: {} });
    expect((await wire(read)).out).toBeNull();
  });

  it('B4: a guard tampered after SessionStart pinned it: once restored as its deny says, the next event of the session runs the real guard', async () => {
    await ok(['install', GUARD, '--yes']);
    await wire(payload('SessionStart', 'mended', { source: 'startup' }));
    await tamperGuard();
    expect(reason((await wire(bash('mended', 'ls'))).out)).toMatch(
      /^hookpm fails closed: plugin guard@local .*run `hookpm install --force /,
    );
    await ok(['install', '--force', GUARD, '--yes']);
    const allowed = await wire(bash('mended', 'ls'));
    expect(allowed.out).toBeNull();
    expect(allowed.stderr).not.toContain('failed_closed');
    const guarded = await wire(bash('mended', FORCE_PUSH));
    expect(reason(guarded.out).startsWith(GUARD_REASON)).toBe(true);
  });

  it('B2, Q6: a tree, or the directory holding it, made a symbolic link to an identical copy denies as tampered; restored, guard runs', async () => {
    await ok(['install', GUARD, '--yes']);
    const tree = installedTree(ws.home, 'guard');
    const copy = join(ws.dir, `copy${ws.n}`);
    await cp(tree, copy, { recursive: true, preserveTimestamps: true });
    await rm(tree, { recursive: true });
    await symlink(copy, tree);
    const tampered = `plugin guard@local 1.3.0 cannot run as consented (its installed files were changed after install); run \`hookpm install --force ${GUARD}\``;
    const first = await wire(bash('linked', 'ls'));
    expect(decision(first.out)).toBe('deny');
    expect(reason(first.out)).toContain(tampered);
    expect((await ok(['list', '--verify'])).split('\n')[1]).toMatch(/tampered/);
    await rm(tree);
    await rename(copy, tree);
    expect((await wire(bash('real', 'ls'))).out).toBeNull();
    // `<plugins>/<id>`, holding the version directory, moved out of the store behind a link.
    const versions = dirname(tree);
    const outside = join(ws.dir, `outside${ws.n}`);
    await rename(versions, outside);
    await symlink(outside, versions);
    const held = await wire(bash('held', 'ls'));
    expect(decision(held.out)).toBe('deny');
    expect(reason(held.out)).toContain(tampered);
  });

  it('B2: a missing installed tree fails closed on every event the plugin was consented for; others get a systemMessage', async () => {
    await ok(['install', await everyEventPlugin(), '--yes']);
    await rm(installedTree(ws.home, 'every'), { recursive: true });
    const denied = await wire(bash('gone', 'ls'));
    expect(reason(denied.out)).toContain('its installed tree is missing or unreadable');
    const post = await wire(
      payload('PostToolUse', 'gone', { tool_name: 'Bash', tool_input: {}, tool_response: {} }),
    );
    expect(post.out?.systemMessage).toMatch(/^hookpm fails closed: plugin every@local/);
    const start = await wire(payload('SessionStart', 'gone', { source: 'startup' }));
    expect(start.out).toBeNull();
  });

  it("B2, Q6: a plugin whose tree is still being checked at the handlers' deadline denies; given the time, the file it created keeps it running, unread", async () => {
    await ok(['install', await everyEventPlugin(), '--yes']);
    await wire(payload('SessionStart', 'slow', { source: 'startup' }));
    // 4 GiB, sparse: hashing it would take seconds (12 s here); a created file is never read.
    const created = join(installedTree(ws.home, 'every'), 'cache.bin');
    await writeFile(created, '');
    await truncate(created, 4 * 1024 ** 3);
    const late = await ws.hookpm(['wire', 'claude', '--deadline', '0.001'], {
      stdin: bash('slow', 'ls'),
    });
    const out = late.stdout === '' ? null : (JSON.parse(late.stdout) as Record<string, any>);
    expect(decision(out)).toBe('deny');
    expect(reason(out)).toMatch(
      /^hookpm fails closed: plugin every@local 1\.0\.0 cannot run as consented \(its installed files could not be checked before the agent's deadline/,
    );
    expect(reason(out)).toContain('hookpm install --force');
    expect(late.stderr).toContain('failed_closed');
    const started = Date.now();
    expect((await wire(bash('slow', 'ls'))).out).toBeNull();
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it("B7: a hookpm whose own handler runner is damaged denies a guarded Bash call, naming hookpm's error and the fix, instead of exit 1", async () => {
    await ok(['install', GUARD, '--yes']);
    // A copy of the built hookpm with the chunk that runs handlers damaged (a partial upgrade).
    const copy = join(ws.dir, `hookpm-copy${ws.n}`);
    for (const part of ['bin', 'dist', 'package.json'])
      await cp(join(ROOT, part), join(copy, part), { recursive: true, preserveTimestamps: true });
    const bundle = join(copy, 'dist', 'bundle');
    const runner = (await readdir(bundle)).find((name) => name.startsWith('wire-run-'))!;
    await writeFile(join(bundle, runner), 'this is not JavaScript {');
    const wireCopy = (body: string) =>
      spawnSync(process.execPath, [join(copy, 'bin', 'hookpm.js'), 'wire', 'claude'], {
        input: body,
        env: ws.env(),
        encoding: 'utf8',
      });
    const denied = wireCopy(bash('crash', FORCE_PUSH));
    expect(denied.status, denied.stderr).toBe(0);
    const out = JSON.parse(denied.stdout) as Record<string, any>;
    expect(decision(out)).toBe('deny');
    expect(reason(out)).toMatch(
      /^hookpm fails closed: hookpm itself failed while answering this event \(.+\), so no plugin's guard could decide; run `hookpm doctor`, and reinstall hookpm if one of its own files is damaged$/,
    );
    // An event no handler matches never loads the runner: answered as always.
    const read = payload('PreToolUse', 'crash', { tool_name: 'Read', tool_input: {} });
    expect(wireCopy(read)).toMatchObject({ status: 0, stdout: '' });
  });

  it('B7: a hookpm whose `wire` bundle is missing or damaged answers from the full CLI: the guard decides, instead of exit 1', async () => {
    await ok(['install', GUARD, '--yes']);
    // A copy of the built hookpm without the chunk every linked event loads (a partial upgrade).
    const copy = join(ws.dir, `hookpm-copy${ws.n}`);
    for (const part of ['bin', 'dist', 'package.json'])
      await cp(join(ROOT, part), join(copy, part), { recursive: true, preserveTimestamps: true });
    // Installed beside it, as npm installs its dependencies: what the compiled modules import.
    await symlink(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const bundle = join(copy, 'dist', 'bundle');
    const chunk = async (prefix: string) =>
      join(
        bundle,
        (await readdir(bundle)).find((name) => name.startsWith(prefix))!,
      );
    const core = await chunk('wire-core-');
    // The chunk the CLI's entry requires first: the compiled modules of dist/ then answer.
    const runtime = await chunk('rolldown-runtime-');
    const wireCopy = (body: string) =>
      spawnSync(process.execPath, [join(copy, 'bin', 'hookpm.js'), 'wire', 'claude'], {
        input: body,
        env: ws.env(),
        encoding: 'utf8',
      });
    for (const damage of [
      () => rm(core),
      () => writeFile(core, '{'),
      () => rm(runtime),
      () => writeFile(join(bundle, 'entry.cjs'), '{'),
    ]) {
      await damage();
      const denied = wireCopy(bash('core', FORCE_PUSH));
      expect(denied.status, denied.stderr).toBe(0);
      const out = JSON.parse(denied.stdout) as Record<string, any>;
      expect(decision(out)).toBe('deny');
      expect(reason(out).startsWith(GUARD_REASON)).toBe(true);
    }
    // A payload that tells no event is reported as any other error.
    expect(wireCopy('not json')).toMatchObject({ status: 1, stdout: '' });
    // Neither the bundle nor the compiled modules load: bin/hookpm.js answers by itself, as the
    // link's shell does when hookpm is gone (B9): a blocking event is exit 2 with the reason.
    await rm(join(copy, 'dist', 'cli', 'start', 'entry.js'));
    const last = wireCopy(bash('core', FORCE_PUSH));
    expect(last.status).toBe(2);
    expect(last.stdout).toBe('');
    expect(last.stderr).toMatch(/^hookpm fails closed: hookpm's own files cannot be loaded \(/);
    expect(last.stderr).toContain('reinstall hookpm');
    const note = payload('Notification', 'core', { notification_type: 'idle_prompt' });
    expect(wireCopy(note)).toMatchObject({ status: 1, stdout: '' });
    const version = spawnSync(process.execPath, [join(copy, 'bin', 'hookpm.js'), '--version']);
    expect(version.status).toBe(1);
  });

  it('B6: settings.json failOpen naming the plugin lets the call through with a systemMessage instead', async () => {
    await ok(['install', GUARD, '--yes']);
    await tamperGuard();
    await mkdir(join(ws.home, 'hookpm', 'config'), { recursive: true });
    await writeFile(
      join(ws.home, 'hookpm', 'config', 'settings.json'),
      JSON.stringify({ failOpen: ['guard@local'] }),
    );
    const run = await wire(bash('open', FORCE_PUSH));
    expect(decision(run.out)).toBeUndefined();
    expect(run.out?.systemMessage).toMatch(/^hookpm fails closed: plugin guard@local/);
    await writeFile(
      join(ws.home, 'hookpm', 'config', 'settings.json'),
      JSON.stringify({ failOpen: 'yes' }),
    );
    expect(decision((await wire(bash('open', FORCE_PUSH))).out)).toBe('deny');
  });

  it('B5: a payload nested 5,000 deep is refused clearly: a deny on PreToolUse, exit 1 on Notification, never E_INTERNAL', async () => {
    await ok(['install', GUARD, '--yes']);
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const body = bash('deep', FORCE_PUSH).replace('"tool_use_id"', `"x":${deep},"tool_use_id"`);
    const run = await wire(body);
    expect(run.code).toBe(0);
    expect(decision(run.out)).toBe('deny');
    expect(reason(run.out)).toBe(
      "hookpm refused the PreToolUse payload: it is nested deeper than 512 levels, so no handler ran; send it with its values (a tool's input) nested less deeply",
    );
    expect(run.stderr).not.toContain('E_INTERNAL');
    const note = payload('Notification', 'deep', { notification_type: 'idle_prompt' });
    const other = await wire(
      note.replace('"notification_type"', `"x":${deep},"notification_type"`),
    );
    expect(other.code).toBe(1);
    expect(other.out).toBeNull();
    expect(other.stderr).toContain('nested deeper than 512 levels');
    // 512 levels are accepted: the payload, then 511 objects inside it.
    const fits = '{"a":'.repeat(511) + '1' + '}'.repeat(511);
    const ok512 = await wire(
      bash('deep', 'ls').replace('"tool_use_id"', `"x":${fits},"tool_use_id"`),
    );
    expect(ok512.out).toBeNull();
  });

  it('B5, B2: a refused Stop payload is continued once, never while stop_hook_active (no endless turn)', async () => {
    const deep = '{"a":'.repeat(600) + '1' + '}'.repeat(600);
    const deepStop = (active: boolean) =>
      payload('Stop', 'deep-stop', { stop_hook_active: active, x: 0 }).replace(
        '"x":0',
        `"x":${deep}`,
      );
    const first = await wire(deepStop(false));
    expect(first.out).toMatchObject({ decision: 'block' });
    expect(first.out?.reason).toContain('nested deeper than 512 levels');
    const again = await wire(deepStop(true));
    expect(again.out?.decision).toBeUndefined();
    expect(again.out?.systemMessage).toContain('nested deeper than 512 levels');
  });

  it('B5: a payload that is not UTF-8 is refused, never read with replacement characters: a deny on PreToolUse, exit 1 on Notification', async () => {
    await ok(['install', GUARD, '--yes']);
    // guard denies a force push; the command's one byte that is not UTF-8 must not let it through.
    const withByte = (body: string) => {
      const at = body.indexOf('"hook_event_name"');
      return Buffer.concat([
        Buffer.from(body.slice(0, at)),
        Buffer.from('"x":"\xff",', 'latin1'),
        Buffer.from(body.slice(at)),
      ]);
    };
    const run = await wire(withByte(bash('bytes', 'ls')));
    expect(run.code).toBe(0);
    expect(decision(run.out)).toBe('deny');
    expect(reason(run.out)).toBe(
      'hookpm refused the PreToolUse payload: it is not valid UTF-8, so no handler ran; send its text (a command, a path, a prompt) as UTF-8',
    );
    expect(run.stderr).toContain('payload_not_utf8');
    const note = payload('Notification', 'bytes', { notification_type: 'idle_prompt' });
    const other = await wire(withByte(note));
    expect(other.code).toBe(1);
    expect(other.out).toBeNull();
    expect(other.stderr).toContain('is not valid UTF-8, so no handler ran');
    // The same payload in UTF-8 (U+00FF) runs guard, which lets `ls` through.
    const fine = await wire(
      bash('bytes', 'ls').replace('"hook_event_name"', '"x":"\u00ff","hook_event_name"'),
    );
    expect(fine.code).toBe(0);
    expect(fine.out).toBeNull();
  });
});

describe('a relative HOOKPM_HOME (registry.md D1)', () => {
  it('D1, B7: is refused, never a store in the working directory: a deny on PreToolUse under `wire`, E_CONFIG for a command', async () => {
    await ok(['install', GUARD, '--yes']);
    const env = ws.env({ HOOKPM_HOME: 'store' });
    const run = await ws.hookpm(['wire', 'claude'], { stdin: bash('rel', 'ls'), env });
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as Record<string, any>;
    expect(decision(out)).toBe('deny');
    expect(reason(out)).toMatch(
      /^hookpm fails closed: HOOKPM_HOME is a relative path \("store"\); it must be an absolute path, so no plugin's guard could decide; set HOOKPM_HOME to an absolute path/,
    );
    const note = payload('Notification', 'rel', { notification_type: 'idle_prompt' });
    const told = await ws.hookpm(['wire', 'claude'], { stdin: note, env });
    expect(told.code).toBe(0);
    expect(JSON.parse(told.stdout).systemMessage).toContain('HOOKPM_HOME is a relative path');
    const list = await ws.hookpm(['list'], { env });
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('error[E_CONFIG]: HOOKPM_HOME is a relative path ("store")');
    // `--home` on the command line is a path like any other: relative to the working directory.
    const flag = await ws.hookpm(['--home', join('..', `home${ws.n}`, 'hookpm'), 'list'], { env });
    expect(flag.stdout).toContain('guard');
    expect(existsSync(join(ws.repo, 'store'))).toBe(false);
  });
});

describe('fail closed in `hookpm run`, `hookpm session` and `hookpm doctor`', () => {
  it('B2: `hookpm run PreToolUse` with a tampered guard answers a deny naming the plugin', async () => {
    await ok(['install', GUARD, '--yes']);
    await tamperGuard();
    const body = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } });
    const run = await ws.hookpm(['run', 'PreToolUse', '--payload', body, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.permission).toMatchObject({ decision: 'deny' });
    expect(result.permission.reason).toMatch(/^hookpm fails closed: plugin guard@local/);
    expect(result.diagnostics.map((d: { code: string }) => d.code)).toContain('failed_closed');
  });

  it('B3, B5: `hookpm run` with a truncated state denies; a deep --payload is E_USAGE naming the limit', async () => {
    await ok(['install', GUARD, '--yes']);
    await writeFile(stateFile(), readFileSync(stateFile(), 'utf8').slice(0, 80));
    const body = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } });
    const run = await ws.hookpm(['run', 'PreToolUse', '--payload', body, '--json']);
    expect(JSON.parse(run.stdout).permission.reason).toContain(stateFile());
    const deep = `{"x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const refused = await ws.hookpm(['run', 'PreToolUse', '--payload', deep]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('E_USAGE');
    expect(refused.stderr).toContain('nesting deeper than 512 levels');
  });

  it('B2: `hookpm session` with a tampered guard denies PreToolUse over JSON-RPC', async () => {
    await ok(['install', GUARD, '--yes']);
    await tamperGuard();
    session = startRpcSession(ws.repo, ws.env());
    await session.waitFor((m) => m.method === 'ready');
    const reply = await session.call('dispatch', {
      event: 'PreToolUse',
      payload: { tool_name: 'Bash', tool_input: { command: 'ls' } },
    });
    const result = reply.result as { permission: { decision: string; reason: string } };
    expect(result.permission.decision).toBe('deny');
    expect(result.permission.reason).toMatch(/^hookpm fails closed: plugin guard@local/);
  });

  it('B6: `hookpm doctor` lists the tampered guard as failing closed, and the unreadable state', async () => {
    await ok(['install', GUARD, '--yes']);
    const healthy = JSON.parse((await ws.hookpm(['doctor', '--json'])).stdout);
    expect(healthy.checks).toContainEqual(
      expect.objectContaining({ name: 'fail-closed', status: 'ok' }),
    );
    await tamperGuard();
    const report = JSON.parse((await ws.hookpm(['doctor', '--json'])).stdout);
    expect(report.checks).toContainEqual(
      expect.objectContaining({
        name: 'fail-closed:guard@local',
        status: 'error',
        code: 'failed_closed',
        message: expect.stringContaining('PreToolUse denied'),
      }),
    );
    await writeFile(stateFile(), '{');
    const broken = JSON.parse((await ws.hookpm(['doctor', '--json'])).stdout);
    expect(broken.checks).toContainEqual(
      expect.objectContaining({ name: 'fail-closed', status: 'error', code: 'failed_closed' }),
    );
  });
});
