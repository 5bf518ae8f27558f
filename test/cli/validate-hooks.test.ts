import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from '../helpers/built-bin.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'dist', 'cli', 'main.js');

let dir: string;
let home: string;
let hookpmHome: string;

beforeAll(async () => {
  ensureBuilt();
  dir = await realpath(await mkdtemp(join(tmpdir(), 'hookpm-cli-')));
  home = join(dir, 'home');
  hookpmHome = join(dir, 'hookpm-home');
  await mkdir(home, { recursive: true });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function hookpm(args: string[], cwd = dir): Run {
  const env = { PATH: process.env.PATH ?? '', HOME: home, HOOKPM_HOME: hookpmHome, NO_COLOR: '1' };
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function writeJson(file: string, value: unknown): Promise<string> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2));
  return file;
}

const handler = (command: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command,
  ...extra,
});

/**
 * A fault of each kind (C1): a bad regex, an unknown event, async: true (inert in the engine, with
 * a warning: plugins.md G3), a timeout of 0 and a valid sibling.
 */
const ACCEPTANCE = {
  hooks: {
    PreToolUse: [
      { matcher: '([', hooks: [handler('echo bad-regex')] },
      {
        matcher: 'Bash',
        hooks: [
          handler('echo async', { async: true }),
          handler('echo zero', { timeout: 0 }),
          handler('echo valid', { timeout: 5 }),
        ],
      },
    ],
    OnSave: [{ hooks: [handler('echo unknown-event')] }],
  },
};

describe('hookpm --version and --help', () => {
  it('cli.md section 1: --version prints the package version and exits 0', () => {
    const version = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
    ).version;
    const run = hookpm(['--version']);
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('cli.md section 1: -v prints the version as --version does', () => {
    expect(hookpm(['-v'])).toEqual(hookpm(['--version']));
    expect(hookpm(['-v']).code).toBe(0);
  });

  it('cli.md section 2: every command has --help with an example', async () => {
    const { buildProgram } = (await import(MAIN)) as typeof import('../../src/cli/main.js');
    const names = buildProgram().commands.map((c) => c.name());
    expect(names).toEqual(expect.arrayContaining(['validate', 'hooks']));
    for (const args of [[], ...names.map((n) => [n])]) {
      const run = hookpm([...args, '--help']);
      expect(run.code, `hookpm ${args.join(' ')} --help`).toBe(0);
      expect(run.stdout).toMatch(/Example:\n\s+\$ hookpm /);
    }
    expect(hookpm(['help', 'validate'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('Example:'),
    });
  });

  it('cli.md section 1: no command at all is a usage error (exit 2), with the help on stderr', () => {
    const run = hookpm([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Usage: hookpm');
  });
});

describe('hookpm validate', () => {
  it('C1, a fault of each kind: one diagnostic per problem, the valid handler kept, exit 1 (--json)', async () => {
    const file = await writeJson(join(dir, 'acceptance', 'hooks.json'), ACCEPTANCE);
    const run = hookpm(['validate', file, '--json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as {
      ok: boolean;
      kind: string;
      events: string[];
      diagnostics: { code: string; path: string; severity: string; message: string }[];
    };
    expect(report).toMatchObject({ ok: false, kind: 'hooks', events: ['PreToolUse'] });
    expect(report.diagnostics.map((d) => [d.severity, d.code, d.path]).sort()).toEqual(
      [
        ['error', 'invalid_config', `${file}:hooks.OnSave`],
        ['warning', 'unsupported_field', `${file}:hooks.PreToolUse[1].hooks[0]`],
        ['error', 'invalid_config', `${file}:hooks.PreToolUse[1].hooks[1]`],
        ['error', 'invalid_matcher', `${file}:hooks.PreToolUse[0].matcher`],
      ].sort(),
    );
    for (const d of report.diagnostics) expect(d.message.length).toBeGreaterThan(5);
  });

  it('a fault of each kind: the readable form prints one line per diagnostic and a summary, exit 1', async () => {
    const file = await writeJson(join(dir, 'acceptance-human', 'hooks.json'), ACCEPTANCE);
    const run = hookpm(['validate', file]);
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines.filter((l) => /^error (invalid_config|invalid_matcher) /.test(l))).toHaveLength(3);
    expect(lines.at(-1)).toMatch(/invalid hooks: 3 error\(s\), 1 warning\(s\); events: PreToolUse/);
  });

  it('C1, a fault of each kind: the valid handler is visible in `hookpm hooks`, with its R2 id', async () => {
    const userHome = join(dir, 'acceptance-home');
    await writeJson(join(userHome, '.deepagents', 'hooks.json'), ACCEPTANCE);
    const env = { PATH: process.env.PATH ?? '', HOME: userHome, HOOKPM_HOME: hookpmHome };
    const result = spawnSync(process.execPath, [BIN, 'hooks', '--json'], {
      cwd: dir,
      env,
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    const listing = JSON.parse(result.stdout) as {
      snapshotId: string;
      handlers: Record<string, unknown>[];
      diagnostics: { code: string }[];
    };
    expect(listing.snapshotId).toMatch(/^[0-9a-f]{64}$/);
    expect(listing.handlers).toEqual([
      {
        id: 'PreToolUse:1:2',
        event: 'PreToolUse',
        origin: 'user',
        plugin: null,
        key: null,
        matcher: 'Bash',
        if: null,
        command: 'echo valid',
        argv: null,
        shell: null,
        timeout: 5,
        statusMessage: null,
        source: join(userHome, '.deepagents', 'hooks.json'),
      },
    ]);
    expect(listing.diagnostics.map((d) => d.code).sort()).toEqual([
      'invalid_config',
      'invalid_config',
      'invalid_matcher',
      'unsupported_field',
    ]);
  });

  it('a plugin whose hooks are all invalid hooks nothing: validate <dir> fails (exit 1) with their errors', async () => {
    const plugin = join(dir, 'all-invalid');
    await writeJson(join(plugin, 'plugin.json'), { name: 'all-invalid', version: '1.0.0' });
    await writeJson(join(plugin, 'hooks', 'hooks.json'), {
      hooks: {
        PreToolUse: [{ hooks: [{ type: 'command' }] }],
        NoSuchEvent: [{ hooks: [handler('true')] }],
      },
    });
    const run = hookpm(['validate', plugin]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^error invalid_config hooks\/hooks\.json:hooks\.PreToolUse/m);
    expect(run.stdout).toMatch(/^error invalid_config hooks\/hooks\.json:hooks\.NoSuchEvent/m);
    expect(run.stdout).toContain('invalid plugin: 2 error(s), 0 warning(s); events: none');
    expect(JSON.parse(hookpm(['validate', plugin, '--json']).stdout)).toMatchObject({ ok: false });
    // One valid hook beside them: the plugin hooks something, and the others stay warnings.
    await writeJson(join(plugin, 'hooks', 'hooks.json'), {
      hooks: {
        PreToolUse: [{ hooks: [{ type: 'command' }] }],
        Stop: [{ hooks: [handler('true')] }],
      },
    });
    const some = hookpm(['validate', plugin]);
    expect(some.code).toBe(0);
    expect(some.stdout).toContain('valid plugin: 0 error(s), 1 warning(s); events: Stop');
  });

  it('C3: unknown keys are warnings (exit 0); --strict turns them into errors (exit 1)', async () => {
    const file = await writeJson(join(dir, 'unknown-key', 'hooks.json'), {
      hooks: { Stop: [{ hooks: [handler('echo ok', { description: 'extra' })] }] },
    });
    const lax = hookpm(['validate', file, '--json']);
    expect(lax.code).toBe(0);
    expect(JSON.parse(lax.stdout)).toMatchObject({
      ok: true,
      events: ['Stop'],
      diagnostics: [{ severity: 'warning', code: 'unknown_key' }],
    });
    const strict = hookpm(['validate', '--strict', file, '--json']);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.stdout)).toMatchObject({
      ok: false,
      diagnostics: [{ severity: 'error', code: 'unknown_key' }],
    });
  });

  it('E5, F3: validate compiles matchers and if rules like the snapshot does', async () => {
    const file = await writeJson(join(dir, 'compile', 'hooks.json'), {
      hooks: {
        Stop: [{ matcher: 'Bash', hooks: [handler('echo x')] }],
        PreToolUse: [
          { matcher: 'Bash', hooks: [handler('echo y', { if: 'Bash(' })] },
          { matcher: '(a+)+', hooks: [handler('z')] },
        ],
      },
    });
    const report = JSON.parse(hookpm(['validate', file, '--json']).stdout) as {
      events: string[];
      diagnostics: { code: string }[];
    };
    expect(report.diagnostics.map((d) => d.code).sort()).toEqual([
      'invalid_if',
      'unsafe_matcher',
      'unsupported_matcher',
    ]);
    expect(report.events).toEqual([]);
  });

  it('plugins.md P4: a duplicate key in a hooks file is a duplicate_key warning at its line and column (exit 0; --strict: 1)', async () => {
    const file = join(dir, 'duplicate.json');
    await writeFile(
      file,
      '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a", "command": "b"}]}]}}',
    );
    const lax = hookpm(['validate', file, '--json']);
    expect(lax.code).toBe(0);
    expect(JSON.parse(lax.stdout)).toMatchObject({
      ok: true,
      events: ['Stop'],
      diagnostics: [{ severity: 'warning', code: 'duplicate_key', path: `${file}:1:68` }],
    });
    expect(hookpm(['validate', '--strict', file, '--json']).code).toBe(1);
  });

  it('S5: invalid JSON is config_read_failed with file, line and column, exit 1', async () => {
    const file = join(dir, 'broken.json');
    await writeFile(file, '{\n  "hooks": {\n    "Stop": [,]\n  }\n}\n');
    const run = hookpm(['validate', file, '--json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { diagnostics: { code: string; message: string }[] };
    expect(report.diagnostics).toHaveLength(1);
    expect(report.diagnostics[0]?.code).toBe('config_read_failed');
    expect(report.diagnostics[0]?.message).toContain(`${file}:3:`);
  });

  it('cli.md section 1: a missing file fails with E_NOT_FOUND (exit 1), as words or as one JSON error', () => {
    const missing = join(dir, 'nope.json');
    const human = hookpm(['validate', missing]);
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(/^hookpm: error\[E_NOT_FOUND\]: .*nope\.json.*\n {2}\S/);
    const json = hookpm(['validate', missing, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { code: 'E_NOT_FOUND', hint: expect.any(String) },
    });
  });

  it('cli.md section 1: usage errors exit 2 (missing argument, unknown option, unknown command)', () => {
    for (const args of [['validate'], ['validate', 'x.json', '--bogus'], ['frobnicate']]) {
      const run = hookpm(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^hookpm: error\[E_USAGE\]: /);
    }
    const json = hookpm(['validate', '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'E_USAGE' } });
  });
});

describe('hookpm hooks', () => {
  it('S3, S4, T5: project hooks load only with --trust-project-hooks, before user hooks, from --cwd', async () => {
    const userHome = join(dir, 'trust-home');
    const repo = join(dir, 'trust-repo');
    await mkdir(join(repo, '.git', 'x'), { recursive: true });
    await writeJson(join(repo, '.deepagents', 'hooks.json'), {
      hooks: { Stop: [{ hooks: [handler('project')] }] },
    });
    await writeJson(join(userHome, '.deepagents', 'hooks.json'), {
      hooks: { Stop: [{ hooks: [handler('user')] }] },
    });
    const env = { PATH: process.env.PATH ?? '', HOME: userHome, HOOKPM_HOME: hookpmHome };
    const list = (...extra: string[]) => {
      const r = spawnSync(
        process.execPath,
        [BIN, 'hooks', '--json', '--cwd', join(repo, '.git', 'x'), ...extra],
        { cwd: dir, env, encoding: 'utf8' },
      );
      expect(r.status).toBe(0);
      return JSON.parse(r.stdout) as {
        snapshotId: string;
        handlers: { id: string; command: string; origin: string }[];
      };
    };
    const untrusted = list();
    expect(untrusted.handlers.map((h) => [h.id, h.origin, h.command])).toEqual([
      ['Stop:0:0', 'user', 'user'],
    ]);
    const trusted = list('--trust-project-hooks');
    expect(trusted.handlers.map((h) => [h.id, h.origin, h.command])).toEqual([
      ['Stop:0:0', 'project', 'project'],
      ['Stop:1:0', 'user', 'user'],
    ]);
    expect(list('--trust-project-hooks').snapshotId).toBe(trusted.snapshotId);
    expect(trusted.snapshotId).not.toBe(untrusted.snapshotId);
  });

  it('hooks shows the exec form: argv (from argv, or command with args) and shell "bash", readable and --json', async () => {
    const userHome = join(dir, 'exec-form-home');
    await writeJson(join(userHome, '.deepagents', 'hooks.json'), {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              handler('node', { args: ['check.mjs', 'a b'] }),
              handler('echo $BASH_VERSION', { shell: 'bash' }),
              handler('echo plain'),
              handler('echo x', { argv: ['echo', 'x'] }),
            ],
          },
        ],
      },
    });
    const env = { PATH: process.env.PATH ?? '', HOME: userHome, HOOKPM_HOME: hookpmHome };
    const json = spawnSync(process.execPath, [BIN, 'hooks', '--json'], {
      cwd: dir,
      env,
      encoding: 'utf8',
    });
    expect(json.status, json.stderr).toBe(0);
    const handlers = (JSON.parse(json.stdout) as { handlers: Record<string, unknown>[] }).handlers;
    expect(handlers.map((h) => [h['command'], h['argv'], h['shell']])).toEqual([
      ['node', ['node', 'check.mjs', 'a b'], null],
      ['echo $BASH_VERSION', null, 'bash'],
      ['echo plain', null, null],
      ['echo x', ['echo', 'x'], null],
    ]);
    const r = spawnSync(process.execPath, [BIN, 'hooks'], {
      cwd: dir,
      env: { ...env, COLUMNS: '200' },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const rows = r.stdout.split('\n');
    expect(rows.find((l) => l.startsWith('PreToolUse:0:0'))).toMatch(
      / \["node","check\.mjs","a b"\]$/,
    );
    expect(rows.find((l) => l.startsWith('PreToolUse:0:1'))).toMatch(
      / \(bash\) echo \$BASH_VERSION$/,
    );
    expect(rows.find((l) => l.startsWith('PreToolUse:0:2'))).toMatch(/600s +echo plain$/);
  });

  it('cli.md section 1: the readable table escapes control characters from hooks files', async () => {
    const userHome = join(dir, 'escape-home');
    await writeJson(join(userHome, '.deepagents', 'hooks.json'), {
      hooks: {
        SessionStart: [
          { matcher: 'startup', hooks: [handler('echo \u001b[31mred\u001b[0m\nnext')] },
        ],
      },
    });
    const env = { PATH: process.env.PATH ?? '', HOME: userHome, HOOKPM_HOME: hookpmHome };
    const r = spawnSync(process.execPath, [BIN, 'hooks'], { cwd: dir, env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toContain('echo \\u001b[31mred\\u001b[0m\\nnext');
    expect(r.stdout).toMatch(/^ID\s+ORIGIN\s+MATCHER/);
    expect(r.stdout).toMatch(/SessionStart:0:0\s+user\s+startup/);
    expect(r.stdout).toMatch(/snapshot [0-9a-f]{64}/);
  });
});
