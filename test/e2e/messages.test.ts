/**
 * Messages, with the built binary (real child processes, a registry on 127.0.0.1, real
 * pseudo-terminals for questions): suggestions by edit distance, commander's messages in hookpm's
 * style, the lock-wait notice, inline --payload JSON, `install --yes` of a disabled plugin, the
 * update question, Ctrl+C at a question (exit 130), the trust question listing the project hooks,
 * diagnostics graded by what the user can do, `info npm:<pkg>` and DNS failures not retried.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lockFile, resolveStorePaths } from '../../src/store/paths.js';
import { runBin } from '../helpers/built-bin.js';
import { startVerdaccio, VERDACCIO_START_TIMEOUT_MS } from '../helpers/verdaccio.js';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { hookpmOnTty, requireTty, startOnTty } from '../helpers/pty.js';
import { INSTALL_TIMEOUT_MS } from '../helpers/system-package.js';
import { useRegistryHome } from '../helpers/registry-home.js';

const ctx = useRegistryHome('hookpm-messages-e2e-');
const { hookpm, ok, store } = ctx;
beforeAll(() => requireTty(), INSTALL_TIMEOUT_MS);
beforeEach(async () => {
  ctx.home.env.NO_COLOR = '1';
  await publishPlugin(ctx.acme, 'mine', '1.0.0', { PreToolUse: ['echo check'] });
  await ok('registry', 'add', 'acme', ctx.acme.url);
});
const onTty = (args: string[], steps: Array<{ when: string; keys: string }>) =>
  hookpmOnTty(args, steps, { env: ctx.home.env, cwd: ctx.home.dir });

interface JsonError {
  error: { code: string; message: string; hint: string | null };
}

/** `args --json` fails with `code`, leaving the store byte-identical; returns the error. */
async function refused(exit: number, code: string, ...args: string[]): Promise<JsonError['error']> {
  const before = await store();
  const run = await hookpm([...args, '--json']);
  expect(run.code, run.stderr).toBe(exit);
  const { error } = JSON.parse(run.stdout) as JsonError;
  expect(error.code).toBe(code);
  expect(await store()).toEqual(before);
  return error;
}

describe('suggestions by edit distance', () => {
  it('install, info and uninstall of a misspelt name suggest the known plugin names; install Guard suggests guard', async () => {
    expect((await refused(1, 'E_NOT_FOUND', 'install', 'gaurd')).hint).toMatch(
      /^Did you mean guard\?\n/,
    );
    expect((await refused(1, 'E_NOT_FOUND', 'install', 'mien')).hint).toMatch(
      /^Did you mean mine\?/,
    );
    expect((await refused(1, 'E_NOT_FOUND', 'info', 'gaurd')).hint).toMatch(
      /^Did you mean guard\?/,
    );
    expect((await refused(1, 'E_NAME_INVALID', 'install', 'Guard')).hint).toMatch(
      /^Did you mean guard\?/,
    );
    expect((await refused(1, 'E_NAME_INVALID', 'info', 'Guard')).hint).toMatch(
      /^Did you mean guard\?/,
    );
    await ok('install', 'mine', '--yes');
    expect((await refused(1, 'E_NOT_INSTALLED', 'uninstall', 'mien')).hint).toMatch(
      /^Did you mean mine\?/,
    );
    // Nothing close: no suggestion, the usual hint.
    expect((await refused(1, 'E_NOT_FOUND', 'install', 'zzzzzzzz')).hint).not.toContain(
      'Did you mean',
    );
    const human = await hookpm(['install', 'gaurd']);
    expect(human.stderr).toBe(
      [
        'hookpm: error[E_NOT_FOUND]: no registry has a plugin named gaurd',
        '  Did you mean guard?',
        '  Run `hookpm search` to see what the registries offer, or `hookpm registry update` to refresh them.',
        '',
      ].join('\n'),
    );
  });

  it('registry names and event names are suggested: registry remove, name@registry, search --event stop, run stop', async () => {
    expect((await refused(1, 'E_NOT_FOUND', 'registry', 'remove', 'acm')).hint).toMatch(
      /^Did you mean acme\?/,
    );
    expect((await refused(1, 'E_NOT_FOUND', 'registry', 'update', 'exmaples')).hint).toMatch(
      /^Did you mean examples\?/,
    );
    expect((await refused(1, 'E_NO_MATCHING_VERSION', 'install', 'mine@acm')).hint).toMatch(
      /^Did you mean acme\?/,
    );
    expect((await refused(2, 'E_USAGE', 'search', '--event', 'stop')).hint).toMatch(
      /^Did you mean Stop\?/,
    );
    expect((await refused(2, 'E_USAGE', 'run', 'stop')).hint).toMatch(/^Did you mean Stop\?/);
    expect((await refused(2, 'E_USAGE', 'run', 'PreTolUse')).hint).toMatch(
      /^Did you mean PreToolUse\?/,
    );
  });

  it("commander's errors come in hookpm's style: no literal \\n, the suggestion on the hint's first line, exit 2", async () => {
    const command = await hookpm(['instal']);
    expect(command.code).toBe(2);
    expect(command.stderr).toBe(
      'hookpm: error[E_USAGE]: unknown command "instal"\n  Did you mean install?\n  Run `hookpm help` for the commands.\n',
    );
    const option = await hookpm(['install', '--yess', 'mine']);
    expect(option.code).toBe(2);
    expect(option.stderr).toBe(
      'hookpm: error[E_USAGE]: unknown option "--yess"\n  Did you mean --yes?\n  Run `hookpm install --help` for the options and an example.\n',
    );
    const json = await refused(2, 'E_USAGE', 'instal');
    expect(json).toEqual({
      code: 'E_USAGE',
      message: 'unknown command "instal"',
      hint: 'Did you mean install?\nRun `hookpm help` for the commands.',
      suggestions: ['install'],
    });
  });
});

describe('waits, payloads, --yes and questions', () => {
  it('a command waiting a second for the store lock says on stderr which command and process hold it', async () => {
    await ok('install', 'guard', '--yes');
    const lock = lockFile(resolveStorePaths({ HOOKPM_HOME: ctx.home.env.HOOKPM_HOME }));
    // The consent question is asked with the store lock held (registry.md section 7, step 6).
    const first = startOnTty(['install', 'mine'], { env: ctx.home.env, cwd: ctx.home.dir });
    await first.shown('[y/N]');
    const holder = JSON.parse(await readFile(lock, 'utf8')) as { pid: number; command: string };
    expect(holder.command).toBe('hookpm install mine');
    const started = performance.now();
    const waiting = hookpm(['disable', 'guard']);
    await new Promise((r) => setTimeout(r, 2000));
    first.type('n\r');
    const second = await waiting;
    expect((await first.done).code).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(performance.now() - started).toBeGreaterThan(1000);
    expect(second.stderr).toContain(
      `hookpm: waiting for \`hookpm install mine\` (process ${holder.pid}, running since `,
    );
    expect(second.stderr).toContain(`to release the lock ${lock}\n`);
    // An uncontended command says nothing of locks.
    expect((await hookpm(['enable', 'guard', '--yes'])).stderr).not.toContain('waiting for');
  }, 60_000);

  it('--payload takes inline JSON; broken inline JSON is E_USAGE naming where', async () => {
    const out = join(ctx.home.dir, 'payload.json');
    await mkdir(join(ctx.home.dir, '.deepagents'), { recursive: true });
    await writeFile(
      join(ctx.home.dir, '.deepagents', 'hooks.json'),
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: 'command', command: `cat > '${out}'` }] }] },
      }),
    );
    await ok('run', 'Stop', '--payload', '{"marker":"inline-42"}');
    expect(JSON.parse(await readFile(out, 'utf8'))).toMatchObject({ marker: 'inline-42' });
    const broken = await refused(2, 'E_USAGE', 'run', 'Stop', '--payload', '{"marker":');
    expect(broken.message).toContain('--payload: invalid JSON at <--payload>:1:');
    const array = await refused(2, 'E_USAGE', 'run', 'Stop', '--payload', ' {} x');
    expect(array.message).toContain('<--payload>');
  });

  it('install X --yes of an installed but disabled X enables it and says so', async () => {
    await ok('install', 'mine', '--no-enable');
    const again = await ok('install', 'mine', '--yes');
    expect(again.stderr).toContain(
      'mine@acme 1.0.0 was already installed, but disabled; --yes enabled it',
    );
    const listed = JSON.parse((await ok('list', '--json')).stdout) as {
      plugins: Array<{ id: string; enabled: boolean; active: boolean }>;
    };
    expect(listed.plugins).toMatchObject([{ id: 'mine@acme', enabled: true, active: true }]);
    // Already enabled: nothing to say beyond the usual note.
    expect((await ok('install', 'mine', '--yes')).stderr).not.toContain('--yes enabled it');
  });

  it('an update asks "update A 1.0.0 -> 1.1.0: approve 1 new hook?"; declined, it names the waiting and the active version', async () => {
    await ok('install', 'mine', '--yes');
    await publishPlugin(ctx.acme, 'mine', '1.1.0', {
      PreToolUse: ['echo check'],
      Stop: ['echo more'],
    });
    const run = await onTty(['update', 'mine'], [{ when: '[y/N]', keys: 'n\r' }]);
    expect(run.code, run.screen).toBe(0);
    expect(run.screen).toContain('update mine@acme 1.0.0 -> 1.1.0: approve 1 new hook? [y/N]');
    expect(run.screen).not.toContain('Enable mine@acme');
    expect(run.screen).toContain(
      'installed mine@acme 1.1.0, waiting for your consent; 1.0.0 stays active (enabled)',
    );
    expect(run.screen).not.toContain('pending mine@acme 1.0.0');
  }, 60_000);

  it('Ctrl+C at the consent question ends the line, exits 130 and does not say "was not enabled" for a plugin not installed', async () => {
    const before = await store();
    const run = await onTty(['install', 'mine'], [{ when: '[y/N] ', keys: '\u0003' }]);
    expect(run.code, run.screen).toBe(130);
    // The question's line ends before the error (the progress view may clear the empty line).
    expect(run.screen).toMatch(
      /\[y\/N\] (\^C)?\r?\n(\r|\u001b\[2K)*hookpm: error\[E_CANCELLED\]: cancelled: mine@acme 1\.0\.0 was not installed/,
    );
    expect(run.screen).not.toContain('was not enabled');
    expect(await store()).toEqual(before);
  }, 60_000);
});

describe('the workspace trust question shows what it would load (T4)', () => {
  const projectHooks = async (hooks: Record<string, unknown>) => {
    await mkdir(join(ctx.home.dir, 'repo', '.git'), { recursive: true });
    await mkdir(join(ctx.home.dir, 'repo', '.deepagents'), { recursive: true });
    await writeFile(
      join(ctx.home.dir, 'repo', '.deepagents', 'hooks.json'),
      JSON.stringify({ hooks }),
    );
  };
  const inRepo = (args: string[], steps: Array<{ when: string; keys: string }>) =>
    hookpmOnTty(args, steps, { env: ctx.home.env, cwd: join(ctx.home.dir, 'repo') });
  const cmd = (command: string) => ({ type: 'command', command });

  it('a few hooks are listed by event, matcher and command; Ctrl+C at the question exits 130 on a clean line', async () => {
    await projectHooks({
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd('./scripts/check.sh')] }],
      Stop: [{ hooks: [cmd('echo done')] }],
    });
    const denied = await inRepo(['hooks'], [{ when: 'Choice [1-4]: ', keys: '3\r' }]);
    expect(denied.code, denied.screen).toBe(0);
    expect(denied.screen).toContain(
      'Loading it runs these commands on your machine, with your permissions:',
    );
    expect(denied.screen).toMatch(/ {2}PreToolUse \(Bash\) {2}\.\/scripts\/check\.sh/);
    expect(denied.screen).toMatch(/ {2}Stop {15}echo done/);
    // Item 6: a home without a trust store yet is not warned about.
    expect(denied.screen).not.toMatch(/warning\S* trust_store_missing/);
    const interrupted = await inRepo(['hooks'], [{ when: 'Choice [1-4]: ', keys: '\u0003' }]);
    expect(interrupted.code, interrupted.screen).toBe(130);
    expect(interrupted.screen).toMatch(
      /Choice \[1-4\]: (\^C)?\r?\nhookpm: error\[E_CANCELLED\]: cancelled at the workspace trust question/,
    );
  }, 60_000);

  it('many hooks get a count and a "Show them" choice that lists them and asks again', async () => {
    const many = Array.from({ length: 10 }, (_, i) => cmd(`echo hook-${i}`));
    await projectHooks({
      PreToolUse: [{ matcher: 'Bash', hooks: many.slice(0, 6) }],
      Stop: [{ hooks: many.slice(6) }],
    });
    const run = await inRepo(
      ['hooks'],
      [
        { when: 'Choice [1-5]: ', keys: '5\r' },
        { when: 'Choice [1-5]: ', keys: '3\r' },
      ],
    );
    expect(run.code, run.screen).toBe(0);
    expect(run.screen).toContain('It declares 10 hooks on the events PreToolUse, Stop;');
    expect(run.screen).toContain('5) Show them');
    const [question, shown] = run.screen.split('Choice [1-5]: 5');
    expect(question).not.toContain('echo hook-0');
    expect(shown).toContain('echo hook-0');
    expect(shown).toContain('echo hook-9');
  }, 60_000);
});

describe('diagnostics graded by what the user can do', () => {
  const userHooks = async (hooks: Record<string, unknown>) => {
    await mkdir(join(ctx.home.dir, '.deepagents'), { recursive: true });
    await writeFile(join(ctx.home.dir, '.deepagents', 'hooks.json'), JSON.stringify({ hooks }));
  };

  it('K1: `done` on stdout of a Stop hook is info; broken JSON stays a warning', async () => {
    await userHooks({
      Stop: [
        { hooks: [{ type: 'command', command: 'echo done' }] },
        { hooks: [{ type: 'command', command: `echo '{"continue":'` }] },
      ],
    });
    const run = await ok('run', 'Stop', '--json');
    const { diagnostics } = JSON.parse(run.stdout) as {
      diagnostics: Array<{ code: string; severity: string; message: string }>;
    };
    expect(diagnostics.filter((d) => d.code === 'malformed_json').map((d) => d.severity)).toEqual([
      'info',
      'warning',
    ]);
  });

  it(
    '`info npm:<pkg>` describes the package as `install npm:<pkg>` would install it',
    async () => {
      // A real npm registry (Verdaccio): the package is published with `npm publish`.
      const npm = await startVerdaccio();
      try {
        await npm.publishFiles(
          {
            'package.json': JSON.stringify({ name: 'hookpm-plugin-x', version: '2.0.0' }),
            'plugin.json': JSON.stringify({ name: 'x', version: '2.0.0' }),
            'hooks/hooks.json': JSON.stringify({ hooks: {} }),
          },
          await npm.addUser('publisher', 'publisher-password'),
        );
        const env = { ...ctx.home.env, HOOKPM_NPM_REGISTRY: npm.url };
        const run = await runBin(['info', 'npm:hookpm-plugin-x', '--json'], {
          env,
          cwd: ctx.home.dir,
        });
        expect(run.code, run.stdout + run.stderr).toBe(0);
        expect(JSON.parse(run.stdout)).toMatchObject({
          id: 'hookpm-plugin-x@npm',
          versions: ['2.0.0'],
          latest: { version: '2.0.0' },
        });
        const ranged = await runBin(['info', 'npm:hookpm-plugin-x@^2', '--json'], {
          env,
          cwd: ctx.home.dir,
        });
        expect(ranged.code, ranged.stdout).toBe(0);
      } finally {
        await npm.stop();
      }
    },
    VERDACCIO_START_TIMEOUT_MS,
  );

  it('N3: a host name that does not resolve fails at once, without retries, and says so', async () => {
    const error = await refused(
      1,
      'E_REGISTRY_NETWORK',
      'registry',
      'add',
      'typo',
      'https://registry.invalid/',
    );
    expect(error.message).toMatch(/ENOTFOUND|EAI_AGAIN/);
    expect(error.message).not.toContain('attempts');
    expect(error.hint).toContain('does not resolve');
  });
});
