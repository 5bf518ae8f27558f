/**
 * The policy's `sandbox.require` (docs/reference/rules/policy.md#a18) end to end with the built
 * binary: `hookpm policy`, enable, install and enable, `run` and `wire`. guard 1.2.0 (kept in the
 * examples registry's history) declares no capabilities; guard 1.3.0 declares no network and no
 * writes, so its handlers run under bubblewrap, installed on first use.
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { BIN } from '../helpers/built-bin.js';
import { useBubblewrap } from '../helpers/bubblewrap.js';
import { claudeBashPayload } from '../helpers/claude-payload.js';
import { stateFileHash } from '../helpers/store-snapshot.js';

const FIXTURES = fileURLToPath(new URL('../../registry-fixtures', import.meta.url));
/** Declares capabilities (Z1). */
const DECLARED = join(FIXTURES, 'plugins', 'guard');
/** Declares none. */
const UNDECLARED = join(FIXTURES, 'history', 'guard-1.2.0');
const FORCE_PUSH = 'git push --force origin main';
const SANDBOX = { sandbox: { require: true } };

const ws = useBinWorkspace('e2e-policy-sandbox');

useBubblewrap();

async function withPolicy(policy: unknown): Promise<Record<string, string>> {
  const file = join(ws.dir, `policy-${ws.n}.json`);
  await writeFile(file, JSON.stringify(policy));
  return ws.env({ HOOKPM_POLICY_FILE: file });
}

async function ok(args: string[], env = ws.env()): Promise<string> {
  const run = await ws.hookpm(args, { env });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

function expectSandboxRefusal(run: { code: number | null; stderr: string }, file: string) {
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('E_POLICY');
  expect(run.stderr).toContain('sandbox.require');
  expect(run.stderr).toContain(file);
  expect(run.stderr).toContain('--confine');
}

async function wire(body: string, env: Record<string, string>) {
  const run = await ws.hookpm(['wire', 'claude'], { env, stdin: body });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout === '' ? null : (JSON.parse(run.stdout) as Record<string, any>);
}

describe('sandbox.require (A18)', () => {
  it('A18: `hookpm policy` says what sandbox.require means; a value that is not a boolean makes the file unusable (A11)', async () => {
    const env = await withPolicy(SANDBOX);
    const shown = await ok(['policy'], env);
    expect(shown).toContain('"require": true');
    expect(shown).toMatch(/sandbox\.require: only plugins that declare capabilities.*--confine/);
    const bad = await ws.hookpm(['policy'], { env: await withPolicy({ sandbox: { require: 1 } }) });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('sandbox.require must be true or false');
  });

  it('A18: enable of an undeclared plugin is E_POLICY naming the rule and the file, the state byte-identical; `enable --confine` is accepted', async () => {
    await ok(['install', UNDECLARED, '--yes']);
    await ok(['disable', 'guard']);
    const env = await withPolicy(SANDBOX);
    const before = stateFileHash(ws.home);
    const refused = await ws.hookpm(['enable', 'guard', '--yes'], { env });
    expectSandboxRefusal(refused, env['HOOKPM_POLICY_FILE']!);
    expect(stateFileHash(ws.home)).toBe(before);
    await ok(['enable', 'guard', '--confine', 'network=false,write=', '--yes'], env);
    const listed = JSON.parse(await ok(['list', '--json'], env)) as {
      plugins: Array<{ id: string; enabled: boolean }>;
    };
    expect(listed.plugins).toEqual([expect.objectContaining({ id: 'guard@local', enabled: true })]);
    // Confined by the user, it runs (under bubblewrap) and still denies.
    const input = JSON.stringify({ tool_name: 'Bash', tool_input: { command: FORCE_PUSH } });
    const run = await ws.hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], {
      env,
      stdin: input,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).permission.decision).toBe('deny');
  });

  it('A18: install and enable of an undeclared plugin is refused and writes nothing; a declared plugin installs and enables', async () => {
    const env = await withPolicy(SANDBOX);
    const refused = await ws.hookpm(['install', UNDECLARED, '--yes'], { env });
    expectSandboxRefusal(refused, env['HOOKPM_POLICY_FILE']!);
    expect(stateFileHash(ws.home)).toBe('none');
    const installed = JSON.parse(await ok(['install', DECLARED, '--yes', '--json'], env)) as {
      installed: Array<Record<string, unknown>>;
    };
    expect(installed.installed[0]).toMatchObject({ id: 'guard@local', enabled: true });
  });

  it('A18: `install --link` of an undeclared plugin is refused and writes nothing; a declared one links', async () => {
    const env = await withPolicy(SANDBOX);
    const refused = await ws.hookpm(['install', '--link', UNDECLARED, '--yes'], { env });
    expectSandboxRefusal(refused, env['HOOKPM_POLICY_FILE']!);
    expect(stateFileHash(ws.home)).toBe('none');
    await ok(['install', '--link', DECLARED, '--yes'], env);
  });

  it('A18: `rollback` of an enabled plugin to a version that declares no capabilities is E_POLICY and writes nothing; confined by the user, it rolls back', async () => {
    await ok(['install', 'guard@examples@1.2.0', '--yes']);
    await ok(['update', 'guard', '--yes']);
    const env = await withPolicy(SANDBOX);
    const before = stateFileHash(ws.home);
    const refused = await ws.hookpm(['rollback', 'guard'], { env });
    expectSandboxRefusal(refused, env['HOOKPM_POLICY_FILE']!);
    expect(refused.stderr).toContain('rolling back guard@examples');
    expect(stateFileHash(ws.home)).toBe(before);
    await ok(['enable', 'guard', '--confine', 'network=false,write=', '--yes'], env);
    expect(await ok(['rollback', 'guard'], env)).toContain('from 1.3.0 to 1.2.0');
  });

  it('A18: `hookpm run` leaves an undeclared plugin out and says why; `doctor` warns policy_unconfined', async () => {
    await ok(['install', UNDECLARED, '--yes']);
    const env = await withPolicy(SANDBOX);
    const input = JSON.stringify({ tool_name: 'Bash', tool_input: { command: FORCE_PUSH } });
    const run = await ws.hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], {
      env,
      stdin: input,
    });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { permission: unknown; systemMessages: string[] };
    expect(result.permission).toBeNull();
    expect(result.systemMessages.join('\n')).toMatch(
      /guard@local no longer runs.*requires confined plugins \(sandbox\.require\)/,
    );
    const doctor = JSON.parse((await ws.hookpm(['doctor', '--json'], { env })).stdout) as {
      checks: Array<{ code?: string; fix?: string }>;
    };
    expect(doctor.checks).toContainEqual(
      expect.objectContaining({
        code: 'policy_unconfined',
        fix: expect.stringContaining('--confine'),
      }),
    );
  });

  it('A18: `doctor` warns policy_unconfined for an undeclared plugin of the project it runs in, with the `--project --confine` fix', async () => {
    await ok(['install', '--project', 'guard@examples@1.2.0', '--yes']);
    const env = await withPolicy(SANDBOX);
    const doctor = JSON.parse((await ws.hookpm(['doctor', '--json'], { env })).stdout) as {
      checks: Array<{ code?: string; message: string; fix?: string }>;
    };
    const unconfined = doctor.checks.filter((c) => c.code === 'policy_unconfined');
    expect(unconfined).toEqual([
      expect.objectContaining({
        fix: 'hookpm enable guard@examples --project --confine network=false,write=data',
      }),
    ]);
    expect(unconfined[0]!.message).toMatch(/enabled in project .*sandbox\.require/);
  });

  it('A18: `hookpm session` starts without an undeclared plugin, and with a declared one', async () => {
    await ok(['install', UNDECLARED, '--yes']);
    const env = await withPolicy(SANDBOX);
    const line = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'dispatch',
      params: {
        event: 'PreToolUse',
        payload: { tool_name: 'Bash', tool_input: { command: FORCE_PUSH } },
      },
    });
    const session = () => {
      const piped = spawnSync(
        '/bin/sh',
        ['-c', `printf '%s\\n' "$LINE" | "$NODE" "$BIN" session`],
        {
          cwd: ws.repo,
          env: { ...env, LINE: line, NODE: process.execPath, BIN },
          encoding: 'utf8',
        },
      );
      expect(piped.status, piped.stderr).toBe(0);
      return piped.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, any>);
    };
    const [ready, answer] = session();
    expect(ready!['params'].plugins).toEqual([]);
    expect(answer!['result'].permission).toBeNull();
    await ok(['install', DECLARED, '--yes', '--force'], env);
    const [, confined] = session();
    expect(confined!['result'].permission.decision).toBe('deny');
  });

  it('A18: under `wire`, an undeclared plugin pinned before the policy stops at the next event, with a systemMessage', async () => {
    await ok(['install', UNDECLARED, '--yes']);
    const start = JSON.stringify({
      session_id: 's1',
      transcript_path: join(ws.home, 't.jsonl'),
      cwd: ws.repo,
      hook_event_name: 'SessionStart',
      source: 'startup',
    });
    await wire(start, ws.env());
    const before = await wire(claudeBashPayload(ws, 's1', FORCE_PUSH), ws.env());
    expect(before?.hookSpecificOutput.permissionDecision).toBe('deny');
    const env = await withPolicy(SANDBOX);
    const after = await wire(claudeBashPayload(ws, 's1', FORCE_PUSH), env);
    expect(after?.hookSpecificOutput?.permissionDecision).toBeUndefined();
    expect(after?.systemMessage).toMatch(/guard@local no longer runs.*sandbox\.require/);
  });

  it('A18: under `wire`, a declared plugin keeps running, confined', async () => {
    await ok(['install', DECLARED, '--yes']);
    const env = await withPolicy(SANDBOX);
    const answer = await wire(claudeBashPayload(ws, 's2', FORCE_PUSH), env);
    expect(answer?.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer?.systemMessage ?? '').not.toContain('no longer runs');
  });
});
