/**
 * registry.md K6 in a process of its own: a headers helper that leaves behind a process of another
 * session (setsid, as a daemon does) still holding its output fails at the deadline, and hookpm
 * then ends without waiting for that process. The compiled sources run in a child node.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startChild } from '../helpers/child.js';
import { compiledSandbox } from '../helpers/compile-src.js';

const sandbox = compiledSandbox('hookpm-git-helper-');

const SCRIPT = `
const { gitHeadersFor } = await import(process.env.HOOKPM_TEST_SRC + '/registry/git/git-auth.js');
const settings = { headersHelper: process.argv[1] };
await gitHeadersFor('https://example.test/m.git', process.env, settings, 300).then(
  () => console.log('answered'),
  (error) => console.log(error.code),
);
`;

it('K6: a helper whose daemon of another session holds its output is E_GIT at the deadline, and the process ends without it', async () => {
  const pidFile = join(sandbox.dir, 'daemon.pid');
  const helper = `setsid sleep 60 & echo $! > ${pidFile}; wait`;
  const child = startChild(
    process.execPath,
    ['--input-type=module', '-e', SCRIPT, helper],
    sandbox.env,
  );
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
