import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHandler, type RunHandlerOptions } from '../../src/engine/run-handler.js';
import type { SnapshotHandler } from '../../src/hooks/types.js';
import {
  argvHandler,
  fixture,
  handlerOf,
  isAlive,
  makeTempDir,
  readPid,
  removeDir,
  waitUntil,
} from './runner-fixtures.js';
import { BWRAP, INSTALL_TIMEOUT_MS, requireTool } from '../helpers/system-package.js';

let work: string;
let home: string;

beforeAll(() => {
  work = makeTempDir('run');
  home = makeTempDir('run-home');
});
afterAll(() => {
  removeDir(work);
  removeDir(home);
});

function options(over: Partial<RunHandlerOptions> = {}): RunHandlerOptions {
  return {
    stdin: '{}',
    cwd: work,
    projectDir: work,
    env: { PATH: process.env.PATH, HOME: home, HOOKPM_HOME: join(home, '.hookpm') },
    ...over,
  };
}

function run(handler: SnapshotHandler, over: Partial<RunHandlerOptions> = {}) {
  return runHandler(handler, options(over));
}

const HOSTILE_PAYLOAD =
  '{"tool_input":{"command":"echo $(touch pwned) `touch pwned2` \'single\' \\"double\\"",' +
  '"note":"line1\\nline2 ; rm -rf nothing && touch pwned3 | cat > pwned4","emoji":"é✓😀"}}\n';

function noPwnedFiles(dir: string): void {
  expect(readdirSync(dir).filter((name) => name.startsWith('pwned'))).toEqual([]);
}

describe('exit codes and output capture', () => {
  it('K1/X7: a handler printing JSON has its stdout captured verbatim with exit code 0', async () => {
    const result = await run(argvHandler([fixture('print-json.sh')]));
    expect(result).toMatchObject({ exitCode: 0, signal: null, timedOut: false, failure: null });
    expect(result.stdout).toBe('{"continue":true,"systemMessage":"hello from json"}\n');
  });

  it('K1/X7: plain text stdout is captured verbatim', async () => {
    const result = await run(argvHandler([fixture('print-text.sh')]));
    expect(result.stdout).toBe('plain line one\nplain line two\n');
    expect(result.stdoutTruncated).toBe(false);
  });

  it('K2/K3: exit codes 2 and 3 are reported with their stderr', async () => {
    const [two, three] = await Promise.all([
      run(argvHandler([fixture('exit-with.sh'), '2', 'blocked: no'])),
      run(argvHandler([fixture('exit-with.sh'), '3', 'went wrong'])),
    ]);
    expect(two).toMatchObject({ exitCode: 2, stderr: 'blocked: no', failure: null });
    expect(three).toMatchObject({ exitCode: 3, stderr: 'went wrong', failure: null });
  });

  it('security: exit 127 from an unknown shell command is an exit code with stderr, not a launch failure', async () => {
    const result = await run(handlerOf({ command: 'definitely-not-a-command-hookpm' }));
    expect(result.failure).toBeNull();
    expect(result.exitCode).toBe(127);
    expect(result.stderr).toMatch(/not found/);
  });
});

describe('X1: concurrency', () => {
  it('X1: two handlers started together run at once: each sees the other started before it ends', async () => {
    // Each marks that it started, then waits (up to 10 s) for the other's mark: run one after the
    // other, the first would say `alone`. No bound on time, which a loaded machine could break.
    const meeting = (self: string, other: string) =>
      handlerOf({
        command: `touch ${self}; for i in $(seq 1 200); do [ -e ${other} ] && { echo met; exit 0; }; sleep 0.05; done; echo alone`,
      });
    const results = await Promise.all([
      run(meeting('x1-a', 'x1-b')),
      run({ ...meeting('x1-b', 'x1-a'), id: 'PreToolUse:1:0' }),
    ]);
    expect(results.map((r) => r.stdout)).toEqual(['met\n', 'met\n']);
    expect(results.map((r) => r.handler.id)).toEqual(['PreToolUse:0:0', 'PreToolUse:1:0']);
  }, 20_000);
});

describe('X2: the payload on stdin only', () => {
  it('X2: a hostile payload reaches an argv handler byte-exact on stdin and executes nothing', async () => {
    const out = join(work, 'stdin-argv.json');
    const result = await run(argvHandler([fixture('stdin-to-file.sh'), out]), {
      stdin: HOSTILE_PAYLOAD,
    });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(readFileSync(out, 'utf8')).toBe(HOSTILE_PAYLOAD);
    noPwnedFiles(work);
  });

  it('X2: a hostile payload reaches a shell-form handler byte-exact and executes nothing', async () => {
    const result = await run(handlerOf({ command: 'cat > stdin-shell.json' }), {
      stdin: HOSTILE_PAYLOAD,
    });
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(work, 'stdin-shell.json'), 'utf8')).toBe(HOSTILE_PAYLOAD);
    noPwnedFiles(work);
  });

  it('X2: stdin is closed after the payload, so a handler reading to EOF finishes', async () => {
    const result = await run(handlerOf({ command: 'wc -c', timeoutSec: 5 }), { stdin: '12345' });
    expect(result).toMatchObject({ timedOut: false, exitCode: 0 });
    expect(result.stdout.trim()).toBe('5');
  });

  it('X2: a handler that exits without reading a 2 MB payload causes no crash (EPIPE is absorbed)', async () => {
    const big = `{"pad":"${'x'.repeat(2_000_000)}"}`;
    const results = await Promise.all(
      Array.from({ length: 3 }, () =>
        run(argvHandler([fixture('exit-with.sh'), '0']), { stdin: big }),
      ),
    );
    expect(results.map((r) => [r.exitCode, r.failure])).toEqual([
      [0, null],
      [0, null],
      [0, null],
    ]);
  });

  it('X2: the payload is never placed in argv or the environment', async () => {
    const marker = 'PAYLOAD-MARKER-7f3a';
    const result = await run(argvHandler([fixture('dump-env.mjs')]), {
      stdin: `{"marker":"${marker}"}`,
    });
    expect(result.stdout).not.toContain(marker);
    expect(JSON.parse(result.stdout).argv).toEqual([]);
  });

  it('C4: a legacy handler gets its fixed legacy stdin instead of the payload', async () => {
    const out = join(work, 'legacy-stdin.json');
    const handler = argvHandler([fixture('stdin-to-file.sh'), out], {
      legacyStdin: { event: 'session.end', thread_id: 't1' },
    });
    await run(handler, { stdin: '{"hook_event_name":"SessionEnd"}' });
    expect(readFileSync(out, 'utf8')).toBe('{"event":"session.end","thread_id":"t1"}');
  });
});

describe('X3 / V1 / V2: argv without a shell, commands under /bin/sh -c', () => {
  const pluginEnv = {
    CLAUDE_PLUGIN_ROOT: '/plugins/demo',
    PLUGIN_ROOT: '/plugins/demo',
    CLAUDE_PLUGIN_DATA: '/data/demo',
    PLUGIN_DATA: '/data/demo',
  };

  /** Arguments that name no plugin variable as ${VAR}: passed through as written. */
  const UNEXPANDED = [
    '$CLAUDE_PLUGIN_ROOT',
    '${HOME}',
    '$(touch pwned)',
    '`touch pwned2`',
    '*',
    'a b; c',
  ];

  it('X3/V2: argv runs directly; ${VAR} of the plugin variables is substituted, nothing else expanded', async () => {
    const handler = argvHandler(
      [
        fixture('print-args.mjs'),
        '${CLAUDE_PLUGIN_ROOT}/bin',
        '${PLUGIN_DATA}',
        '${CLAUDE_PROJECT_DIR}',
        ...UNEXPANDED,
      ],
      { plugin: 'demo@local', origin: 'plugin', pluginEnv },
    );
    const result = await run(handler);
    expect(JSON.parse(result.stdout)).toEqual([
      '/plugins/demo/bin',
      '/data/demo',
      work,
      ...UNEXPANDED,
    ]);
    noPwnedFiles(work);
  });

  it('X3/V1: a shell-form command runs under /bin/sh -c and expands variables from the environment', async () => {
    const handler = handlerOf({
      command: 'echo "$CLAUDE_PLUGIN_ROOT|${PLUGIN_DATA:-none}|$((1+2))|$0"',
      plugin: 'demo@local',
      origin: 'plugin',
      pluginEnv,
    });
    const result = await run(handler);
    expect(result.stdout).toBe('/plugins/demo|/data/demo|3|/bin/sh\n');
  });

  it('V1: a project path containing $(...) is expanded by the shell as data and never executed', async () => {
    const projectDir = join(work, '$(touch pwned)`touch pwned2`');
    const result = await run(handlerOf({ command: 'printf %s "$CLAUDE_PROJECT_DIR"' }), {
      projectDir,
    });
    expect(result.stdout).toBe(projectDir);
    noPwnedFiles(work);
  });
});

describe('X4: working directory and process group', () => {
  it('X4: the handler runs in the invocation cwd', async () => {
    const cwd = makeTempDir('cwd');
    try {
      const result = await run(handlerOf({ command: 'pwd -P' }), { cwd });
      expect(result.stdout).toBe(`${cwd}\n`);
    } finally {
      removeDir(cwd);
    }
  });

  it('X4: each handler leads its own process group, distinct from the host and from each other', async () => {
    const own = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ')[2];
    const results = await Promise.all([
      run(argvHandler([fixture('group-info.sh')])),
      run(argvHandler([fixture('group-info.sh')])),
    ]);
    const groups = results.map((r) => {
      const [pid, pgid] = r.stdout.trim().split(' ');
      expect(pgid).toBe(pid);
      expect(pgid).not.toBe(own);
      return pgid;
    });
    expect(groups[0]).not.toBe(groups[1]);
  });
});

describe('X5: the environment', () => {
  it('X5: secrets are removed, CLAUDE_PROJECT_DIR and the plugin variables are added', async () => {
    const env = {
      ...options().env,
      OPENAI_API_KEY: 'sk-live-123',
      GITHUB_TOKEN: 'ghp_x',
      aws_secret_access_key: 'x',
      DB_Password: 'x',
      MONKEY_BUSINESS: 'contains KEY',
      ORDINARY_SETTING: 'kept',
      CLAUDE_PLUGIN_ROOT: '/inherited/should/not/leak',
    };
    const handler = argvHandler([fixture('dump-env.mjs')], {
      plugin: 'demo@local',
      origin: 'plugin',
      pluginEnv: { CLAUDE_PLUGIN_ROOT: '/plugins/demo', PLUGIN_DATA: '/data/demo' },
    });
    const seen = JSON.parse((await run(handler, { env })).stdout).env as Record<string, string>;
    for (const name of [
      'OPENAI_API_KEY',
      'GITHUB_TOKEN',
      'aws_secret_access_key',
      'DB_Password',
      'MONKEY_BUSINESS',
    ]) {
      expect(seen[name], name).toBeUndefined();
    }
    expect(seen).toMatchObject({
      ORDINARY_SETTING: 'kept',
      HOME: home,
      CLAUDE_PROJECT_DIR: work,
      CLAUDE_PLUGIN_ROOT: '/plugins/demo',
      PLUGIN_DATA: '/data/demo',
    });
    expect(JSON.stringify(seen)).not.toContain('sk-live-123');
  });

  it('X5: a non-plugin handler gets CLAUDE_PROJECT_DIR and no plugin variables, even inherited ones', async () => {
    const env = { ...options().env, CLAUDE_PLUGIN_ROOT: '/inherited', PLUGIN_DATA: '/inherited' };
    const seen = JSON.parse((await run(argvHandler([fixture('dump-env.mjs')]), { env })).stdout)
      .env as Record<string, string>;
    expect(seen.CLAUDE_PROJECT_DIR).toBe(work);
    expect(seen.CLAUDE_PLUGIN_ROOT).toBeUndefined();
    expect(seen.PLUGIN_DATA).toBeUndefined();
  });
});

describe('X6: deadlines', () => {
  it('X6: a handler past its deadline is killed with its group and reported as timed out', async () => {
    const pidFile = join(work, 'deadline.pid');
    const handler = argvHandler([fixture('record-pid-and-sleep.sh'), pidFile], { timeoutSec: 0.3 });
    const result = await run(handler);
    expect(result).toMatchObject({
      timedOut: true,
      exitCode: null,
      signal: 'SIGTERM',
      failure: null,
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(1300);
    expect(isAlive(await readPid(pidFile))).toBe(false);
  });

  it('X6: a grandchild holding stdout open and ignoring SIGTERM still settles within 2.5 s at timeout 1, and nothing of its group survives', async () => {
    const pidFile = join(work, 'grandchild.pid');
    const started = performance.now();
    const result = await run(argvHandler([fixture('hold-pipes.sh'), pidFile], { timeoutSec: 1 }));
    expect(performance.now() - started).toBeLessThan(2500);
    expect(result).toMatchObject({ timedOut: true, exitCode: null });
    expect(result.stdout).toBe('started\n');
    const grandchild = await readPid(pidFile);
    await waitUntil(() => !isAlive(grandchild), 1000, `grandchild ${grandchild} to die`);
  });

  it('X6: a handler that exits leaving a helper holding its stdout settles about a second later on what it wrote, not at its deadline; the helper is left alone', async () => {
    const pidFile = join(work, 'left-helper.pid');
    const command = `sleep 30 & echo $! > '${pidFile}'; printf '{"decision":"block","reason":"r"}'`;
    const started = performance.now();
    const result = await run(handlerOf({ command, timeoutSec: 20 }));
    const elapsed = performance.now() - started;
    const helper = await readPid(pidFile);
    try {
      expect(result).toMatchObject({ timedOut: false, exitCode: 0, failure: null });
      expect(result.stdout).toBe('{"decision":"block","reason":"r"}');
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(elapsed).toBeLessThan(5000);
      expect(isAlive(helper)).toBe(true);
    } finally {
      process.kill(helper, 'SIGKILL');
    }
  });

  it('X6: what a helper left holding the pipes wrote before the let-go is kept when hookpm was busy as that second ended', async () => {
    const marker = join(work, 'busy-host.exited');
    const block = '{"decision":"block","reason":"r"}';
    // The handler exits at once; its helper writes the block 0.5 s later and exits too.
    const command = `(sleep 0.5; printf '${block}') & touch '${marker}'`;
    const pending = run(handlerOf({ command, timeoutSec: 20 }));
    await waitUntil(() => existsSync(marker), 5000, 'the handler to exit');
    await new Promise((resolve) => setTimeout(resolve, 100)); // its exit is read
    // hookpm busy for 1.6 s (thousands of spawns, a long synchronous task) after its poll for I/O:
    // the helper writes and exits meanwhile, and the let-go second has ended when the event loop
    // comes round to its timers, which run before it polls for I/O again.
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        const busyUntil = performance.now() + 1600;
        while (performance.now() < busyUntil);
        resolve();
      }),
    );
    const result = await pending;
    expect(result).toMatchObject({ timedOut: false, exitCode: 0, failure: null });
    expect(result.stdout).toBe(block);
  });

  it('X6: the result settles about a second after the deadline even when an escaped process (new session) holds the pipes', async () => {
    const pidFile = join(work, 'escaped.pid');
    const started = performance.now();
    const result = await run(
      argvHandler([fixture('escape-group.sh'), pidFile], { timeoutSec: 0.3 }),
    );
    const elapsed = performance.now() - started;
    const escaped = await readPid(pidFile);
    try {
      expect(result.timedOut).toBe(true);
      expect(elapsed).toBeLessThan(300 + 1200);
    } finally {
      process.kill(escaped, 'SIGKILL');
    }
  });

  it('X6: a child that ignores SIGTERM without holding the pipes is SIGKILLed after the grace', async () => {
    const pidFile = join(work, 'term-ignorer.pid');
    const result = await run(
      argvHandler([fixture('ignore-term-child.sh'), pidFile], { timeoutSec: 0.3 }),
    );
    expect(result.timedOut).toBe(true);
    const child = await readPid(pidFile);
    await waitUntil(() => !isAlive(child), 1500, `SIGTERM-ignoring child ${child} to die`);
  });

  it('X6: a huge timeout is clamped instead of firing at once', async () => {
    const result = await run(
      argvHandler([fixture('sleep-then-print.sh'), '0.05'], { timeoutSec: 1e12 }),
    );
    expect(result).toMatchObject({ timedOut: false, exitCode: 0, stdout: 'done\n' });
  });

  it('X6: aborting the signal kills the group like a deadline (session shutdown)', async () => {
    const pidFile = join(work, 'abort.pid');
    const controller = new AbortController();
    const pending = run(argvHandler([fixture('record-pid-and-sleep.sh'), pidFile]), {
      signal: controller.signal,
    });
    const pid = await readPid(pidFile);
    const aborted = performance.now();
    controller.abort();
    const result = await pending;
    expect(performance.now() - aborted).toBeLessThan(1000);
    expect(result).toMatchObject({ timedOut: false, exitCode: null, signal: 'SIGTERM' });
    expect(isAlive(pid)).toBe(false);
  });

  it('X6: an already-aborted signal launches nothing', async () => {
    const out = join(work, 'never-written.json');
    const result = await run(argvHandler([fixture('stdin-to-file.sh'), out]), {
      signal: AbortSignal.abort(),
    });
    expect(result.failure?.kind).toBe('launch_failed');
    expect(existsSync(out)).toBe(false);
  });
});

describe('X7: capture caps', () => {
  const CAP = 100_000;

  it('X7: 10 MB on stdout is capped at 100,000 bytes with stdoutTruncated, and the handler still completes', async () => {
    const result = await run(argvHandler([fixture('print-bulk.mjs'), 'stdout', '10000000']));
    expect(result).toMatchObject({ exitCode: 0, stdoutTruncated: true, stderrTruncated: false });
    expect(Buffer.byteLength(result.stdout)).toBe(CAP);
  });

  it('X7: 10 MB on stderr is capped at 100,000 bytes with stderrTruncated', async () => {
    const result = await run(argvHandler([fixture('print-bulk.mjs'), 'stderr', '10000000']));
    expect(result).toMatchObject({ exitCode: 0, stdoutTruncated: false, stderrTruncated: true });
    expect(Buffer.byteLength(result.stderr)).toBe(CAP);
  });

  it('X7: the cap counts bytes, and a character cut at the cap is dropped, not mangled', async () => {
    const result = await run(argvHandler([fixture('print-bulk.mjs'), 'stdout', '300000', 'é']));
    expect(result.stdoutTruncated).toBe(true);
    expect(Buffer.byteLength(result.stdout)).toBe(CAP);
    expect(result.stdout).toBe('é'.repeat(CAP / 2));
    const odd = await run(argvHandler([fixture('print-bulk.mjs'), 'stdout', '300000', 'a€']));
    expect(Buffer.byteLength(odd.stdout)).toBeLessThanOrEqual(CAP);
    expect(odd.stdout).not.toContain('\uFFFD');
  });

  it('X7: exactly 100,000 bytes is not truncated', async () => {
    const result = await run(argvHandler([fixture('print-bulk.mjs'), 'stdout', String(CAP)]));
    expect(result.stdoutTruncated).toBe(false);
    expect(result.stdout.length).toBe(CAP);
  });
});

describe('X8: launch failures and invalid commands', () => {
  it('X8: an argv program that does not exist is launch_failed', async () => {
    const result = await run(argvHandler([join(work, 'no-such-program')]));
    expect(result.failure?.kind).toBe('launch_failed');
    expect(result.failure?.message).toContain('no-such-program');
    expect(result).toMatchObject({ exitCode: null, timedOut: false });
  });

  it('X8: a missing working directory is launch_failed and says so', async () => {
    const cwd = join(work, 'missing-dir');
    const result = await run(handlerOf({ command: 'true' }), { cwd });
    expect(result.failure?.kind).toBe('launch_failed');
    expect(result.failure?.message).toContain(cwd);
  });

  it('X8: a program without the executable bit is launch_failed', async () => {
    const script = join(work, 'plain-file.sh');
    writeFileSync(script, readFileSync(fixture('not-executable.sh')));
    chmodSync(script, 0o644);
    const result = await run(argvHandler([script]));
    expect(result.failure?.kind).toBe('launch_failed');
  });

  it('X8: a NUL byte in argv is launch_failed rather than a thrown error', async () => {
    const result = await run(argvHandler(['echo', 'a\u0000b']));
    expect(result.failure?.kind).toBe('launch_failed');
  });

  it('X8: a blank command, an empty argv and a blank argv[0] are invalid_command and spawn nothing', async () => {
    const results = await Promise.all([
      run(handlerOf({ command: '   ' })),
      run(handlerOf({ command: 'shown only', argv: [] })),
      run(handlerOf({ command: 'shown only', argv: [' ', 'x'] })),
    ]);
    for (const result of results) {
      expect(result.failure?.kind).toBe('invalid_command');
      expect(result).toMatchObject({ exitCode: null, stdout: '', timedOut: false });
    }
  });
});

describe('a confined handler whose bwrap cannot be started (security.md Z6)', () => {
  it(
    'Z6: bwrap gone since it was found (a long-lived session, an upgrade) is a confinement failure, never the handler run unconfined or allowed',
    async () => {
      const real = await requireTool(BWRAP);
      const dir = makeTempDir('bwrap-gone');
      try {
        symlinkSync(real, join(dir, 'bwrap'));
        const env = { PATH: `${dir}:/usr/bin:/bin`, HOME: home };
        const confined = argvHandler(['/bin/true'], {
          confine: { network: true, write: [], hide: [] },
        });
        // Found (and remembered) while bwrap is there: the handler runs confined.
        expect(await run(confined, { env })).toMatchObject({ exitCode: 0, failure: null });
        unlinkSync(join(dir, 'bwrap'));
        const gone = await run(confined, { env });
        expect(gone.failure).toMatchObject({
          kind: 'confinement_unavailable',
          message: expect.stringMatching(
            /^the sandbox cannot be set up: .*bwrap: program not found/,
          ),
        });
      } finally {
        removeDir(dir);
      }
    },
    INSTALL_TIMEOUT_MS,
  );
  it(
    'Z6: once a remembered bwrap fails to start, the next handler looks for it on PATH again',
    async () => {
      const real = await requireTool(BWRAP);
      const [first, second] = [makeTempDir('bwrap-first'), makeTempDir('bwrap-second')];
      try {
        symlinkSync(real, join(first, 'bwrap'));
        const env = { PATH: `${first}:${second}:/usr/bin:/bin`, HOME: home };
        const confined = argvHandler(['/bin/true'], {
          confine: { network: true, write: [], hide: [] },
        });
        expect(await run(confined, { env })).toMatchObject({ exitCode: 0, failure: null });
        // Moved to another directory of PATH, as an upgrade may move it.
        unlinkSync(join(first, 'bwrap'));
        symlinkSync(real, join(second, 'bwrap'));
        expect((await run(confined, { env })).failure?.kind).toBe('confinement_unavailable');
        expect(await run(confined, { env })).toMatchObject({ exitCode: 0, failure: null });
      } finally {
        removeDir(first);
        removeDir(second);
      }
    },
    INSTALL_TIMEOUT_MS,
  );
});
