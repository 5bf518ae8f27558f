import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAllHandlers, liveHandlerGroups } from '../../src/engine/process-groups.js';
import { runHandler } from '../../src/engine/run-handler.js';
import {
  argvHandler,
  fixture,
  isAlive,
  makeTempDir,
  readPid,
  removeDir,
  waitUntil,
  watchdogOf,
  whileRunning,
} from './runner-fixtures.js';

let work: string;

beforeAll(() => {
  work = makeTempDir('groups');
  buildHost(work);
});
afterAll(() => removeDir(work));

/**
 * Writes a host program into `dir`: the runner modules transpiled from src/ (so the test needs no
 * build) and host.mjs, which installs the exit cleanup (unless told `none`) and then, by mode:
 * `wait` starts one handler and waits for a signal; `exit` exits by itself once the handler is
 * running; `lazy` prints the watchdog's pid before any handler and after each of two; `respawn`
 * starts a handler, SIGKILLs the watchdog, starts a second handler, writes both watchdog pids to
 * `<pidFile>.watchdogs` and waits.
 */
function buildHost(dir: string): void {
  mkdirSync(join(dir, 'engine'));
  mkdirSync(join(dir, 'plugin'));
  mkdirSync(join(dir, 'io'));
  const modules = [
    'engine/run-handler',
    'engine/handler-launch',
    'engine/quote-path-variables',
    'engine/confine-command',
    'engine/confined-stdio',
    'engine/socket-filter',
    'engine/environment',
    'engine/output-capture',
    'engine/process-groups',
    'engine/group-watchdog',
    'plugin/path-variables',
    'io/after-exit-read',
  ];
  for (const name of modules) {
    const source = readFileSync(
      fileURLToPath(new URL(`../../src/${name}.ts`, import.meta.url)),
      'utf8',
    );
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
    });
    writeFileSync(join(dir, `${name}.js`), outputText);
  }
  writeFileSync(
    join(dir, 'host.mjs'),
    `import { existsSync, writeFileSync } from 'node:fs';
import { runHandler } from './engine/run-handler.js';
import { installExitCleanup } from './engine/process-groups.js';
import { watchdogPid } from './engine/group-watchdog.js';
const [mode, pidFile, script, install] = process.argv.slice(2);
const counts = () => ['exit', 'SIGTERM', 'SIGINT', 'SIGHUP'].map((e) => process.listenerCount(e));
const before = counts();
if (install === 'install') {
  installExitCleanup();
  installExitCleanup();
}
const handler = (file) => ({ id: 'Stop:0:0', event: 'Stop', groupIndex: 0, handlerIndex: 0, origin: 'user',
  plugin: null, source: 'test', matcher: null, if: null, command: script, argv: [script, file],
  timeoutSec: 60, statusMessage: null, pluginEnv: {}, legacyStdin: null });
const run = (file) =>
  runHandler(handler(file), { stdin: '{}', cwd: process.cwd(), projectDir: process.cwd(), env: process.env });
const until = (check) => new Promise((resolve) => {
  const poll = setInterval(() => check() && (clearInterval(poll), resolve()), 10);
});
if (mode === 'lazy') {
  const seen = [watchdogPid()];
  await run(pidFile);
  seen.push(watchdogPid());
  await run(pidFile);
  seen.push(watchdogPid());
  process.stdout.write(JSON.stringify(seen));
} else if (mode === 'respawn') {
  run(pidFile);
  await until(() => existsSync(pidFile));
  const first = watchdogPid();
  process.kill(first, 'SIGKILL');
  await until(() => watchdogPid() === null);
  run(pidFile + '.b');
  writeFileSync(pidFile + '.watchdogs', JSON.stringify([first, watchdogPid()]));
  setInterval(() => {}, 1000);
} else {
  process.stdout.write(JSON.stringify(counts().map((n, i) => n - before[i])));
  run(pidFile);
  setInterval(() => {
    if (mode === 'exit' && existsSync(pidFile)) process.exit(0);
  }, 10);
}
`,
  );
}

function startHost(
  mode: 'wait' | 'exit' | 'lazy' | 'respawn',
  pidFile: string,
  install = true,
  script = fixture('record-pid-and-sleep.sh'),
) {
  const child = spawn(
    process.execPath,
    [join(work, 'host.mjs'), mode, pidFile, script, install ? 'install' : 'none'],
    {
      cwd: work,
      env: { PATH: process.env.PATH, HOME: work, HOOKPM_HOME: join(work, '.hookpm') },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<{ code: number | null; stdout: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout })),
  );
  return { child, exited };
}

describe('process groups', () => {
  it('security: killAllHandlers SIGKILLs every live handler group, and a run settles once killed', async () => {
    const pidFile = join(work, 'in-process.pid');
    const pending = runHandler(
      argvHandler([fixture('record-pid-and-sleep.sh'), pidFile], { timeoutSec: 60 }),
      {
        stdin: '{}',
        cwd: work,
        projectDir: work,
        env: { PATH: process.env.PATH, HOME: work },
      },
    );
    const pid = await readPid(pidFile);
    expect(liveHandlerGroups()).toContain(pid);
    killAllHandlers();
    const result = await pending;
    expect(result).toMatchObject({ signal: 'SIGKILL', timedOut: false });
    expect(isAlive(pid)).toBe(false);
    expect(liveHandlerGroups()).not.toContain(pid);
  });

  it('X4: a run that exits by itself leaves no registered group behind', async () => {
    await runHandler(argvHandler(['true']), {
      stdin: '',
      cwd: work,
      projectDir: work,
      env: { PATH: process.env.PATH },
    });
    expect(liveHandlerGroups()).toEqual([]);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)(
    'security: a host killed with %s kills every handler group first and exits %i',
    async (signal, expectedCode) => {
      const pidFile = join(work, `host-${signal}.pid`);
      const host = startHost('wait', pidFile);
      const pid = await readPid(pidFile);
      expect(isAlive(pid)).toBe(true);
      host.child.kill(signal);
      const { code, stdout } = await host.exited;
      expect(code).toBe(expectedCode);
      expect(JSON.parse(stdout)).toEqual([1, 1, 1, 1]); // installExitCleanup is idempotent
      await waitUntil(() => !isAlive(pid), 5000, `handler ${pid} to die`);
    },
  );

  it.each([
    ['with', true],
    ['without', false],
  ])(
    'security: a host that exits by itself while a handler runs kills the handler group (%s installExitCleanup)',
    async (_label, install) => {
      const pidFile = join(work, `host-exit-${install}.pid`);
      const host = startHost('exit', pidFile, install);
      const pid = await readPid(pidFile);
      const { code } = await host.exited;
      expect(code).toBe(0);
      await waitUntil(() => !isAlive(pid), 5000, `handler ${pid} to die`);
    },
  );

  it('security: a host killed with SIGKILL (no code of its runs) leaves no handler: its watchdog kills the group, then exits', async () => {
    const pidFile = join(work, 'host-sigkill.pid');
    const host = startHost('wait', pidFile, false);
    const pid = await readPid(pidFile);
    let watchdog: number | null = null;
    // The handler may write its pid before the watchdog, started right after it, has exec'd.
    await waitUntil(
      () => (watchdog = watchdogOf(host.child.pid as number)) !== null,
      2000,
      'a watchdog',
    );
    expect(isAlive(pid)).toBe(true);
    await whileRunning();
    host.child.kill('SIGKILL');
    await host.exited;
    await waitUntil(() => !isAlive(pid), 2000, `handler ${pid} to die`);
    await waitUntil(() => !isAlive(watchdog as number), 2000, 'the watchdog to exit');
  });

  it('security: the watchdog starts with the first handler, not before, and one serves every later handler', async () => {
    const host = startHost('lazy', join(work, 'lazy.pid'), true, '/bin/true');
    const { code, stdout } = await host.exited;
    expect(code).toBe(0);
    const [before, first, second] = JSON.parse(stdout) as (number | null)[];
    expect(before).toBeNull();
    expect(first).toEqual(expect.any(Number));
    expect(second).toBe(first);
  });

  it('security: a watchdog that died is replaced at the next handler and told every live group', async () => {
    const pidFile = join(work, 'respawn.pid');
    const host = startHost('respawn', pidFile, false);
    const first = await readPid(pidFile);
    const second = await readPid(`${pidFile}.b`);
    await waitUntil(() => existsSync(`${pidFile}.watchdogs`), 2000, 'the watchdog pids');
    await whileRunning();
    const [killed, replacement] = JSON.parse(
      readFileSync(`${pidFile}.watchdogs`, 'utf8'),
    ) as number[];
    host.child.kill('SIGKILL');
    await host.exited;
    expect(replacement).not.toBe(killed);
    await waitUntil(() => !isAlive(first) && !isAlive(second), 2000, 'both handlers to die');
  });

  it('X4: the watchdog leaves alone a helper that a handler which exited normally left in its group', async () => {
    const pidFile = join(work, 'helper.pid');
    const host = startHost('wait', pidFile, false, fixture('leave-helper.sh'));
    const helper = await readPid(pidFile);
    const handler = await readPid(`${pidFile}.self`);
    await waitUntil(() => !isAlive(handler), 2000, 'the handler to exit');
    await new Promise((resolve) => setTimeout(resolve, 300)); // the host lets its group go
    const watchdog = watchdogOf(host.child.pid as number) as number;
    host.child.kill('SIGKILL');
    await host.exited;
    await waitUntil(() => !isAlive(watchdog), 2000, 'the watchdog to exit');
    try {
      expect(isAlive(helper)).toBe(true);
    } finally {
      process.kill(helper, 'SIGKILL');
    }
  });
});
