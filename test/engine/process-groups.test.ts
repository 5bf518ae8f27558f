import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
} from './runner-fixtures.js';

let work: string;

beforeAll(() => {
  work = makeTempDir('groups');
  buildHost(work);
});
afterAll(() => removeDir(work));

/**
 * Writes a host program into `dir`: the runner modules transpiled from src/ (so the test needs no
 * build) and host.mjs, which installs the exit cleanup (unless told `none`), starts one handler and then either waits
 * for a signal or exits by itself once the handler is running.
 */
function buildHost(dir: string): void {
  mkdirSync(join(dir, 'engine'));
  for (const name of ['run-handler', 'environment', 'output-capture', 'process-groups']) {
    const source = readFileSync(
      fileURLToPath(new URL(`../../src/engine/${name}.ts`, import.meta.url)),
      'utf8',
    );
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
    });
    writeFileSync(join(dir, 'engine', `${name}.js`), outputText);
  }
  writeFileSync(
    join(dir, 'host.mjs'),
    `import { existsSync } from 'node:fs';
import { runHandler } from './engine/run-handler.js';
import { installExitCleanup } from './engine/process-groups.js';
const [mode, pidFile, script, install] = process.argv.slice(2);
const counts = () => ['exit', 'SIGTERM', 'SIGINT', 'SIGHUP'].map((e) => process.listenerCount(e));
const before = counts();
if (install === 'install') {
  installExitCleanup();
  installExitCleanup();
}
process.stdout.write(JSON.stringify(counts().map((n, i) => n - before[i])));
const handler = { id: 'Stop:0:0', event: 'Stop', groupIndex: 0, handlerIndex: 0, origin: 'user', plugin: null,
  source: 'test', matcher: null, if: null, command: script, argv: [script, pidFile], timeoutSec: 60,
  statusMessage: null, pluginEnv: {}, legacyStdin: null };
runHandler(handler, { stdin: '{}', cwd: process.cwd(), projectDir: process.cwd(), env: process.env });
const poll = setInterval(() => {
  if (mode === 'exit' && existsSync(pidFile)) process.exit(0);
}, 10);
`,
  );
}

function startHost(mode: 'wait' | 'exit', pidFile: string, install = true) {
  const child = spawn(
    process.execPath,
    [
      join(work, 'host.mjs'),
      mode,
      pidFile,
      fixture('record-pid-and-sleep.sh'),
      install ? 'install' : 'none',
    ],
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
      await waitUntil(() => !isAlive(pid), 1000, `handler ${pid} to die`);
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
      await waitUntil(() => !isAlive(pid), 1000, `handler ${pid} to die`);
    },
  );
});
