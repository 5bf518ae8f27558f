import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/built-bin.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';

// How `hookpm wire <agent>` reads the agent's payload from stdin (docs/guides/agents.md): a payload
// it cannot use is a clear exit 1 (a non-blocking hook error for the agents), never E_INTERNAL.

const ws = useBinWorkspace('e2e-wire-stdin');

/** Runs `hookpm wire <agent>`, `write` feeding its stdin; answers its exit, stdout and stderr. */
async function wire(agent: string, write: (stdin: NodeJS.WritableStream) => void) {
  const child = spawn(process.execPath, [BIN, 'wire', agent], { cwd: ws.repo, env: ws.env() });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  write(child.stdin);
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/**
 * Python, as the parent: Node's own spawn makes a child's stdin blocking again, another parent
 * need not. A FIFO opened O_NONBLOCK with a writer attached is hookpm's stdin, so its first reads
 * find nothing yet (EAGAIN); argv[2] comes 300 ms later. Prints hookpm's exit, stdout and stderr.
 */
const NON_BLOCKING_PARENT = `
import json, os, subprocess, sys, time
fifo = sys.argv[1]
os.mkfifo(fifo)
reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
writer = os.open(fifo, os.O_WRONLY)
child = subprocess.Popen(sys.argv[3:], stdin=reader, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
os.close(reader)
time.sleep(0.3)
try:
    os.write(writer, sys.argv[2].encode())
except BrokenPipeError:
    pass  # hookpm ended before reading: its answer below says why
os.close(writer)
out, err = child.communicate()
print(json.dumps({"code": child.returncode, "stdout": out.decode(), "stderr": err.decode()}))
`;

/** Runs hookpm with `args` on a stdin its parent left non-blocking (NON_BLOCKING_PARENT). */
function onNonBlockingStdin(args: string[], body: string) {
  const fifo = join(ws.dir, `stdin${ws.n}-${args[0]}`);
  const parent = spawnSync(
    'python3',
    ['-c', NON_BLOCKING_PARENT, fifo, body, process.execPath, BIN, ...args],
    { cwd: ws.repo, env: ws.env(), encoding: 'utf8' },
  );
  expect(parent.status, parent.stderr).toBe(0);
  return JSON.parse(parent.stdout) as { code: number; stdout: string; stderr: string };
}

describe('hookpm wire: reading the payload', () => {
  it('a stdin its parent left non-blocking is waited on, never E_INTERNAL: wire answers, and `run --payload -` reads it', async () => {
    const event = JSON.stringify({
      session_id: 's',
      cwd: ws.repo,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    expect(onNonBlockingStdin(['wire', 'claude'], event)).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    const run = onNonBlockingStdin(['run', 'Stop', '--payload', '-', '--json'], '{}');
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout).toBe(0);
  });

  it('a payload longer than one string can hold (over 512 MiB) is exit 1 saying so, never E_INTERNAL', async () => {
    const megabyte = Buffer.alloc(1024 * 1024, 'a');
    const run = await wire('gemini', (stdin) => {
      stdin.on('error', () => {}); // hookpm stops reading at its limit
      let sent = 0;
      const more = (): void => {
        while (sent < 520) {
          sent += 1;
          if (!stdin.write(megabyte)) return void stdin.once('drain', more);
        }
        stdin.end();
      };
      more();
    });
    expect(run.stderr).not.toContain('E_INTERNAL');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^hookpm: Gemini CLI sent a payload that is longer than hookpm can read \(\d+ bytes\)\n$/,
    );
  }, 60_000);

  it('a stdin that cannot be read (a directory) is E_IO, exit 1 saying so, never E_INTERNAL', () => {
    const dir = openSync(ws.repo, 'r');
    try {
      const run = spawnSync(process.execPath, [BIN, 'wire', 'claude'], {
        cwd: ws.repo,
        env: ws.env(),
        stdio: [dir, 'pipe', 'pipe'],
        encoding: 'utf8',
      });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(
        /^hookpm: error\[E_IO\]: cannot read the agent's payload from stdin \(EISDIR\)\n/,
      );
    } finally {
      closeSync(dir);
    }
  });
});
