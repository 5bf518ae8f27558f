import { readFileSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { claudePayload } from '../helpers/claude-payload.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { installedTree } from '../helpers/installed-tree.js';

// docs/reference/rules/engine.md#fail-closed on Claude Code's own events (plugins.md G1-G2),
// through the command `hookpm link claude` writes (`hookpm wire claude`, payload on stdin): what
// cannot run as consented is exit 2 with its reason where exit 2 blocks, a systemMessage elsewhere.

const ws = useBinWorkspace('e2e-fail-closed-claude-events', '.claude');

const RM = 'rm -rf /';
const DENIED = 'skillguard: denied';
const FAILS_CLOSED =
  /^hookpm fails closed: plugin skillguard@local 1\.0\.0 cannot run as consented \(its installed files were changed after install\); run `hookpm install --force .*skillguard` to restore it, or `hookpm disable skillguard@local` to stop using it\n$/;

async function ok(args: string[]): Promise<void> {
  const run = await ws.hookpm(args);
  expect(run.code, run.stderr).toBe(0);
}

const stateFile = () => join(ws.home, 'hookpm', 'data', 'state.json');

/**
 * Installs skillguard: on PreSkillShellCommand (where exit 2 blocks) it denies a shell command
 * holding `rm -rf` with exit 2; on PostModelSwitch and TeammateIdle it says nothing.
 */
async function installGuard(): Promise<void> {
  const root = join(ws.dir, `plugins${ws.n}`, 'skillguard');
  const guard = `if grep -q 'rm -rf'; then echo '${DENIED}' >&2; exit 2; fi`;
  const run = (command: string) => [{ hooks: [{ type: 'command', command }] }];
  await writeClaudePlugin(root, 'skillguard', {
    PreSkillShellCommand: [{ hooks: [{ type: 'command', command: guard, onFailure: 'block' }] }],
    PostModelSwitch: run('true'),
    TeammateIdle: run('true'),
  });
  await ok(['install', root, '--yes']);
}

/** Changes a file of skillguard's installed tree. */
async function tamperGuard(): Promise<void> {
  await appendFile(join(installedTree(ws.home, 'skillguard'), 'hooks', 'hooks.json'), '\n');
}

const skillShell = (session: string, command: string) =>
  claudePayload(ws, 'PreSkillShellCommand', session, {
    skill_name: 'deploy',
    tool_name: 'Bash',
    tool_input: { command },
  });

async function wire(body: string) {
  return ws.hookpm(['wire', 'claude'], { stdin: body });
}

describe("fail closed through `hookpm wire claude` on Claude Code's own events (engine.md B2-B6)", () => {
  it('G2: a healthy skillguard blocks `rm -rf` on PreSkillShellCommand with exit 2 and lets `ls` through', async () => {
    await installGuard();
    const denied = await wire(skillShell('healthy', RM));
    expect({ code: denied.code, stderr: denied.stderr }).toEqual({
      code: 2,
      stderr: `${DENIED}\n`,
    });
    const allowed = await wire(skillShell('healthy', 'ls'));
    expect({ code: allowed.code, stdout: allowed.stdout }).toEqual({ code: 0, stdout: '' });
  });

  it('B2, Q6, B4: skillguard tampered after SessionStart pinned it: PreSkillShellCommand is exit 2 with the reason, even for `ls`, until it is restored', async () => {
    await installGuard();
    await wire(claudePayload(ws, 'SessionStart', 'pinned', { source: 'startup' }));
    await tamperGuard();
    for (const command of [RM, 'ls']) {
      const run = await wire(skillShell('pinned', command));
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(FAILS_CLOSED);
    }
    // B4: restored as the reason says, the session's next event runs the real guard.
    await ok(['install', '--force', join(ws.dir, `plugins${ws.n}`, 'skillguard'), '--yes']);
    expect(await wire(skillShell('pinned', 'ls'))).toMatchObject({ code: 0, stderr: '' });
    expect((await wire(skillShell('pinned', RM))).stderr).toBe(`${DENIED}\n`);
  });

  it('B2: skillguard tampered before the session began: its first PreSkillShellCommand is exit 2 with the reason', async () => {
    await installGuard();
    await tamperGuard();
    const run = await wire(skillShell('late', RM));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(FAILS_CLOSED);
    // Restored, the next event of the same session runs the real guard.
    await ok(['install', '--force', join(ws.dir, `plugins${ws.n}`, 'skillguard'), '--yes']);
    expect((await wire(skillShell('late', 'ls'))).code).toBe(0);
    expect((await wire(skillShell('late', RM))).stderr).toBe(`${DENIED}\n`);
  });

  it('B3: a state.json cut short makes PreSkillShellCommand exit 2 with a reason naming the file and `hookpm doctor`', async () => {
    await installGuard();
    await writeFile(stateFile(), readFileSync(stateFile(), 'utf8').slice(0, 50));
    const run = await wire(skillShell('cut', 'ls'));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^hookpm fails closed: it cannot read its plugin state/);
    expect(run.stderr).toContain(stateFile());
    expect(run.stderr).toContain('hookpm doctor');
  });

  it('B2: on PostModelSwitch (exit 2 does not block) and TeammateIdle (exit 2 would loop a teammate) a tampered skillguard is a systemMessage, never a block', async () => {
    await installGuard();
    await tamperGuard();
    const events = [
      claudePayload(ws, 'PostModelSwitch', 'told', { from_model: 'opus', to_model: 'haiku' }),
      claudePayload(ws, 'TeammateIdle', 'told', { teammate_name: 'a', team_name: 't' }),
    ];
    for (const body of events) {
      const run = await wire(body);
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(Object.keys(out)).toEqual(['systemMessage']);
      expect(`${String(out['systemMessage'])}\n`).toMatch(FAILS_CLOSED);
      expect(run.stderr).toContain('hookpm: error failed_closed: hookpm fails closed');
    }
  });

  it("B2, policy.md A11: with the administrator's policy file unusable, PreSkillShellCommand is exit 2 naming the file; PostModelSwitch gets a systemMessage", async () => {
    await installGuard();
    const policy = join(ws.dir, 'policy.json');
    await writeFile(policy, '{"registries": ');
    const env = ws.env({ HOOKPM_POLICY_FILE: policy });
    const blocked = await ws.hookpm(['wire', 'claude'], { stdin: skillShell('policy', 'ls'), env });
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(
      /^hookpm fails closed: the administrator's policy .*policy\.json cannot be used .*so plugin skillguard@local does not run/,
    );
    const told = await ws.hookpm(['wire', 'claude'], {
      stdin: claudePayload(ws, 'PostModelSwitch', 'policy', { from_model: 'a', to_model: 'b' }),
      env,
    });
    expect(told.code).toBe(0);
    expect(String((JSON.parse(told.stdout) as Record<string, unknown>)['systemMessage'])).toContain(
      "the administrator's policy",
    );
  });

  it('B5: a payload nested 5,000 deep is exit 2 on PreSkillShellCommand, and exit 1 (told, not blocked) on PostModelSwitch', async () => {
    await installGuard();
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const nested = (body: string) => body.replace(/^\{/, `{"x":${deep},`);
    const blocked = await wire(nested(skillShell('deep', 'ls')));
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('nested deeper than 512 levels, so no handler ran');
    const told = await wire(
      nested(claudePayload(ws, 'PostModelSwitch', 'deep', { from_model: 'a', to_model: 'b' })),
    );
    expect(told.code).toBe(1);
    expect(told.stderr).toContain('nested deeper than 512 levels');
  });

  it('B6: settings.json failOpen naming skillguard lets PreSkillShellCommand through with a systemMessage; an unusable failOpen stays closed', async () => {
    await installGuard();
    await tamperGuard();
    const settings = join(ws.home, 'hookpm', 'config', 'settings.json');
    await mkdir(join(ws.home, 'hookpm', 'config'), { recursive: true });
    await writeFile(settings, JSON.stringify({ failOpen: ['skillguard@local'] }));
    const open = await wire(skillShell('open', RM));
    expect(open.code).toBe(0);
    const out = JSON.parse(open.stdout) as Record<string, unknown>;
    expect(`${String(out['systemMessage'])}\n`).toMatch(FAILS_CLOSED);
    expect(open.stderr).toContain('hookpm: warning failed_closed:');
    await writeFile(settings, JSON.stringify({ failOpen: 'yes' }));
    expect((await wire(skillShell('open', RM))).code).toBe(2);
  });
});
