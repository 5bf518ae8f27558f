import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built-bin.js';

const STDIO = pathToFileURL(join(import.meta.dirname, '..', '..', 'dist', 'cli', 'stdio.js')).href;

let tmp: string;

beforeAll(async () => {
  ensureBuilt();
  tmp = await mkdtemp(join(tmpdir(), 'hookpm-stdio-'));
}, 60_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('cli/stdio.ts writeText', () => {
  it('cli.md section 1: output that a full non-blocking pipe hands to the stream stays in order with what is written after it', async () => {
    // process.stdout over a pipe makes the descriptor non-blocking. 4 MiB fills the pipe, so
    // writeText meets EAGAIN and the stream queues the rest; while the process is busy the reader
    // empties the pipe, so a later direct write would overtake what the stream still holds.
    const script = join(tmp, 'writer.mjs');
    await writeFile(
      script,
      [
        `import { exitWhenWritten, writeText } from ${JSON.stringify(STDIO)};`,
        'void process.stdout;',
        "writeText(1, 'a'.repeat(4 * 1024 * 1024));",
        'const until = Date.now() + 200;',
        'while (Date.now() < until);',
        "writeText(1, 'END\\n');",
        'exitWhenWritten();',
      ].join('\n'),
    );
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    const out = Buffer.concat(chunks).toString('latin1');
    expect(code).toBe(0);
    expect(out.length).toBe(4 * 1024 * 1024 + 4);
    expect(out.endsWith('END\n')).toBe(true);
    expect(out.indexOf('END')).toBe(4 * 1024 * 1024);
  });
});
