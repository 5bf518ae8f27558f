/**
 * A closed stdout ends the command quietly, with status 0 (docs/reference/commands.md#terminals-and-pipes), for
 * every kind of output: tables, the review, `--json`, help, doctor, the session host. Each run is
 * the built binary with its stdout a real pipe whose reading end the test closes: at once (every
 * write then fails with EPIPE), or after the first line of an output larger than a pipe holds.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, runBin } from '../helpers/built-bin.js';
import { useBuiltHome } from '../helpers/registry-home.js';

const home = useBuiltHome('hookpm-closed-stdout-');

beforeAll(async () => {
  // 3000 handlers: the `hooks` table is far larger than a pipe's 64 KiB.
  const handlers = Array.from({ length: 3000 }, (_, i) => ({
    type: 'command',
    command: `echo handler number ${i} with a command long enough to fill the pipe quickly`,
  }));
  await mkdir(join(home.dir, '.deepagents'), { recursive: true });
  await writeFile(
    join(home.dir, '.deepagents', 'hooks.json'),
    JSON.stringify({ hooks: { Stop: [{ hooks: handlers }] } }),
  );
  const installed = await runBin(['install', 'guard@examples', '--yes'], {
    env: home.env,
    cwd: home.dir,
  });
  expect(installed.code, installed.stderr).toBe(0);
}, 120_000);

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  firstLine: string;
}

/**
 * Runs hookpm with stdout on a pipe; `when: 'at-once'` closes the reading end before anything is
 * read, `'after-a-line'` once a first whole line has arrived.
 */
function runClosing(args: string[], when: 'at-once' | 'after-a-line'): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: home.dir, env: home.env });
    let stderr = '';
    let seen = '';
    child.on('error', reject);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end();
    if (when === 'at-once') child.stdout.destroy();
    else
      child.stdout.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('\n')) child.stdout.destroy();
      });
    child.on('close', (code, signal) =>
      resolve({ code, signal, stderr, firstLine: seen.split('\n')[0] ?? '' }),
    );
  });
}

describe('a closed stdout ends the command quietly', () => {
  it.each([
    [['doctor']],
    [['hooks']],
    [['hooks', '--json']],
    [['info', 'guard@examples']],
    [['info', 'guard@examples', '--json']],
    [['list']],
    [['list', '--json']],
    [['search']],
    [['search', '--json']],
    [['review', 'guard@examples']],
    [['review', 'guard@examples', '--json']],
    [['--help']],
    [['help', 'install']],
    [['session']],
  ])('hookpm %j with stdout closed before it writes: status 0, nothing on stderr', async (args) => {
    const ended = await runClosing(args, 'at-once');
    expect(ended.stderr).toBe('');
    expect(ended).toMatchObject({ code: 0, signal: null });
  });

  it('`hookpm hooks | head -1`: the first line arrives, then the closed pipe ends the rest quietly', async () => {
    const ended = await runClosing(['hooks'], 'after-a-line');
    expect(ended.firstLine).toMatch(/^ID\s+ORIGIN/);
    expect(ended.stderr).toBe('');
    expect(ended).toMatchObject({ code: 0, signal: null });
  });

  it('`hookpm hooks --json | head -1` and `hookpm doctor | head -1` end quietly after their first line', async () => {
    const json = await runClosing(['hooks', '--json'], 'after-a-line');
    expect(json.firstLine).toBe('{');
    expect(json).toMatchObject({ code: 0, stderr: '' });
    const doctor = await runClosing(['doctor'], 'after-a-line');
    expect(doctor.firstLine).not.toBe('');
    expect(doctor).toMatchObject({ code: 0, stderr: '' });
  });

  it('a command that fails keeps its status and message when stdout is closed', async () => {
    const ended = await runClosing(['info', 'no-such-plugin@examples'], 'at-once');
    expect(ended.code).toBe(1);
    expect(ended.stderr).toMatch(/^hookpm: error\[E_/);
    expect(ended.stderr).not.toContain('EPIPE');
  });
});
