import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveStorePaths } from '../../src/store/paths.js';
import { pluginDataDir } from '../../src/store/plugin-dirs.js';
import { BIN, ensureBuilt, runBin } from '../helpers/built-bin.js';
import { INSTALL_TIMEOUT_MS, requireTool, SCRIPT } from '../helpers/system-package.js';
import { writeTree } from '../store/plugin-tree.js';

/**
 * End to end through the built binary (bin/hookpm.js): install, enable, run, tamper, concurrency
 * and crash safety of the plugin commands (plugins.md, registry.md D3/D4/section 7, security.md
 * "State and the file system"). Every run gets HOME and HOOKPM_HOME in a temporary directory.
 */
let dir: string;
let repo: string;
let n = 0;
let script: string;

beforeAll(async () => {
  script = await requireTool({ ...SCRIPT, neededBy: 'the terminal tests' });
  ensureBuilt();
  dir = await realpath(await mkdtemp(join(tmpdir(), 'hookpm-e2e-plugins-')));
  repo = join(dir, 'repo');
  await mkdir(join(repo, '.git'), { recursive: true });
}, INSTALL_TIMEOUT_MS);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A fresh store; its directory name holds `$(touch pwned)` so V1 is checked on every run. */
async function freshStore(): Promise<{ env: Record<string, string>; home: string; store: string }> {
  n += 1;
  const home = join(dir, `home${n}`);
  const store = join(home, 'store $(touch pwned) `touch pwned2`');
  await mkdir(home, { recursive: true });
  return {
    home,
    store,
    env: { PATH: process.env.PATH ?? '', HOME: home, HOOKPM_HOME: store, NO_COLOR: '1' },
  };
}

const hookpm = (env: Record<string, string>, ...args: string[]) => runBin(args, { env, cwd: repo });

/** plugins.md section 3: the guard plugin records its variables (shell form and argv) and denies `rm -rf`. */
async function writeGuard(root: string, name = 'guard'): Promise<string> {
  const record = [
    'payload=$(cat)',
    'printf "%s\\n" "$CLAUDE_PLUGIN_ROOT" "$PLUGIN_ROOT" "$CLAUDE_PLUGIN_DATA" "$PLUGIN_DATA" "$CLAUDE_PROJECT_DIR" > "$CLAUDE_PLUGIN_DATA/env.txt"',
    'case "$payload" in *"rm -rf"*) printf \'%s\' \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf blocked"}}\';; esac',
  ].join('\n');
  const argvScript =
    "import { writeFileSync } from 'node:fs';\nconst args = process.argv.slice(2);\nwriteFileSync(args[2] + '/argv.json', JSON.stringify(args));\n";
  const vars = [
    '${CLAUDE_PLUGIN_ROOT}',
    '${PLUGIN_ROOT}',
    '${CLAUDE_PLUGIN_DATA}',
    '${PLUGIN_DATA}',
    '${CLAUDE_PROJECT_DIR}',
    '$CLAUDE_PLUGIN_ROOT',
  ];
  const hooks = {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: 'sh "${CLAUDE_PLUGIN_ROOT}/guard.sh"' },
            {
              type: 'command',
              argv: [process.execPath, '${CLAUDE_PLUGIN_ROOT}/argv.mjs', ...vars],
            },
          ],
        },
      ],
    },
  };
  const path = join(root, name);
  await writeTree(path, {
    'plugin.json': { json: { name, version: '1.0.0', description: 'denies rm -rf' } },
    'hooks/hooks.json': { json: hooks },
    'guard.sh': `#!/bin/sh\n${record}\n`,
    'argv.mjs': argvScript,
  });
  return path;
}

const rmPayload = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });

async function runPreToolUse(env: Record<string, string>) {
  const payload = join(dir, `payload-${n}.json`);
  await writeFile(payload, rmPayload);
  const run = await hookpm(env, 'run', 'PreToolUse', '--payload', payload, '--json');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as {
    permission: { decision: string; reason?: string | null } | null;
    diagnostics: Array<{ code: string; plugin?: string }>;
    runs: unknown[];
  };
}

/** Runs hookpm under a pseudo-terminal (util-linux `script`) and answers its question with `answer`. */
function onTty(
  env: Record<string, string>,
  args: string,
  answer: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(script, ['-qec', `'${process.execPath}' '${BIN}' ${args}`, '/dev/null'], {
      env: { ...env, TERM: 'dumb' },
      cwd: repo,
    });
    let output = '';
    let answered = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!answered && output.includes('[y/N]')) {
        answered = true;
        child.stdin.write(`${answer}\n`);
      }
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function stateOf(store: string) {
  return JSON.parse(await readFile(join(store, 'data', 'state.json'), 'utf8')) as {
    plugins: Record<string, { path: string; enabled: boolean }>;
  };
}

describe('plugins end to end', () => {
  it('Q4, V1-V3: a PreToolUse hook that denies rm -rf runs only after `enable --yes`, with the plugin variables in env and argv', async () => {
    const { env, store } = await freshStore();
    const guard = await writeGuard(join(dir, `src${n}`));
    // Without a terminal and without --yes: installed, disabled, and the command fails naming
    // the --yes that answers it (as enable and update do).
    const install = await hookpm(env, 'install', guard);
    expect(install.code, install.stderr).toBe(1);
    expect(install.stderr).toContain(
      'hookpm: error[E_CONSENT_REQUIRED]: guard@local: installed but not enabled',
    );
    expect(install.stderr).toContain('`hookpm enable guard@local --yes`');
    const listed = JSON.parse((await hookpm(env, 'list', '--json')).stdout);
    expect(listed.plugins).toMatchObject([
      {
        id: 'guard@local',
        enabled: false,
        events: ['PreToolUse'],
        registry: 'local',
        source: guard,
      },
    ]);

    const before = await runPreToolUse(env);
    expect(before.permission).toBeNull();
    expect(before.runs).toEqual([]);

    const enable = await hookpm(env, 'enable', 'guard', '--yes');
    expect(enable.code, enable.stderr).toBe(0);
    const after = await runPreToolUse(env);
    expect(after.permission).toMatchObject({ decision: 'deny', reason: 'rm -rf blocked' });

    const root = (await stateOf(store)).plugins['guard@local']!.path;
    const data = pluginDataDir(resolveStorePaths({ HOOKPM_HOME: store }), 'guard@local');
    expect((await readFile(join(data, 'env.txt'), 'utf8')).split('\n').slice(0, 5)).toEqual([
      root,
      root,
      data,
      data,
      repo,
    ]);
    expect(JSON.parse(await readFile(join(data, 'argv.json'), 'utf8'))).toEqual([
      root,
      root,
      data,
      data,
      repo,
      '$CLAUDE_PLUGIN_ROOT',
    ]);
    for (const where of [repo, dir, root, store]) {
      expect(
        existsSync(join(where, 'pwned')) || existsSync(join(where, 'pwned2')),
        `V1: nothing ran in ${where}`,
      ).toBe(false);
    }

    const hooks = JSON.parse((await hookpm(env, 'hooks', '--json')).stdout);
    expect(
      hooks.handlers.map((h: { id: string; origin: string; plugin: string }) => [
        h.id,
        h.origin,
        h.plugin,
      ]),
    ).toEqual([
      ['PreToolUse:0:0', 'plugin', 'guard@local'],
      ['PreToolUse:0:1', 'plugin', 'guard@local'],
    ]);
  });

  it('Q6, B2: editing an installed script leaves the plugin out with plugin_tampered and fails closed; install --force restores it', async () => {
    const { env, store } = await freshStore();
    const guard = await writeGuard(join(dir, `src${n}`));
    expect((await hookpm(env, 'install', guard, '--yes')).code).toBe(0);
    const root = (await stateOf(store)).plugins['guard@local']!.path;
    await writeFile(join(root, 'guard.sh'), '#!/bin/sh\ncat >/dev/null\n');
    const tampered = await runPreToolUse(env);
    expect(tampered.permission?.reason).toMatch(/^hookpm fails closed: plugin guard@local/);
    expect(tampered.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'plugin_tampered', plugin: 'guard@local' }),
    );
    const human = await hookpm(env, 'hooks');
    expect(human.stderr).toContain('plugin_tampered');
    expect((await hookpm(env, 'install', '--force', guard)).code).toBe(0);
    expect((await runPreToolUse(env)).permission).toMatchObject({ decision: 'deny' });
  });

  it('D3: two installs of different plugins started together both succeed, and list shows both', async () => {
    const { env } = await freshStore();
    const a = await writeGuard(join(dir, `src${n}`), 'alpha');
    const b = await writeGuard(join(dir, `src${n}`), 'beta');
    const [ra, rb] = await Promise.all([
      hookpm(env, 'install', a, '--yes'),
      hookpm(env, 'install', b, '--yes'),
    ]);
    expect([ra.code, rb.code], ra.stderr + rb.stderr).toEqual([0, 0]);
    const listed = JSON.parse((await hookpm(env, 'list', '--json')).stdout);
    expect(listed.plugins.map((p: { id: string; enabled: boolean }) => [p.id, p.enabled])).toEqual([
      ['alpha@local', true],
      ['beta@local', true],
    ]);
  });

  it('D2, D4: a SIGKILL at random moments of an install (20 trials) never leaves a state list cannot read or one naming a missing directory', async () => {
    const { env, store } = await freshStore();
    const src = join(dir, `src${n}`);
    const specs: string[] = [];
    for (const name of ['k0', 'k1', 'k2']) {
      const path = await writeGuard(src, name);
      for (let f = 0; f < 60; f += 1)
        await writeFile(join(path, `file-${f}.txt`), `${name} ${f}\n`.repeat(200));
      specs.push(path);
    }
    expect((await hookpm(env, 'install', specs[0]!, '--yes')).code).toBe(0);
    const timed = await hookpm(env, 'install', '--force', specs[1]!, '--yes');
    const window = Math.max(50, timed.ms);
    let interrupted = 0;
    for (let trial = 0; trial < 20; trial += 1) {
      const spec = specs[trial % 3]!;
      await writeFile(join(spec, 'file-0.txt'), `trial ${trial}\n`); // new files: a real install each time
      const child = spawn(process.execPath, [BIN, 'install', '--force', spec, '--yes'], {
        env,
        cwd: repo,
        stdio: 'ignore',
      });
      const closed = new Promise((resolve) => child.on('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, Math.random() * window));
      child.kill('SIGKILL');
      await closed;
      const staging = await readdir(join(store, 'data', '.staging')).catch(() => []);
      if (staging.length > 0 || existsSync(join(store, 'data', '.lock'))) interrupted += 1;
      const list = await hookpm(env, 'list', '--json');
      expect(list.code, `trial ${trial}: ${list.stderr}${list.stdout}`).toBe(0);
      const state = await stateOf(store);
      for (const [id, record] of Object.entries(state.plugins)) {
        expect(
          (await stat(record.path)).isDirectory(),
          `trial ${trial}: ${id} names ${record.path}`,
        ).toBe(true);
      }
      expect(JSON.parse(list.stdout).plugins.map((p: { id: string }) => p.id)).toEqual(
        Object.keys(state.plugins).sort(),
      );
    }
    // Some kills must land inside the transaction (lock held or staging in use) for this to test anything.
    expect(interrupted).toBeGreaterThan(0);
    // The next command that holds the lock recovers it from the killed holder and collects leftovers.
    const after = await hookpm(env, 'install', '--force', specs[0]!, '--yes');
    expect(after.code, after.stderr).toBe(0);
    expect(await readdir(join(store, 'data', '.staging'))).toEqual([]);
    const state = await stateOf(store);
    const trees = (await readdir(join(store, 'data', 'plugins'), { recursive: true })).filter(
      (p) => p.split('/').length === 2,
    );
    expect(trees.length).toBe(Object.keys(state.plugins).length);
  }, 60_000);

  it('uninstall --keep-data, disable and the human outputs through the CLI', async () => {
    const { env, store } = await freshStore();
    const guard = await writeGuard(join(dir, `src${n}`));
    expect((await hookpm(env, 'install', guard, '--yes')).code).toBe(0);
    const disable = await hookpm(env, 'disable', 'guard');
    expect([disable.code, disable.stdout.trim()], disable.stderr).toEqual([
      0,
      'disabled guard@local',
    ]);
    expect((await hookpm(env, 'list')).stdout).toMatch(/guard@local\s+1\.0\.0\s+disabled/);
    const data = pluginDataDir(resolveStorePaths({ HOOKPM_HOME: store }), 'guard@local');
    const uninstall = await hookpm(env, 'uninstall', 'guard', '--keep-data', '--json');
    expect(JSON.parse(uninstall.stdout)).toMatchObject({
      uninstalled: [{ id: 'guard@local', version: '1.0.0', keptData: true, dataDir: null }],
      dryRun: false,
    });
    expect((await stat(data)).isDirectory()).toBe(true);
    expect(JSON.parse((await hookpm(env, 'list', '--json')).stdout)).toEqual({
      schemaVersion: 1,
      plugins: [],
    });
  });

  it('Q4: on a TTY, install shows the review and asks; "y" enables; a declined widened update stays pending (Q5), its question showing argv and the changed script', async () => {
    const { env } = await freshStore();
    const guard = await writeGuard(join(dir, `src${n}`));
    const first = await onTty(env, `install ${guard}`, 'y');
    expect(first.output).toContain('surface:');
    expect(first.output).toContain('command "sh \\"${CLAUDE_PLUGIN_ROOT}/guard.sh\\""');
    expect(first.output).toContain('installed guard@local 1.0.0 (enabled)');
    const listed = JSON.parse((await hookpm(env, 'list', '--json')).stdout);
    expect(listed.plugins).toMatchObject([{ id: 'guard@local', enabled: true, active: true }]);
    await writeFile(
      join(guard, 'plugin.json'),
      JSON.stringify({ name: 'guard', version: '1.1.0' }),
    );
    const hooks = JSON.parse(await readFile(join(guard, 'hooks/hooks.json'), 'utf8'));
    hooks.hooks.Stop = [{ hooks: [{ type: 'command', command: 'echo more' }] }];
    await writeFile(join(guard, 'hooks/hooks.json'), JSON.stringify(hooks));
    const script = await readFile(join(guard, 'guard.sh'), 'utf8');
    await writeFile(join(guard, 'guard.sh'), `${script}echo changed\n`);
    const update = await onTty(env, `install ${guard}`, 'n');
    expect(update.output).toContain('+ Stop command "echo more"');
    // The question shows argv beside the command, and the code changed since consent.
    expect(update.output).toMatch(/argv \["[^"]+","\$\{CLAUDE_PLUGIN_ROOT\}\/argv\.mjs"/);
    expect(update.output).toMatch(/~ guard\.sh {2}\+1 -0 lines/);
    expect(update.output).toContain('+echo changed');
    expect(JSON.parse((await hookpm(env, 'list', '--json')).stdout).plugins).toMatchObject([
      { version: '1.0.0', pending: '1.1.0', active: true },
    ]);
  });

  it('Q4: enable without a TTY and without --yes fails with E_CONSENT_REQUIRED (exit 1, --json error shape)', async () => {
    const { env } = await freshStore();
    const guard = await writeGuard(join(dir, `src${n}`));
    await hookpm(env, 'install', guard);
    const enable = await hookpm(env, 'enable', 'guard', '--json');
    expect(enable.code).toBe(1);
    expect(JSON.parse(enable.stdout).error).toMatchObject({
      code: 'E_CONSENT_REQUIRED',
      hint: expect.stringContaining('--yes'),
    });
  });

  it('Q3: the human review escapes control characters from the plugin; validate <dir> reports kind plugin', async () => {
    const { env } = await freshStore();
    const path = join(dir, `src${n}`, 'loud');
    await writeTree(path, {
      'plugin.json': {
        json: { name: 'loud', version: '1.0.0', description: 'clears \u001b[2J the screen' },
      },
      'hooks/hooks.json': {
        json: {
          hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo \u001b]0;title\u0007' }] }] },
        },
      },
    });
    const review = await hookpm(env, 'review', path);
    expect(review.code, review.stderr).toBe(0);
    expect(review.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(review.stdout).toContain('clears \\u001b[2J the screen');
    const validate = await hookpm(env, 'validate', path, '--json');
    expect(JSON.parse(validate.stdout)).toMatchObject({
      ok: true,
      kind: 'plugin',
      events: ['Stop'],
    });
  });

  it('--version prints the package version; list honours --home', async () => {
    const { env, home } = await freshStore();
    const pkg = JSON.parse(await readFile(join(BIN, '..', '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect((await hookpm(env, '--version')).stdout).toBe(`${pkg.version}\n`);
    const other = join(home, 'other-home');
    const guard = await writeGuard(join(dir, `src${n}`));
    expect((await hookpm(env, '--home', other, 'install', guard, '--no-enable')).code).toBe(0);
    expect(
      JSON.parse((await hookpm(env, 'list', '--home', other, '--json')).stdout).plugins,
    ).toHaveLength(1);
    expect(JSON.parse((await hookpm(env, 'list', '--json')).stdout).plugins).toHaveLength(0);
  });
});
