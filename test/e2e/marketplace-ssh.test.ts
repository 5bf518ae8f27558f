/**
 * A marketplace in a git repository reached over ssh (registry.md, registry kinds: `ssh://` URLs
 * and the scp-like `git@host:path` form), end to end with the built binary: `registry add` clones
 * it, `install` installs a plugin it lists; a `git://` location is E_INSECURE_URL, nothing added.
 *
 * No ssh server runs here: a stand-in `ssh` first on PATH records the arguments git gave it and
 * runs the remote command (git-upload-pack) on this machine from `/`, as sshd would on the host
 * from the login's home.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { marketplaceCatalog } from '../helpers/claude-plugin.js';
import { gitTestEnv, makeRepo, requireGit } from '../helpers/git-repo.js';
import { INSTALL_TIMEOUT_MS } from '../helpers/system-package.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

let scratch: string;
let repoDir: string;
let sshBin: string;
let home: TempHome;

beforeAll(requireGit, INSTALL_TIMEOUT_MS);
beforeAll(async () => {
  ensureBuilt();
  scratch = await mkdtemp(join(tmpdir(), 'hookpm-mkt-ssh-'));
  repoDir = join(scratch, 'market');
  await makeRepo(repoDir, gitTestEnv(scratch), {
    '.claude-plugin/marketplace.json': JSON.stringify(
      marketplaceCatalog('team', [{ name: 'guard', source: './plugins/guard' }]),
    ),
    'plugins/guard/.claude-plugin/plugin.json': JSON.stringify({
      name: 'guard',
      version: '1.0.0',
    }),
    'plugins/guard/hooks/hooks.json': JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
    }),
  });
  sshBin = join(scratch, 'bin');
  await mkdir(sshBin);
  await writeFile(
    join(sshBin, 'ssh'),
    '#!/bin/sh\nprintf "%s\\n" "$@" >> "$SSH_ARGS_LOG"\nfor last; do :; done\ncd /\nexec sh -c "$last"\n',
  );
  await chmod(join(sshBin, 'ssh'), 0o755);
}, 120_000);
afterAll(() => rm(scratch, { recursive: true, force: true }));
beforeEach(async () => {
  home = await makeTempHome('hookpm-mkt-ssh-home-');
});
afterEach(() => home.cleanup());

function hookpm(args: string[]) {
  return runBin(args, {
    env: {
      ...home.env,
      PATH: `${sshBin}:${home.env.PATH ?? ''}`,
      SSH_ARGS_LOG: join(home.dir, 'ssh-args'),
    },
    cwd: home.dir,
  });
}

describe('a marketplace over ssh (registry.md, registry kinds)', () => {
  it.each([
    ['an ssh:// URL with a port', (path: string) => `ssh://git@example.test:2222${path}`],
    ['the scp-like form', (path: string) => `git@example.test:${path.slice(1)}`],
  ])('%s: registry add clones it without prompting, install installs from it', async (_, url) => {
    const added = await hookpm(['registry', 'add', 'team', url(repoDir)]);
    expect(added.code, added.stderr).toBe(0);
    const args = (await readFile(join(home.dir, 'ssh-args'), 'utf8')).split('\n');
    expect(args).toEqual(expect.arrayContaining(['BatchMode=yes', 'git@example.test']));
    const installed = await hookpm(['install', 'guard@team', '--yes', '--json']);
    expect(installed.code, installed.stderr).toBe(0);
    const { installed: rows } = JSON.parse(installed.stdout) as {
      installed: Array<{ id: string; version: string }>;
    };
    expect(rows.map((r) => `${r.id}@${r.version}`)).toEqual(['guard@team@1.0.0']);
  });

  it('a git:// location is E_INSECURE_URL and no registry is added', async () => {
    const run = await hookpm(['registry', 'add', 'team', 'git://example.test/market.git']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('E_INSECURE_URL');
    expect(run.stderr).toContain('neither encrypted nor authenticated');
    const listed = await hookpm(['registry', 'list', '--json']);
    expect(listed.stdout).not.toContain('"team"');
  });
});
