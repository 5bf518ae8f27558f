/**
 * The administrator's policy (docs/reference/rules/policy.md) end to end with the built binary:
 * each rule in install, registry add, enable, disable, uninstall, run, session and wire, `hookpm
 * policy` and `doctor`.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/built-bin.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { claudeBashPayload, claudePayload } from '../helpers/claude-payload.js';
import { useBubblewrap } from '../helpers/bubblewrap.js';
import { stateFileHash } from '../helpers/store-snapshot.js';

const FIXTURES = fileURLToPath(new URL('../../registry-fixtures', import.meta.url));
const GUARD_DIR = join(FIXTURES, 'plugins', 'guard');
const FORCE_PUSH = 'git push --force origin main';

// guard declares capabilities: its handlers run under bubblewrap.
useBubblewrap();

const ws = useBinWorkspace('e2e-policy');

/** Writes the policy file of this test and returns the environment naming it (A10). */
async function withPolicy(policy: unknown): Promise<Record<string, string>> {
  const file = join(ws.dir, `policy-${ws.n}.json`);
  await writeFile(file, typeof policy === 'string' ? policy : JSON.stringify(policy));
  return ws.env({ HOOKPM_POLICY_FILE: file });
}

async function hookpm(args: string[], env = ws.env(), stdin?: string) {
  return ws.hookpm(args, { env, ...(stdin === undefined ? {} : { stdin }) });
}

async function ok(args: string[], env = ws.env()): Promise<string> {
  const run = await hookpm(args, env);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

function expectPolicyError(
  run: { code: number | null; stderr: string },
  rule: string,
  file: string,
) {
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('E_POLICY');
  expect(run.stderr).toContain(rule);
  expect(run.stderr).toContain(file);
}

const payload = (event: string, session: string, extra: Record<string, unknown> = {}) =>
  claudePayload(ws, event, session, extra);
const bash = (session: string, command: string) => claudeBashPayload(ws, session, command);

async function wire(body: string, env: Record<string, string>) {
  const run = await hookpm(['wire', 'claude'], env, body);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout === '' ? null : (JSON.parse(run.stdout) as Record<string, any>);
}

describe('the policy file and `hookpm policy` (A10, A11, A17)', () => {
  it('A10: `hookpm policy` shows the policy HOOKPM_POLICY_FILE names, and says when there is none', async () => {
    const env = await withPolicy({ plugins: { deny: ['format-on-write'] } });
    const shown = JSON.parse(await ok(['policy', '--json'], env)) as Record<string, unknown>;
    expect(shown).toMatchObject({
      status: 'ok',
      from: 'env',
      file: env['HOOKPM_POLICY_FILE'],
      policy: { plugins: { deny: ['format-on-write'] } },
    });
    const absent = await ok(['policy'], ws.env({ HOOKPM_POLICY_FILE: join(ws.dir, 'none.json') }));
    expect(absent).toContain('no policy');
  });

  it('A11: a policy file that cannot be parsed: `policy` and `doctor` fail naming the file, installs are refused', async () => {
    const env = await withPolicy('{"plugins": {"deny": ["x",]}}');
    const file = env['HOOKPM_POLICY_FILE']!;
    const shown = await hookpm(['policy'], env);
    expect(shown.code).toBe(1);
    expect(shown.stdout).toContain(file);
    expect(shown.stdout).toContain('invalid JSON');
    const doctor = await hookpm(['doctor', '--json'], env);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain('policy_invalid');
    const install = await hookpm(['install', GUARD_DIR, '--yes'], env);
    expectPolicyError(install, 'cannot be used', file);
    expect(stateFileHash(ws.home)).toBe('none');
  });

  it('A11: a policy file, or its folder, that is a symbolic link to nothing fails closed: `policy` says so, `wire` denies', async () => {
    await ok(['install', GUARD_DIR, '--yes']);
    const file = join(ws.dir, `policy-${ws.n}.json`);
    await symlink(join(ws.dir, `gone-${ws.n}`), file);
    const folder = join(ws.dir, `policy-folder-${ws.n}`);
    await symlink(join(ws.dir, `gone-folder-${ws.n}`), folder);
    for (const named of [file, join(folder, 'policy.json')]) {
      const env = ws.env({ HOOKPM_POLICY_FILE: named });
      const shown = await hookpm(['policy'], env);
      expect(shown.code).toBe(1);
      expect(shown.stdout).toContain('a symbolic link to nothing');
      const answer = await wire(bash(`p-link-${ws.n}`, 'ls -la'), env);
      expect(answer?.hookSpecificOutput.permissionDecision).toBe('deny');
      expect(answer?.hookSpecificOutput.permissionDecisionReason).toContain(named);
    }
  });

  it('A11: an unknown key makes the policy unusable (it is never half obeyed)', async () => {
    const env = await withPolicy({ plugins: { block: ['guard'] } });
    const shown = await hookpm(['policy'], env);
    expect(shown.code).toBe(1);
    expect(shown.stdout).toContain('unknown key "plugins.block"');
  });
});

describe('install, registry add, enable (A12, A13, A16)', () => {
  it('A13: install of a denied plugin (by name, and by name@registry with *) is E_POLICY naming the rule and the file; nothing is written', async () => {
    const env = await withPolicy({ plugins: { deny: ['*@untrusted', 'guard'] } });
    const run = await hookpm(['install', 'guard@examples', '--yes'], env);
    expectPolicyError(run, 'plugins.deny entry "guard"', env['HOOKPM_POLICY_FILE']!);
    expect(stateFileHash(ws.home)).toBe('none');
    // A local directory is judged by its real id at commit (guard@local).
    const local = await hookpm(['install', GUARD_DIR, '--yes'], env);
    expectPolicyError(local, 'plugins.deny', env['HOOKPM_POLICY_FILE']!);
    expect(stateFileHash(ws.home)).toBe('none');
  });

  it('A12, A13: `install --link` of a plugin the policy refuses is E_POLICY naming the rule and the file; nothing is written', async () => {
    const denied = await withPolicy({ plugins: { deny: ['guard'] } });
    const link = await hookpm(['install', '--link', GUARD_DIR, '--yes'], denied);
    expectPolicyError(link, 'plugins.deny entry "guard"', denied['HOOKPM_POLICY_FILE']!);
    const registries = await withPolicy({ registries: { allow: ['examples'] } });
    const local = await hookpm(['install', '--link', GUARD_DIR, '--yes'], registries);
    expectPolicyError(local, 'registries.allow', registries['HOOKPM_POLICY_FILE']!);
    expect(stateFileHash(ws.home)).toBe('none');
  });

  it('A13: with plugins.allow only the plugins it names install', async () => {
    const env = await withPolicy({ plugins: { allow: ['guard@examples'] } });
    await ok(['install', 'guard@examples', '--yes'], env);
    const other = await hookpm(['install', 'format-on-write@examples', '--yes'], env);
    expectPolicyError(other, 'plugins.allow (no entry matches)', env['HOOKPM_POLICY_FILE']!);
  });

  it('A12: registries.allow refuses an install from a registry it does not name, and `registry add` of one', async () => {
    const env = await withPolicy({ registries: { allow: ['https://plugins.acme.example/*'] } });
    const before = stateFileHash(ws.home);
    const install = await hookpm(['install', 'guard@examples', '--yes'], env);
    expectPolicyError(install, 'registries.allow', env['HOOKPM_POLICY_FILE']!);
    const local = await hookpm(['install', GUARD_DIR, '--yes'], env);
    expectPolicyError(local, 'registries.allow', env['HOOKPM_POLICY_FILE']!);
    const add = await hookpm(['registry', 'add', 'mine', FIXTURES], env);
    expectPolicyError(add, 'registries.allow', env['HOOKPM_POLICY_FILE']!);
    expect(stateFileHash(ws.home)).toBe(before);
    // A location pattern lets it be added.
    const allowed = await withPolicy({ registries: { allow: [`${FIXTURES}*`] } });
    await ok(['registry', 'add', 'mine', FIXTURES], allowed);
  });

  it('A13: enable of a plugin the policy came to deny after install is E_POLICY, the plugin stays disabled', async () => {
    await ok(['install', GUARD_DIR, '--yes']);
    await ok(['disable', 'guard']);
    const env = await withPolicy({ plugins: { deny: ['guard@local'] } });
    const before = stateFileHash(ws.home);
    const run = await hookpm(['enable', 'guard', '--yes'], env);
    expectPolicyError(run, 'plugins.deny entry "guard@local"', env['HOOKPM_POLICY_FILE']!);
    expect(stateFileHash(ws.home)).toBe(before);
  });
});

describe('disable and uninstall (A14)', () => {
  it('A14: a required plugin cannot be disabled or uninstalled; another can', async () => {
    await ok(['install', GUARD_DIR, '--yes']);
    const env = await withPolicy({ required: ['guard@local'] });
    const before = stateFileHash(ws.home);
    const disable = await hookpm(['disable', 'guard'], env);
    expectPolicyError(disable, 'required entry "guard@local"', env['HOOKPM_POLICY_FILE']!);
    const uninstall = await hookpm(['uninstall', 'guard'], env);
    expectPolicyError(uninstall, 'required entry "guard@local"', env['HOOKPM_POLICY_FILE']!);
    expect(stateFileHash(ws.home)).toBe(before);
    const doctor = JSON.parse(
      (await hookpm(['doctor', '--json'], await withPolicy({ required: ['audit-log'] }))).stdout,
    ) as { checks: Array<{ code?: string }> };
    expect(doctor.checks.map((c) => c.code)).toContain('policy_required_missing');
    await ok(['uninstall', 'guard'], ws.env());
  });
  it('A14: a required plugin is not uninstalled from a project (`uninstall --project`); hookpm.json, hookpm.lock and the state are unchanged', async () => {
    await ok(['install', '--project', 'guard@examples', '--yes']);
    const files = async () =>
      Promise.all(['hookpm.json', 'hookpm.lock'].map((f) => readFile(join(ws.repo, f), 'utf8')));
    const before = { files: await files(), state: stateFileHash(ws.home) };
    const env = await withPolicy({ required: ['guard@examples'] });
    const run = await hookpm(['uninstall', '--project', 'guard'], env);
    expectPolicyError(run, 'required entry "guard@examples"', env['HOOKPM_POLICY_FILE']!);
    expect({ files: await files(), state: stateFileHash(ws.home) }).toEqual(before);
  });

  it('A14: a required plugin is not removed from a project by `ci` or `install` of files that dropped it; the state and the store are unchanged', async () => {
    await ok(['install', '--project', 'guard@examples', 'format-on-write@examples', '--yes']);
    for (const f of ['hookpm.json', 'hookpm.lock']) {
      const file = join(ws.repo, f);
      const doc = JSON.parse(await readFile(file, 'utf8')) as { plugins: Record<string, unknown> };
      delete doc.plugins['guard@examples'];
      await writeFile(file, JSON.stringify(doc));
    }
    const before = stateFileHash(ws.home);
    const env = await withPolicy({ required: ['guard'] });
    for (const args of [
      ['ci', '--yes'],
      ['install', '--yes'],
    ]) {
      const run = await hookpm(args, env);
      expectPolicyError(run, 'required entry "guard"', env['HOOKPM_POLICY_FILE']!);
      expect(run.stderr).toContain('uninstalling guard@examples');
    }
    expect(stateFileHash(ws.home)).toBe(before);
    expect(await readdir(join(ws.home, 'hookpm', 'data', '.staging'))).toEqual([]);
  });

  it('A14: no hook of a required plugin is turned off (`disable --hook`); the state is unchanged', async () => {
    await ok(['install', GUARD_DIR, '--yes']);
    const key = /key ([0-9a-f]{10})/.exec(await ok(['review', 'guard']))![1]!;
    const env = await withPolicy({ required: ['guard@local'] });
    const before = stateFileHash(ws.home);
    const off = await hookpm(['disable', 'guard', '--hook', key], env);
    expectPolicyError(off, 'required entry "guard@local"', env['HOOKPM_POLICY_FILE']!);
    expect(stateFileHash(ws.home)).toBe(before);
  });

  it('A14: `doctor` warns of a required plugin whose hooks were turned off before the policy required it', async () => {
    await ok(['install', GUARD_DIR, '--yes']);
    const key = /key ([0-9a-f]{10})/.exec(await ok(['review', 'guard']))![1]!;
    await ok(['disable', 'guard', '--hook', key]);
    const env = await withPolicy({ required: ['guard@local'] });
    const doctor = JSON.parse((await hookpm(['doctor', '--json'], env)).stdout) as {
      checks: Array<{ code?: string; message: string; fix?: string }>;
    };
    const found = doctor.checks.find((c) => c.code === 'policy_required_hooks_off');
    expect(found?.message).toContain('guard@local');
    expect(found?.fix).toBe(`hookpm enable guard@local --hook ${key}`);
  });
});

describe('run, session and wire (A11, A13)', () => {
  it('A13: `hookpm run` leaves a denied plugin out and says why', async () => {
    await ok(['install', GUARD_DIR, '--yes']);
    const input = JSON.stringify({ tool_name: 'Bash', tool_input: { command: FORCE_PUSH } });
    const allowed = await hookpm(
      ['run', 'PreToolUse', '--payload', '-', '--json'],
      ws.env(),
      input,
    );
    expect(JSON.parse(allowed.stdout).permission.decision).toBe('deny');
    const env = await withPolicy({ plugins: { deny: ['guard'] } });
    const run = await hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], env, input);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { permission: unknown; systemMessages: string[] };
    expect(result.permission).toBeNull();
    expect(result.systemMessages.join('\n')).toMatch(/guard@local no longer runs.*plugins\.deny/);
  });

  it('A13: `hookpm session` starts without a denied plugin', () => {
    const install = spawnSync(process.execPath, [BIN, 'install', GUARD_DIR, '--yes'], {
      cwd: ws.repo,
      env: ws.env(),
      encoding: 'utf8',
    });
    expect(install.status, install.stderr).toBe(0);
    const file = join(ws.dir, `policy-session-${ws.n}.json`);
    spawnSync('/bin/sh', ['-c', `printf '%s' '{"plugins":{"deny":["guard"]}}' > "${file}"`]);
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
      env: { ...ws.env({ HOOKPM_POLICY_FILE: file }), LINE: line, NODE: process.execPath, BIN },
      encoding: 'utf8',
    });
    expect(piped.status, piped.stderr).toBe(0);
    const [ready, answer] = piped.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(ready.params.plugins).toEqual([]);
    expect(answer.result.permission).toBeNull();
    expect(answer.result.runs).toEqual([]);
  });

  it('A13: under `wire`, a plugin denied after its session pinned it stops at the next event, with a systemMessage', async () => {
    await ok(['install', GUARD_DIR, '--yes']);
    await wire(payload('SessionStart', 'p1', { source: 'startup' }), ws.env());
    const before = await wire(bash('p1', FORCE_PUSH), ws.env());
    expect(before?.hookSpecificOutput.permissionDecision).toBe('deny');
    const env = await withPolicy({ plugins: { deny: ['guard@local'] } });
    const after = await wire(bash('p1', FORCE_PUSH), env);
    expect(after?.hookSpecificOutput?.permissionDecision).toBeUndefined();
    expect(after?.systemMessage).toMatch(/guard@local no longer runs.*policy/);
    // A new session pins without it.
    await wire(payload('SessionStart', 'p2', { source: 'startup' }), env);
    const fresh = await wire(bash('p2', FORCE_PUSH), env);
    expect(fresh?.hookSpecificOutput?.permissionDecision).toBeUndefined();
  });

  it('A11: under `wire`, a policy file that cannot be parsed denies the blocking events its plugins would run on, naming the file; failOpen does not open it', async () => {
    await ok(['install', GUARD_DIR, '--yes']);
    await mkdir(join(ws.home, 'hookpm', 'config'), { recursive: true });
    await writeFile(join(ws.home, 'hookpm', 'config', 'settings.json'), '{"failOpen": true}');
    const env = await withPolicy('not json');
    const answer = await wire(bash('p3', 'ls -la'), env);
    expect(answer?.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer?.hookSpecificOutput.permissionDecisionReason).toContain(
      env['HOOKPM_POLICY_FILE'],
    );
    expect(answer?.hookSpecificOutput.permissionDecisionReason).toContain('cannot be used');
  });
});

describe('update (A20)', () => {
  it('A20: a plain `update` passes over a denied plugin naming the rule, updates the others and exits 0; `update <name>` of it is E_POLICY', async () => {
    await ok(['install', 'guard@examples@1.0.0', 'format-on-write@examples@1.0.0', '--yes']);
    const env = await withPolicy({ plugins: { deny: ['format-on-write'] } });
    // `outdated` says what `update` will do: the denied plugin is not outdated, and why.
    const listed = await hookpm(['outdated', '--json'], env);
    const report = JSON.parse(listed.stdout) as {
      plugins: Array<{ id: string; outdated: boolean }>;
      notes: string[];
    };
    expect(report.plugins.map((p) => `${p.id} ${p.outdated}`)).toEqual([
      'format-on-write@examples false',
      'guard@examples true',
    ]);
    expect(report.notes).toEqual([
      expect.stringMatching(/^format-on-write@examples: the administrator's policy .* refuses it/),
    ]);
    const run = await hookpm(['update', '--yes', '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as {
      installed: Array<{ id: string; version: string }>;
      skipped: Array<{ id: string; reason: string; message: string }>;
    };
    expect(result.installed.map((p) => `${p.id} ${p.version}`)).toEqual(['guard@examples 1.3.0']);
    const denied = result.skipped.find((s) => s.id === 'format-on-write@examples');
    expect(denied?.reason).toBe('policy');
    expect(denied?.message).toContain('plugins.deny entry "format-on-write"');
    expect(denied?.message).toContain(env['HOOKPM_POLICY_FILE']!);
    const plain = await hookpm(['update', '--yes'], env);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toContain('format-on-write@examples was not updated');
    const named = await hookpm(['update', 'format-on-write', '--yes'], env);
    expectPolicyError(named, 'plugins.deny entry "format-on-write"', env['HOOKPM_POLICY_FILE']!);
  });

  it('A20, A11: `update <name>` of a denied plugin already at its newest is E_POLICY, and so is an update that would move nothing while the file cannot be used', async () => {
    await ok(['install', 'guard@examples', '--yes']);
    const denied = await withPolicy({ plugins: { deny: ['guard'] } });
    const before = stateFileHash(ws.home);
    const named = await hookpm(['update', 'guard', '--yes'], denied);
    expectPolicyError(named, 'plugins.deny entry "guard"', denied['HOOKPM_POLICY_FILE']!);
    expect(named.stderr).toContain('updating guard@examples');
    const broken = await withPolicy('{"plugins": ');
    for (const args of [
      ['update', '--yes'],
      ['update', 'guard', '--yes'],
      ['update', '--dry-run'],
    ]) {
      const run = await hookpm(args, broken);
      expectPolicyError(run, 'cannot be used', broken['HOOKPM_POLICY_FILE']!);
    }
    expect(stateFileHash(ws.home)).toBe(before);
  });
});

describe('what each command does with the policy, the remaining cases (A11, A12, A16, A17)', () => {
  it('A11: while the policy file cannot be used, registry add, enable, disable, uninstall and update are each E_POLICY naming the file; nothing is written', async () => {
    await ok(['install', 'guard@examples@1.0.0', '--yes']);
    await ok(['install', 'format-on-write@examples', '--no-enable']);
    const env = await withPolicy('{"plugins": ');
    const file = env['HOOKPM_POLICY_FILE']!;
    const before = stateFileHash(ws.home);
    for (const args of [
      ['registry', 'add', 'mine', FIXTURES],
      ['enable', 'format-on-write', '--yes'],
      ['disable', 'guard'],
      ['uninstall', 'guard'],
      ['update', '--yes'],
    ]) {
      const run = await hookpm(args, env);
      expect(run.code, args.join(' ')).toBe(1);
      expectPolicyError(run, 'cannot be used', file);
    }
    expect(stateFileHash(ws.home)).toBe(before);
  });

  it('A12: a plugin whose registry the policy no longer allows does not run under `run` nor `wire`, with a systemMessage naming registries.allow; doctor reports policy_denied and policy_registry_refused', async () => {
    await ok(['install', GUARD_DIR, '--yes']);
    const env = await withPolicy({ registries: { allow: ['https://plugins.acme.example/*'] } });
    const input = JSON.stringify({ tool_name: 'Bash', tool_input: { command: FORCE_PUSH } });
    const run = await hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], env, input);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { permission: unknown; systemMessages: string[] };
    expect(result.permission).toBeNull();
    expect(result.systemMessages.join('\n')).toMatch(
      /guard@local no longer runs.*registries\.allow/,
    );
    const wired = await wire(bash('p4', FORCE_PUSH), env);
    expect(wired?.hookSpecificOutput?.permissionDecision).toBeUndefined();
    expect(wired?.systemMessage).toMatch(/guard@local no longer runs.*registries\.allow/);
    const doctor = JSON.parse((await hookpm(['doctor', '--json'], env)).stdout) as {
      checks: Array<{ code?: string }>;
    };
    const codes = doctor.checks.map((c) => c.code);
    expect(codes).toContain('policy_denied');
    expect(codes).toContain('policy_registry_refused');
  });

  it('A17: doctor reports policy_denied for a denied plugin of the project it runs in, naming the project, with the `disable --project` that stops it', async () => {
    await ok(['install', '--project', 'guard@examples', '--yes']);
    const env = await withPolicy({ plugins: { deny: ['guard'] } });
    const doctor = JSON.parse((await hookpm(['doctor', '--json'], env)).stdout) as {
      checks: Array<{ code?: string; message: string; fix?: string }>;
    };
    const denied = doctor.checks.filter((c) => c.code === 'policy_denied');
    expect(denied).toEqual([
      expect.objectContaining({ fix: 'hookpm disable guard@examples --project' }),
    ]);
    expect(denied[0]!.message).toMatch(/guard@examples is enabled in project .*plugins\.deny/);
  });

  it('A12: a plugin whose registry registries.allow names by location runs under `run` and `wire`, the built-in registry and an added one alike', async () => {
    const env = await withPolicy({ registries: { allow: [`${FIXTURES}*`] } });
    await ok(['registry', 'add', 'mine', FIXTURES], env);
    await ok(['install', 'guard@examples', 'guard@mine', '--yes'], env);
    const input = JSON.stringify({ tool_name: 'Bash', tool_input: { command: FORCE_PUSH } });
    const run = await hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], env, input);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as {
      permission: { decision: string };
      systemMessages: string[];
    };
    expect(result.systemMessages).toEqual([]);
    expect(result.permission.decision).toBe('deny');
    const wired = await wire(bash('p5', FORCE_PUSH), env);
    expect(wired?.systemMessage).toBeUndefined();
    expect(wired?.hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('A12: a plugin installed from a location the policy refuses stays refused after its registry name is re-pointed at an allowed one: `run`, `wire`, `enable`, `doctor`; reinstalled from there, it runs', async () => {
    const refused = join(ws.dir, `refused-${ws.n}`);
    await cp(FIXTURES, refused, { recursive: true });
    await ok(['registry', 'add', 'evil', refused]);
    await ok(['install', 'guard@evil', '--yes']);
    expect(await wire(bash(`p6-${ws.n}`, 'ls'), ws.env())).toBeNull();
    const env = await withPolicy({ registries: { allow: [`${FIXTURES}*`] } });
    await ok(['registry', 'remove', 'evil'], env);
    await ok(['registry', 'add', 'evil', FIXTURES], env);
    const input = JSON.stringify({ tool_name: 'Bash', tool_input: { command: FORCE_PUSH } });
    const run = await hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], env, input);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { permission: unknown; systemMessages: string[] };
    expect(result.permission).toBeNull();
    const stopped = /guard@evil no longer runs.*registries\.allow/;
    expect(result.systemMessages.join('\n')).toMatch(stopped);
    const wired = await wire(bash(`p6-${ws.n}`, FORCE_PUSH), env);
    expect(wired?.hookSpecificOutput?.permissionDecision).toBeUndefined();
    expect(wired?.systemMessage).toMatch(stopped);
    const doctor = JSON.parse((await hookpm(['doctor', '--json'], env)).stdout) as {
      checks: Array<{ code?: string }>;
    };
    expect(doctor.checks.map((c) => c.code)).toContain('policy_denied');
    await ok(['disable', 'guard@evil'], env);
    const enable = await hookpm(['enable', 'guard@evil', '--yes'], env);
    expectPolicyError(enable, 'registries.allow', env['HOOKPM_POLICY_FILE']!);
    await ok(['install', 'guard@evil', '--force', '--yes'], env);
    const again = await hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], env, input);
    expect(JSON.parse(again.stdout).permission.decision).toBe('deny');
  });

  it('A16: an E_POLICY refusal under --json carries the rule, the entry and the file', async () => {
    const env = await withPolicy({ plugins: { deny: ['guard'] } });
    const run = await hookpm(['install', 'guard@examples', '--yes', '--json'], env);
    expect(run.code).toBe(1);
    const { error } = JSON.parse(run.stdout) as { error: Record<string, unknown> };
    expect(error).toMatchObject({
      code: 'E_POLICY',
      rule: 'plugins.deny',
      entry: 'guard',
      file: env['HOOKPM_POLICY_FILE'],
    });
    const allow = await withPolicy({ plugins: { allow: ['audit-log'] } });
    const refused = await hookpm(['install', 'guard@examples', '--yes', '--json'], allow);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ rule: 'plugins.allow', entry: null });
  });
});
