/**
 * security.md Z4-Z6 through the built `bin/hookpm`: a plugin that declares
 * `{"network": false, "write": ["data"]}` runs a hostile handler (test/fixtures/handlers/
 * confine-probe.mjs) that tries to reach a loopback server, write in HOME, write out through a
 * symlink in its data directory, write through another process's `/proc/<pid>/root`, read the
 * store's state and keep a grandchild running past its deadline. Each is blocked, through
 * `hookpm wire claude` (the command `hookpm link claude` writes) and through `hookpm test`; and
 * where bubblewrap is missing the handler does not run at all: it fails closed.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, rm, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createSocketServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { BIN } from '../helpers/built-bin.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { BWRAP, INSTALL_TIMEOUT_MS, requireTool } from '../helpers/system-package.js';
import { writeFile } from 'node:fs/promises';
import { claudeBashPayload } from '../helpers/claude-payload.js';

const ws = useBinWorkspace('security-confine');
const PROBE = join(import.meta.dirname, '..', 'fixtures', 'handlers', 'confine-probe.mjs');

let server: Server;
let port = 0;
let requests = 0;

beforeAll(async () => {
  await requireTool(BWRAP);
  server = createServer((_req, res) => {
    requests += 1;
    res.end('reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
}, INSTALL_TIMEOUT_MS);

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Installs and enables the probe plugin declaring `capabilities`; answers its root. */
async function installProbe(capabilities: Record<string, unknown> | null): Promise<string> {
  const root = join(ws.dir, `probe${ws.n}`);
  await writeClaudePlugin(root, 'probe', {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          {
            type: 'command',
            command: 'node',
            args: ['${CLAUDE_PLUGIN_ROOT}/probe.mjs'],
            timeout: 2,
          },
        ],
      },
    ],
  });
  await copyFile(PROBE, join(root, 'probe.mjs'));
  const manifest = { name: 'probe', version: '1.0.0', ...(capabilities ? { capabilities } : {}) };
  await writeFile(join(root, '.claude-plugin', 'plugin.json'), JSON.stringify(manifest));
  const run = await ws.hookpm(['install', root, '--yes']);
  expect(run.code, run.stderr).toBe(0);
  return root;
}

const CONFINED = { network: false, write: ['data'] };
/** The plugin's data directory (V3), whatever its sanitized name. */
const dataDir = () => {
  const root = join(ws.home, 'hookpm', 'data', 'plugin-data');
  const found = readdirSync(root).find((name) => name.startsWith('probe-local-'));
  return join(root, found ?? 'missing');
};
let sessions = 0;

async function wireBash(command: string, env?: Record<string, string>) {
  const body = claudeBashPayload(ws, `s${ws.n}-${(sessions += 1)}`, command);
  const run = await ws.hookpm(['wire', 'claude'], { stdin: body, ...(env ? { env } : {}) });
  expect(run.code, run.stderr).toBe(0);
  const out = run.stdout === '' ? null : (JSON.parse(run.stdout) as Record<string, any>);
  return {
    decision: out?.hookSpecificOutput?.permissionDecision as string | undefined,
    reason: (out?.hookSpecificOutput?.permissionDecisionReason ?? '') as string,
    ms: run.ms,
  };
}

describe('confined handlers under attack (security.md Z4-Z6)', () => {
  it('Z5: a confined handler cannot reach a loopback HTTP server; the same plugin declaring network reaches it', async () => {
    await installProbe(CONFINED);
    const before = requests;
    const blocked = await wireBash(`net ${port}`);
    expect(blocked.reason).toMatch(/^probe net: blocked /);
    expect(requests).toBe(before);

    await installProbe({ network: true, write: ['data'] });
    const open = await wireBash(`net ${port}`);
    expect(open.reason).toBe('probe net: DONE');
    expect(requests).toBe(before + 1);
  });

  it("Z5: a confined handler cannot connect to a unix socket of the host (an agent's, a daemon's)", async () => {
    await installProbe(CONFINED);
    const path = join(ws.dir, `agent${ws.n}.sock`);
    let connections = 0;
    const agent = createSocketServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => agent.listen(path, resolve));
    try {
      expect((await wireBash(`unix ${path}`)).reason).toBe('probe unix: blocked EACCES');
      expect(connections).toBe(0);
      await installProbe({ network: true, write: ['data'] });
      expect((await wireBash(`unix ${path}`)).reason).toBe('probe unix: DONE');
    } finally {
      await new Promise<void>((resolve) => agent.close(() => resolve()));
    }
  });

  it('Z4: a confined handler cannot write in HOME, and writes its declared data directory', async () => {
    await installProbe(CONFINED);
    expect((await wireBash('home')).reason).toBe('probe home: blocked EROFS');
    expect(existsSync(join(ws.home, 'pwned'))).toBe(false);
    expect((await wireBash('data')).reason).toBe('probe data: DONE');
    expect(existsSync(join(dataDir(), 'ok'))).toBe(true);
  });

  it('Z4: a symlink in its data directory pointing out does not let it write outside its places', async () => {
    await installProbe(CONFINED);
    expect((await wireBash('symlink')).reason).toBe('probe symlink: blocked EROFS');
    expect(existsSync(join(ws.home, 'through-link'))).toBe(false);
  });

  it("Z4: /proc shows only the sandbox's own processes, so no /proc/<pid>/root leads out", async () => {
    await installProbe(CONFINED);
    const { reason } = await wireBash('proc');
    expect(reason).toMatch(/^probe proc: blocked \(\d processes visible\)$/);
    expect(existsSync(join(ws.home, 'via-proc'))).toBe(false);
  });

  it('Z4: a directory descriptor hookpm inherited does not pass into the sandbox, so /proc/self/fd leads nowhere', async () => {
    await installProbe(CONFINED);
    const dir = openSync(ws.home, 'r');
    try {
      // The agent (or a shell) that runs hookpm leaves a descriptor of HOME open as fd 40.
      const stdio = ['pipe', 'pipe', 'pipe', ...Array<'ignore'>(37).fill('ignore'), dir] as const;
      const body = claudeBashPayload(ws, `s${ws.n}-fd`, 'fd 40');
      const run = spawnSync(process.execPath, [BIN, 'wire', 'claude'], {
        cwd: ws.repo,
        env: ws.env(),
        input: body,
        stdio: [...stdio],
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      const reason = JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason as string;
      expect(reason).toMatch(/^probe fd: blocked /);
      expect(existsSync(join(ws.home, 'via-fd'))).toBe(false);
    } finally {
      closeSync(dir);
    }
  });

  it("Z3: the store's state and other plugins' data are hidden from a confined handler", async () => {
    await installProbe(CONFINED);
    const other = join(ws.home, 'hookpm', 'data', 'plugin-data', 'other@local');
    await mkdir(other, { recursive: true });
    await writeFile(join(other, 'secret'), 'x');
    const state = join(ws.home, 'hookpm', 'data', 'state.json');
    expect((await wireBash(`read ${state}`)).reason).toBe('probe read: blocked ENOENT');
    expect((await wireBash(`read ${join(other, 'secret')}`)).reason).toBe(
      'probe read: blocked ENOENT',
    );
  });

  it('Z3: a plugin that writes its project, run in HOME (which holds the store), still finds the store hidden', async () => {
    await installProbe({ network: false, write: ['project'] });
    const state = join(ws.home, 'hookpm', 'data', 'state.json');
    const before = readFileSync(state);
    const inHome = async (command: string) => {
      const body = claudeBashPayload({ home: ws.home, repo: ws.home }, `s${ws.n}-home`, command);
      const run = await ws.hookpm(['wire', 'claude'], { stdin: body, cwd: ws.home });
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason as string;
    };
    expect(await inHome(`read ${state}`)).toBe('probe read: blocked ENOENT');
    await inHome(`append ${state}`);
    expect(readFileSync(state)).toEqual(before);
    expect(await inHome(`append ${join(ws.home, 'notes')}`)).toBe('probe append: DONE');
  });

  it('Z3/Z4: with the store reached through a symlink (a symlinked home), the handler runs confined and the store stays hidden', async () => {
    const real = join(ws.dir, `real${ws.n}`, 'Application Support');
    await mkdir(real, { recursive: true });
    const linked = join(ws.dir, `linked home ${ws.n}`);
    await symlink(join(ws.dir, `real${ws.n}`), linked);
    const env = ws.env({ HOOKPM_HOME: join(linked, 'Application Support', 'hookpm') });
    const root = join(ws.dir, `probe${ws.n}`);
    await writeClaudePlugin(root, 'probe', {
      PreToolUse: [
        { hooks: [{ type: 'command', command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/p.mjs'] }] },
      ],
    });
    await copyFile(PROBE, join(root, 'p.mjs'));
    const manifest = { name: 'probe', version: '1.0.0', capabilities: CONFINED };
    await writeFile(join(root, '.claude-plugin', 'plugin.json'), JSON.stringify(manifest));
    expect((await ws.hookpm(['install', root, '--yes'], { env })).code).toBe(0);
    expect((await wireBash('data', env)).reason).toBe('probe data: DONE');
    for (const home of [linked, join(ws.dir, `real${ws.n}`)]) {
      const state = join(home, 'Application Support', 'hookpm', 'data', 'state.json');
      expect(existsSync(state)).toBe(true);
      expect((await wireBash(`read ${state}`, env)).reason).toBe('probe read: blocked ENOENT');
    }
  });

  it('Z4: with TMPDIR reached through a symlink, a handler that declares tmp still runs confined', async () => {
    await installProbe({ network: false, write: ['data', 'tmp'] });
    await mkdir(join(ws.dir, `realtmp${ws.n}`, 'tmp dir'), { recursive: true });
    const linked = join(ws.dir, `linked tmp ${ws.n}`);
    await symlink(join(ws.dir, `realtmp${ws.n}`), linked);
    const env = ws.env({ TMPDIR: join(linked, 'tmp dir') });
    expect((await wireBash('data', env)).reason).toBe('probe data: DONE');
  });

  it('X6/Z4: a grandchild in a session of its own does not outlive the handler past its deadline', async () => {
    await installProbe(CONFINED);
    const { decision, ms } = await wireBash('linger');
    expect(decision).toBeUndefined(); // a timeout without onFailure lets the call through (X6)
    expect(ms).toBeLessThan(4000);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect(existsSync(join(dataDir(), 'late'))).toBe(false);
  }, 20_000);

  it('Z6: without bubblewrap on PATH a confined handler never runs: the tool call is denied, naming the fix', async () => {
    await installProbe(CONFINED);
    const bin = join(ws.dir, `nobwrap${ws.n}`);
    await mkdir(bin, { recursive: true });
    await symlink(process.execPath, join(bin, 'node'));
    const { decision, reason } = await wireBash('data', ws.env({ PATH: bin }));
    expect(decision).toBe('deny');
    expect(reason).toMatch(
      /^hookpm fails closed: handler PreToolUse:0:0 of plugin probe@local must run confined/,
    );
    expect(reason).toContain('install bubblewrap');
    expect(existsSync(join(dataDir(), 'ok'))).toBe(false);
  });

  it('Z6: a bwrap that hangs setting the sandbox up (a stuck mount) until the deadline denies the call, never a timeout that lets it through', async () => {
    await installProbe(CONFINED);
    const bin = join(ws.dir, `hungbwrap${ws.n}`);
    await mkdir(bin, { recursive: true });
    await symlink(process.execPath, join(bin, 'node'));
    // Stands in for a bwrap stuck in a bind: it never reports the sandbox set up.
    await writeFile(join(bin, 'bwrap'), '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    const { decision, reason } = await wireBash('data', ws.env({ PATH: `${bin}:/usr/bin:/bin` }));
    expect(decision).toBe('deny');
    expect(reason).toMatch(
      /^hookpm fails closed: handler PreToolUse:0:0 of plugin probe@local must run confined/,
    );
    expect(reason).toContain("the sandbox was not set up by the handler's deadline");
    expect(existsSync(join(dataDir(), 'ok'))).toBe(false);
  });

  it('Z6: a sandbox whose mounts fail after bwrap started it (a hidden place that is a file) denies the call, never a plain exit 1 that lets it through', async () => {
    await installProbe(CONFINED);
    // The store's cache, which the sandbox hides under a tmpfs, is a file: bwrap reports the
    // sandbox's pid, then fails to mount there and exits 1 without running the handler.
    const cache = join(ws.home, 'hookpm', 'cache');
    await rm(cache, { recursive: true, force: true });
    await writeFile(cache, 'not a directory');
    const { decision, reason } = await wireBash('data');
    expect(decision).toBe('deny');
    expect(reason).toMatch(
      /^hookpm fails closed: handler PreToolUse:0:0 of plugin probe@local must run confined, and the sandbox cannot be set up \(bwrap: /,
    );
    expect(existsSync(join(dataDir(), 'ok'))).toBe(false);
  });

  it('Z4: `hookpm test` runs a plugin that declares capabilities confined, as it runs installed', async () => {
    const root = await installProbe(CONFINED);
    const input = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'home' } });
    const run = await ws.hookpm(['test', root, 'PreToolUse', '--payload', input, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { handlers: Array<{ stderr: string }> };
    expect(report.handlers[0]?.stderr).toBe('probe home: blocked EROFS');
    expect(existsSync(join(ws.home, 'pwned'))).toBe(false);
  });

  it("Z4: a plugin that declares nothing runs unconfined, with the user's rights, as before", async () => {
    await installProbe(null);
    expect((await wireBash('home')).reason).toBe('probe home: DONE');
    expect(existsSync(join(ws.home, 'pwned'))).toBe(true);
  });
});
