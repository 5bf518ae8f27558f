/**
 * What a linked event reads (engine.md X10), through the built `hookpm wire claude`: the session
 * pin's tables by event and matcher rather than the pin, no `node:crypto` on a matching event
 * that has nothing to hash, and no zod when no handler printed JSON.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/built-bin.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { claudePayload } from '../helpers/claude-payload.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';

const ws = useBinWorkspace('e2e-wire-per-event');

const SESSION = '5e551011-0000-4000-8000-00000000000a';

const payload = (event: string, extra: Record<string, unknown> = {}, session = SESSION) =>
  claudePayload(ws, event, session, extra);

/** `hookpm wire claude` with `probe` preloaded: its exit code, stdout and stderr. */
function wire(body: string, probe?: string) {
  const args = [...(probe === undefined ? [] : ['--require', probe]), BIN, 'wire', 'claude'];
  return spawnSync(process.execPath, args, {
    cwd: ws.repo,
    env: ws.env(),
    input: body,
    encoding: 'utf8',
  });
}

/** Writes a plugin named `name` holding `hooks` and installs it. */
async function installPlugin(name: string, hooks: Record<string, unknown>): Promise<void> {
  const root = await writeClaudePlugin(join(ws.dir, `plugin${ws.n}`), name, hooks);
  expect((await ws.hookpm(['install', root, '--yes'])).code).toBe(0);
}

/**
 * A script to preload into `hookpm wire` (`probe`) that writes, as the process exits, the JSON of
 * `expression` to `seen`.
 */
async function writeProbe(expression: string): Promise<{ probe: string; seen: string }> {
  const probe = join(ws.dir, `probe${ws.n}.cjs`);
  const seen = join(ws.dir, `seen${ws.n}.json`);
  await writeFile(
    probe,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify(${expression})));\n`,
  );
  return { probe, seen };
}

/** The modules of Node's crypto the process loaded, as a probe's expression. */
const CRYPTO_LOADED = 'process.moduleLoadList.filter((m) => /crypto/i.test(m))';

describe('hookpm wire: per-event cost (engine.md X10)', () => {
  it('X10, L1: a matching event runs from the pin tables (the pin itself unreadable) and, with nothing to hash and no output to read, loads neither node:crypto nor zod', async () => {
    const marker = join(ws.dir, `ran${ws.n}`);
    const touch = { type: 'command', command: `touch ${marker}`, argv: ['touch', marker] };
    const hooks = {
      PreToolUse: [
        { matcher: 'Bash', hooks: [touch] },
        { matcher: 'Write', hooks: [{ type: 'command', command: 'false', argv: ['false'] }] },
      ],
    };
    await installPlugin('marks', hooks);
    // The stat cache keeps a file's hash only once its stat is older than its racy window (2 s,
    // store/fingerprint-cache.ts): the events below come after it, as any but the first seconds'.
    await new Promise((done) => setTimeout(done, 2_100));
    // The decision log names each run by its hook key (a SHA-256): off, nothing is hashed.
    await mkdir(join(ws.home, 'hookpm', 'config'), { recursive: true });
    await writeFile(
      join(ws.home, 'hookpm', 'config', 'settings.json'),
      JSON.stringify({ log: { enabled: false } }),
    );
    expect(wire(payload('SessionStart', { source: 'startup' })).status).toBe(0);
    const bash = payload('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    // A first event checks the tree and caches its stats (hashing is allowed then).
    expect(wire(bash).status).toBe(0);
    expect(existsSync(marker)).toBe(true);
    // The pin itself is no longer what an event reads: its tables are.
    const sessions = join(ws.home, 'hookpm', 'data', 'sessions');
    const names = await readdir(sessions);
    const pin = names.find((n) => n.endsWith('.json'))!;
    expect(names).toContain(pin.replace(/\.json$/, '.head'));
    await writeFile(join(sessions, pin), 'not a pin any more');
    // zod sets globalThis.__zod_globalConfig as it loads: a handler that prints nothing needs no
    // JSON reader (L1, engine/wire-output-reader.ts).
    const { probe, seen } = await writeProbe(
      `{ crypto: ${CRYPTO_LOADED}, zod: globalThis.__zod_globalConfig !== undefined }`,
    );
    await rm(marker);
    const run = wire(bash, probe);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    expect(existsSync(marker)).toBe(true);
    expect(JSON.parse(await readFile(seen, 'utf8'))).toEqual({ crypto: [], zod: false });
    // The pin stays as it was: an event whose tables are whole never reads or rewrites it.
    expect(await readFile(join(sessions, pin), 'utf8')).toBe('not a pin any more');
  });

  it('X12: with the decision log on, a matching event names its hook by the key the pin tables hold, and loads no node:crypto', async () => {
    const hooks = {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'true', argv: ['true'] }] },
      ],
    };
    await installPlugin('keyed', hooks);
    // Past the stat cache's racy window (see the test above).
    await new Promise((done) => setTimeout(done, 2_100));
    await rm(join(ws.home, 'hookpm', 'config', 'settings.json'), { force: true });
    const listed = await ws.hookpm(['hooks', '--json']);
    const key = (
      JSON.parse(listed.stdout) as {
        handlers: Array<{ plugin: string | null; key: string | null }>;
      }
    ).handlers.find((h) => h.plugin === 'keyed@local')?.key;
    expect(key).toMatch(/^[0-9a-f]{10}$/);
    const session = '5e551011-0000-4000-8000-00000000000b';
    expect(wire(payload('SessionStart', { source: 'startup' }, session)).status).toBe(0);
    const bash = payload(
      'PreToolUse',
      { tool_name: 'Bash', tool_input: { command: 'ls' } },
      session,
    );
    expect(wire(bash).status).toBe(0);
    const { probe, seen } = await writeProbe(CRYPTO_LOADED);
    const run = wire(bash, probe);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(await readFile(seen, 'utf8'))).toEqual([]);
    const log = await readFile(join(ws.home, 'hookpm', 'data', 'log', 'dispatch.jsonl'), 'utf8');
    const last = JSON.parse(log.trim().split('\n').pop()!) as {
      session: string;
      runs: Array<{ plugin: string; key: string }>;
    };
    expect(last.session).toBe(session);
    expect(last.runs.filter((r) => r.plugin === 'keyed@local').map((r) => r.key)).toEqual([key]);
  });

  it('L1: a handler that prints a JSON deny gets its reader loaded on the event, and the deny reaches the agent', async () => {
    const deny = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no rm here',
      },
    });
    const hooks = {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'command', command: 'printf', argv: ['printf', '%s', deny] }],
        },
      ],
    };
    await installPlugin('denies', hooks);
    const session = '5e551011-0000-4000-8000-00000000000c';
    expect(wire(payload('SessionStart', { source: 'startup' }, session)).status).toBe(0);
    const removal = { tool_name: 'Bash', tool_input: { command: 'rm x' } };
    const run = wire(payload('PreToolUse', removal, session));
    expect(run.status, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout) as {
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    };
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('no rm here');
  });
});
