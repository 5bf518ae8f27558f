/**
 * registry.md K6 in a process of its own: a headers helper that leaves behind a process of another
 * session (setsid, as a daemon does) still holding its output fails at the deadline, and hookpm
 * then ends without waiting for that process. The built modules (dist/) run in a child node.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startChild } from '../helpers/child.js';
import { ensureBuilt } from '../helpers/built-bin.js';

const GIT_AUTH = pathToFileURL(
  join(import.meta.dirname, '..', '..', 'dist', 'registry', 'git', 'git-auth.js'),
).href;

const SCRIPT = `
const { gitHeadersFor } = await import(${JSON.stringify(GIT_AUTH)});
const settings = { headersHelper: process.argv[1] };
await gitHeadersFor('https://example.test/m.git', process.env, settings, 300).then(
  () => console.log('answered'),
  (error) => console.log(error.code),
);
`;

let dir = '';
beforeAll(async () => {
  ensureBuilt();
  dir = await mkdtemp(join(tmpdir(), 'hookpm-git-helper-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('K6: a helper whose daemon of another session holds its output is E_GIT at the deadline, and the process ends without it', async () => {
  const pidFile = join(dir, 'daemon.pid');
  const helper = `setsid sleep 60 & echo $! > ${pidFile}; wait`;
  const env = { ...(process.env as Record<string, string>), HOME: dir, HOOKPM_HOME: dir };
  const child = startChild(process.execPath, ['--input-type=module', '-e', SCRIPT, helper], env);
  const { code } = await child.exited;
  const pid = Number((await readFile(pidFile, 'utf8')).trim());
  try {
    expect(code, child.stderr()).toBe(0);
    expect(child.lines).toEqual(['E_GIT']);
    // The daemon outlived the helper's group: the child ended without waiting for it.
    expect(() => process.kill(pid, 0)).not.toThrow();
  } finally {
    process.kill(pid, 'SIGKILL');
  }
});
