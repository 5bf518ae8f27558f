import { spawn } from 'node:child_process';
import { once } from 'node:events';
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

describe('hookpm wire: reading the payload', () => {
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
});
