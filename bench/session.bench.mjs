// 1,000 sequential `dispatch` calls with no matching handler through a running `hookpm session`
// process (JSON-RPC over its stdin/stdout; each request written once the previous reply arrived),
// next to the same loop calling the library session (createSession) directly. Target: above 5,000
// requests per second through the process, i.e. under 0.2 ms per request. The workspace has a user
// hooks file whose handlers do not match the dispatched event. Uses dist/.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSession } from '../dist/index.js';
import { median } from './measure.mjs';

const CALLS = 1000;
const ROUNDS = 7;
const TARGET_PER_SECOND = 5000;
const BIN = fileURLToPath(new URL('../bin/hookpm.js', import.meta.url));
const PAYLOAD = { tool_name: 'Bash', tool_input: { command: 'ls' } };

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'hookpm-bench-session-'));
  const home = join(dir, 'home');
  const repo = join(dir, 'repo');
  mkdirSync(join(home, '.deepagents'), { recursive: true });
  mkdirSync(join(repo, '.git'), { recursive: true });
  const never = (matcher) => ({ matcher, hooks: [{ type: 'command', command: 'true' }] });
  const hooks = { PreToolUse: [never('Write'), never('Edit|MultiEdit')], Stop: [never('*')] };
  writeFileSync(join(home, '.deepagents', 'hooks.json'), JSON.stringify({ hooks }));
  const env = { PATH: process.env.PATH ?? '', HOME: home, HOOKPM_HOME: join(home, 'hookpm') };
  return { dir, home, repo, env };
}

/** A session process and a function sending one request and resolving with its reply line. */
async function startProcess(ws) {
  const child = spawn(process.execPath, [BIN, 'session'], {
    cwd: ws.repo,
    env: ws.env,
    stdio: 'pipe',
  });
  let partial = '';
  let waiting = null;
  const lines = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop();
    for (const line of parts) {
      if (waiting !== null) {
        const wake = waiting;
        waiting = null;
        wake(line);
      } else lines.push(line);
    }
  });
  const next = () =>
    lines.length > 0
      ? Promise.resolve(lines.shift())
      : new Promise((resolve) => (waiting = resolve));
  const ready = JSON.parse(await next());
  if (ready.method !== 'ready')
    throw new Error(`Assertion failed: first line ${JSON.stringify(ready)}`);
  let id = 0;
  const call = async () => {
    id += 1;
    child.stdin.write(
      `{"jsonrpc":"2.0","id":${id},"method":"dispatch","params":{"event":"PreToolUse","payload":${JSON.stringify(PAYLOAD)}}}\n`,
    );
    const reply = JSON.parse(await next());
    if (reply.id !== id || reply.result?.runs.length !== 0) {
      throw new Error(`Assertion failed: unexpected reply ${JSON.stringify(reply)}`);
    }
  };
  const stop = () =>
    new Promise((resolve) => {
      child.on('close', resolve);
      child.stdin.end();
    });
  return { call, stop };
}

async function loopMs(call) {
  const began = performance.now();
  for (let i = 0; i < CALLS; i += 1) await call();
  return performance.now() - began;
}

export default async function bench() {
  const ws = workspace();
  try {
    const proc = await startProcess(ws);
    const library = await createSession({ cwd: ws.repo, home: ws.home, env: ws.env });
    const direct = async () => {
      const result = await library.dispatch('PreToolUse', PAYLOAD);
      if (result.runs.length !== 0) throw new Error('Assertion failed: a handler matched');
    };
    const viaProcess = [];
    const viaLibrary = [];
    await loopMs(proc.call); // warm-up
    await loopMs(direct);
    for (let round = 0; round < ROUNDS; round += 1) {
      viaProcess.push(await loopMs(proc.call));
      viaLibrary.push(await loopMs(direct));
    }
    await proc.stop();
    await library.close();
    const perCall = median(viaProcess) / CALLS;
    const perSecond = Math.round(1000 / perCall);
    const libraryPerSecond = Math.round(1000 / (median(viaLibrary) / CALLS));
    return [
      {
        name: `session: ${CALLS} sequential dispatches, stdio (${perSecond} req/s)`,
        valueMs: perCall,
        yardstick: { name: `library (${libraryPerSecond}/s)`, valueMs: median(viaLibrary) / CALLS },
        targetMs: 1000 / TARGET_PER_SECOND,
      },
    ];
  } finally {
    rmSync(ws.dir, { recursive: true, force: true });
  }
}
