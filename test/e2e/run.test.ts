import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../src/hooks/events.js';
import { BIN } from '../helpers/built-bin.js';
import { isAlive, killHostWhileHandlerRuns, readPid } from '../engine/runner-fixtures.js';
import { fixture, group, printsJson, sh } from '../helpers/hook-fixtures.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { useBubblewrap } from '../helpers/bubblewrap.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';

/** A PreToolUse deny whose reason is `spaced`, as a script prints it. */
const DENY_SCRIPT = printsJson({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: 'deny',
    permissionDecisionReason: 'spaced',
  },
});

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// guard declares capabilities: its handlers run under bubblewrap.
useBubblewrap();

const ws = useBinWorkspace('e2e-run', '.deepagents');

async function userHooks(hooks: Record<string, unknown>): Promise<void> {
  await writeFile(join(ws.home, '.deepagents', 'hooks.json'), JSON.stringify({ hooks }));
}

const hookpm = ws.hookpm;

describe('hookpm run <Event>', () => {
  it('cli.md 1: prints the result readably, hook text with control characters escaped, and exits 0 whatever the hooks decided', async () => {
    await userHooks({
      PreToolUse: [
        group('Bash', sh(`echo 'rm -rf blocked' >&2; exit 2`)),
        group(null, sh(printsJson({ systemMessage: 'checked\nby guard\u001b[2J' }))),
      ],
    });
    const run = await hookpm(['run', 'PreToolUse', '--payload', '-'], {
      stdin: JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^PreToolUse: 2 handler\(s\) ran \(snapshot [0-9a-f]{12}\)$/);
    expect(lines).toContain('permission: deny: rm -rf blocked');
    expect(lines).toContain('system messages:');
    expect(lines).toContain('  - checked');
    expect(lines).toContain('    by guard\\u001b[2J');
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).toMatch(
      /HANDLER\s+ORIGIN\s+EXIT\s+TIME\nPreToolUse:0:0\s+user\s+2\s+\d+ ms\nPreToolUse:1:0\s+user\s+0\s+\d+ ms/,
    );
  });

  it('X2/X5: --payload - with $(touch pwned), backticks and quotes reaches the handler byte-exact, creates nothing, and OPENAI_API_KEY is absent', async () => {
    const stdinCopy = join(ws.dir, `stdin-${ws.n}`);
    const envDump = join(ws.dir, `env-${ws.n}`);
    await userHooks({
      PreToolUse: [group(null, sh(`cat > '${stdinCopy}'; env > '${envDump}'`))],
    });
    const input = {
      tool_name: 'Bash',
      tool_input: { command: `$(touch pwned) \`touch pwned\` "q" 'q' \\` },
      session_id: 's-9',
    };
    const run = await hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], {
      stdin: JSON.stringify(input),
      env: ws.env({ OPENAI_API_KEY: 'sk-never-leaked' }),
    });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { runs: { exitCode: number }[] };
    expect(result.runs.map((r) => r.exitCode)).toEqual([0]);
    const { session_id, ...fields } = input;
    expect(await readFile(stdinCopy, 'utf8')).toBe(
      JSON.stringify({
        session_id,
        cwd: ws.repo,
        permission_mode: 'default',
        hook_event_name: 'PreToolUse',
        ...fields,
      }),
    );
    const handlerEnv = await readFile(envDump, 'utf8');
    expect(handlerEnv).not.toContain('OPENAI_API_KEY');
    expect(handlerEnv).not.toContain('sk-never-leaked');
    expect(handlerEnv).toContain(`CLAUDE_PROJECT_DIR=${ws.repo}`);
    expect(existsSync(join(ws.repo, 'pwned'))).toBe(false);
  });

  it('X5: a handler sees no MYSQL_PWD, credentialed DATABASE_URL, GH_PAT or npm_config__auth; settings.json env.pass passes GH_PAT through; PWD stays', async () => {
    const envDump = join(ws.dir, `env-x5-${ws.n}`);
    await userHooks({ Stop: [group(null, sh(`env > '${envDump}'`))] });
    const secrets = {
      MYSQL_PWD: 'mysql-secret',
      DATABASE_URL: 'postgres://u:pw-secret@h/db',
      GH_PAT: 'gh-pat-secret',
      npm_config__auth: 'npm-auth-secret',
    };
    const seen = async (): Promise<string> => {
      const run = await hookpm(['run', 'Stop', '--json'], { env: ws.env(secrets) });
      expect(run.code, run.stderr).toBe(0);
      return readFile(envDump, 'utf8');
    };
    const filtered = await seen();
    for (const value of Object.values(secrets)) expect(filtered).not.toContain(value);
    expect(filtered).toMatch(/^PWD=/m);

    await mkdir(join(ws.home, 'hookpm', 'config'), { recursive: true });
    await writeFile(
      join(ws.home, 'hookpm', 'config', 'settings.json'),
      JSON.stringify({ env: { pass: ['GH_PAT'] } }),
    );
    const passed = await seen();
    expect(passed).toContain('GH_PAT=gh-pat-secret');
    expect(passed).not.toContain('mysql-secret');
  });

  it('X5 (fail closed): an invalid settings.json passes nothing and the result says so (config_read_failed)', async () => {
    const envDump = join(ws.dir, `env-bad-${ws.n}`);
    await userHooks({ Stop: [group(null, sh(`env > '${envDump}'`))] });
    await mkdir(join(ws.home, 'hookpm', 'config'), { recursive: true });
    await writeFile(
      join(ws.home, 'hookpm', 'config', 'settings.json'),
      '{"env": {"pass": "GH_PAT"}}',
    );
    const run = await hookpm(['run', 'Stop', '--json'], {
      env: ws.env({ GH_PAT: 'gh-pat-secret' }),
    });
    const result = JSON.parse(run.stdout) as { diagnostics: { code: string; path?: string }[] };
    expect(result.diagnostics).toMatchObject([
      { code: 'config_read_failed', path: join(ws.home, 'hookpm', 'config', 'settings.json') },
    ]);
    expect(await readFile(envDump, 'utf8')).not.toContain('gh-pat-secret');
  });

  it('cli.md 3: --json includes the snapshot diagnostics (a bad matcher is invalid_matcher) ahead of the run diagnostics', async () => {
    await userHooks({
      Notification: [group('(unclosed', sh('true')), group(null, sh('exit 5'))],
    });
    const payload = join(ws.repo, 'payload.json');
    await writeFile(payload, JSON.stringify({ notification_type: 'idle', message: 'hi' }));
    const run = await hookpm([
      'run',
      'Notification',
      '--payload',
      'payload.json',
      '--cwd',
      ws.repo,
      '--json',
    ]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as {
      snapshotId: string;
      diagnostics: Record<string, unknown>[];
    };
    expect(result.snapshotId).toMatch(/^[0-9a-f]{64}$/);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: 'invalid_matcher', severity: 'error', origin: 'user' }),
      expect.objectContaining({
        code: 'nonzero_exit',
        handler: 'Notification:1:0',
        origin: 'user',
      }),
    ]);
  });

  // engine.md F2 with cli.md W2: `run` runs handlers in its own directory, and an `if` path rule
  // reads a relative file path from there and from the payload's own `cwd`, where the tool reads
  // it: a guard written for either directory runs.
  it('F2: a relative file path is read from both run --cwd and the payload cwd', async () => {
    const agentDir = join(ws.repo, 'agent');
    const runDir = join(ws.repo, 'run');
    await mkdir(agentDir, { recursive: true });
    await mkdir(runDir, { recursive: true });
    const guard = (dir: string) =>
      group('Edit', { ...sh(DENY_SCRIPT), if: `Edit(/${dir}/secret/**)` });
    const payload = JSON.stringify({
      cwd: agentDir,
      tool_name: 'Edit',
      tool_input: { file_path: 'secret/key', old_string: 'a', new_string: 'b' },
    });
    for (const dir of [agentDir, runDir]) {
      await userHooks({ PreToolUse: [guard(dir)] });
      const run = await hookpm(['run', 'PreToolUse', '--payload', '-', '--cwd', runDir], {
        stdin: payload,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout, dir).toContain('permission: deny: spaced');
    }
    await userHooks({ PreToolUse: [guard(join(ws.repo, 'elsewhere'))] });
    const run = await hookpm(['run', 'PreToolUse', '--payload', '-', '--cwd', runDir], {
      stdin: payload,
    });
    expect(run.stdout).not.toContain('permission: deny');
  });

  it('cli.md 1: readable output lists diagnostics with their code and handler', async () => {
    await userHooks({ Stop: [group('Bash', sh('true')), group(null, sh('exit 5'))] });
    const run = await hookpm(['run', 'Stop']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('diagnostics:');
    expect(run.stdout).toMatch(/- error unsupported_matcher .*hooks\.Stop\[0\]\.matcher: /);
    expect(run.stdout).toContain('- warning nonzero_exit Stop:1:0: exit code 5');
    expect(run.stdout).toContain('continue loop: no');
  });

  it('O3: --continuation-count 7 still continues an always-blocking Stop, 8 gives continuation_cap', async () => {
    await userHooks({ Stop: [group(null, sh(`echo 'not done' >&2; exit 2`))] });
    const at7 = JSON.parse(
      (await hookpm(['run', 'Stop', '--continuation-count', '7', '--json'])).stdout,
    );
    expect(at7).toMatchObject({ continueLoop: true, feedback: ['not done'], diagnostics: [] });
    const at8 = JSON.parse(
      (await hookpm(['run', 'Stop', '--continuation-count', '8', '--json'])).stdout,
    );
    expect(at8).toMatchObject({ continueLoop: false, feedback: [] });
    expect(at8.diagnostics.map((d: { code: string }) => d.code)).toEqual(['continuation_cap']);
  });

  it('T5: headless, the project file loads only with --trust-project-hooks', async () => {
    await mkdir(join(ws.repo, '.deepagents'), { recursive: true });
    await writeFile(
      join(ws.repo, '.deepagents', 'hooks.json'),
      JSON.stringify({ hooks: { UserPromptSubmit: [group(null, sh('echo from project'))] } }),
    );
    const without = JSON.parse((await hookpm(['run', 'UserPromptSubmit', '--json'])).stdout);
    expect(without.context).toEqual([]);
    expect(without.diagnostics.map((d: { code: string }) => d.code)).toEqual(['project_untrusted']);
    const trusted = JSON.parse(
      (await hookpm(['run', 'UserPromptSubmit', '--trust-project-hooks', '--json'])).stdout,
    );
    expect(trusted.context).toEqual(['from project']);
    expect(trusted.runs).toEqual([expect.objectContaining({ origin: 'project', exitCode: 0 })]);
  });

  it('S1/X3: an installed, enabled plugin runs through `hookpm run` (its argv uses ${CLAUDE_PLUGIN_ROOT}) and is reported with its id', async () => {
    const guard = join(ROOT, 'registry-fixtures', 'plugins', 'guard');
    const install = await hookpm(['install', guard, '--yes']);
    expect(install.code).toBe(0);
    const run = await hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], {
      stdin: JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }),
    });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.permission).toMatchObject({ decision: 'deny' });
    expect(result.runs).toEqual([
      expect.objectContaining({
        handler: 'PreToolUse:0:0',
        origin: 'plugin',
        plugin: 'guard@local',
        exitCode: 0,
      }),
    ]);
  });

  it('X3a: a store under a path with a space (as macOS keeps it) runs a Claude Code command with a bare ${CLAUDE_PLUGIN_ROOT}, so its guard denies', async () => {
    const root = await writeClaudePlugin(join(ws.dir, `spaced-${ws.n}`), 'spaced', {
      PreToolUse: [group('Bash', sh('sh ${CLAUDE_PLUGIN_ROOT}/hooks/deny.sh'))],
    });
    await writeFile(join(root, 'hooks', 'deny.sh'), `${DENY_SCRIPT}\n`);
    const env = ws.env({ HOOKPM_HOME: join(ws.home, 'Library', 'Application Support', 'hookpm') });
    expect((await hookpm(['install', root, '--yes'], { env })).code).toBe(0);
    const run = await hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], {
      env,
      stdin: JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }),
    });
    const result = JSON.parse(run.stdout);
    expect(result.runs).toEqual([expect.objectContaining({ plugin: 'spaced@local', exitCode: 0 })]);
    expect(result.permission).toMatchObject({ decision: 'deny', reason: 'spaced' });
  });

  it('X6: a handler whose grandchild holds stdout and ignores SIGTERM, timeout 1: `hookpm run` ends in time and leaves nothing alive', async () => {
    const pidFile = join(ws.dir, `grandchild-${ws.n}`);
    await userHooks({
      SessionEnd: [
        group(null, sh(`exec '${fixture('hold-pipes.sh')}' '${pidFile}'`, { timeout: 1 })),
      ],
    });
    const run = await hookpm(['run', 'SessionEnd', '--json']);
    expect(run.code).toBe(0);
    expect(run.ms).toBeLessThan(4000);
    const result = JSON.parse(run.stdout);
    expect(result.runs[0]).toMatchObject({ timedOut: true, exitCode: null });
    expect(isAlive(await readPid(pidFile))).toBe(false);
  });

  /** `hookpm run Stop` with a user handler that records its pid in `pidFile` and sleeps. */
  async function runSleeper(pidFile: string) {
    await userHooks({
      Stop: [group(null, sh(`exec '${fixture('record-pid-and-sleep.sh')}' '${pidFile}'`))],
    });
    return spawn(process.execPath, [BIN, 'run', 'Stop'], {
      cwd: ws.repo,
      env: ws.env(),
      stdio: 'ignore',
    });
  }

  it('X4: SIGTERM to a `hookpm run` whose handler sleeps leaves no handler process alive', async () => {
    const pidFile = join(ws.dir, `sleeper-${ws.n}`);
    const child = await runSleeper(pidFile);
    expect(await killHostWhileHandlerRuns(child, pidFile, 'SIGTERM', 1000)).toBe(143);
  });

  it('security: SIGKILL of a `hookpm run` whose handler sleeps leaves no handler alive (the watchdog kills it)', async () => {
    const pidFile = join(ws.dir, `killed-${ws.n}`);
    const child = await runSleeper(pidFile);
    expect(await killHostWhileHandlerRuns(child, pidFile, 'SIGKILL')).toBeNull();
  });
});

describe('hookpm run: usage errors (exit 2)', () => {
  it('cli.md 1: an unknown event name is a usage error listing the twelve events and suggesting the nearest', async () => {
    const run = await hookpm(['run', 'pretooluse']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('hookpm: error[E_USAGE]: unknown event "pretooluse"');
    for (const event of EVENT_NAMES) expect(run.stderr).toContain(event);
    expect(run.stderr).toContain('  Did you mean PreToolUse? Event names are case-sensitive.');
  });

  it('cli.md 1: a payload that is not a JSON object is a usage error; with --json the error is JSON on stdout', async () => {
    const array = await hookpm(['run', 'Stop', '--payload', '-'], { stdin: '[1, 2]' });
    expect(array.code).toBe(2);
    expect(array.stderr).toContain('--payload: expected a JSON object in <stdin>, found an array');
    const broken = await hookpm(['run', 'Stop', '--payload', '-', '--json'], {
      stdin: '{"a": 1,}',
    });
    expect(broken.code).toBe(2);
    const error = JSON.parse(broken.stdout).error;
    expect(error.code).toBe('E_USAGE');
    expect(error.message).toMatch(/^--payload: invalid JSON at <stdin>:1:\d+: /);
    const missing = await hookpm(['run', 'Stop', '--payload', 'nope.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot read ${join(ws.repo, 'nope.json')} (ENOENT)`);
    // An empty value is not the current directory read as a file.
    const empty = await hookpm(['run', 'Stop', '--payload', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--payload is empty');
  });

  it('O3: a --continuation-count that is not a non-negative integer is a usage error', async () => {
    const run = await hookpm(['run', 'Stop', '--continuation-count', '-1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '--continuation-count: expected a non-negative integer, found "-1"',
    );
  });
});
