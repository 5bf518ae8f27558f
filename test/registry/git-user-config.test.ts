/**
 * What the user's own git configuration decides for a clone (git-user-config.ts), as it does for
 * their own `git clone` and for Claude Code's marketplace clones: `url.<base>.insteadOf` rules
 * (`git@github.com:` for `https://github.com/`, or back) and their own ssh program
 * (GIT_SSH_COMMAND, `core.sshCommand`). What they rewrite to must still be a location hookpm clones
 * from (registry.md, registry kinds).
 *
 * No ssh server runs here: a stand-in `ssh` records how git called it and runs the remote command
 * (git-upload-pack) on this machine, as sshd would on the host.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneShallow } from '../../src/registry/git/git-fetch.js';
import { gitTestEnv, makeRepo, requireGit } from '../helpers/git-repo.js';
import { INSTALL_TIMEOUT_MS } from '../helpers/system-package.js';
import { failure } from '../helpers/failure.js';

let tmp: string;
let repo: string;
let head: string;
let n = 0;

beforeAll(requireGit, INSTALL_TIMEOUT_MS);
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'hookpm-git-user-'));
  repo = join(tmp, 'origin');
  head = await makeRepo(repo, gitTestEnv(tmp), { 'plugin.json': '{"name":"one"}\n' });
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** A fresh HOME whose ~/.gitconfig is `gitconfig`, and the environment of a clone from it. */
async function home(gitconfig: string, extra: Record<string, string> = {}) {
  n += 1;
  const dir = join(tmp, `home-${n}`);
  await mkdir(dir);
  await writeFile(join(dir, '.gitconfig'), gitconfig);
  return { dir, env: { ...gitTestEnv(dir), ...extra }, dest: join(tmp, `clone-${n}`) };
}

/** cloneShallow of `url` into the clone directory of `h`, in its environment. */
function cloneIn(h: { env: Record<string, string | undefined>; dest: string }, url: string) {
  return cloneShallow(url, { dest: h.dest, timeoutMs: 30_000, env: h.env });
}

/** A directory holding a stand-in `ssh` that logs its arguments to `log`, or fails when `fail`. */
async function sshBin(name: string, log: string, fail = false): Promise<string> {
  const bin = join(tmp, name);
  await mkdir(bin, { recursive: true });
  const body = fail
    ? `echo "${name}: Permission denied (publickey)." >&2\nexit 255\n`
    : `printf "%s\\n" "$@" >> '${log}'\nfor last; do :; done\ncd /\nexec sh -c "$last"\n`;
  await writeFile(join(bin, 'ssh'), `#!/bin/sh\n${body}`);
  await chmod(join(bin, 'ssh'), 0o755);
  return bin;
}

describe("the user's git configuration (registry.md, registry kinds and K6)", () => {
  it("an https URL that the user's insteadOf rewrites to ssh is cloned over ssh, as git would", async () => {
    const log = join(tmp, 'rewrite-ssh.log');
    const bin = await sshBin('ssh-rewrite', log);
    const h = await home(
      '[url "ssh://git@example.test:2222/"]\n\tinsteadOf = https://git.example.test/\n',
      {
        PATH: `${bin}:${process.env.PATH ?? ''}`,
      },
    );
    const clone = await cloneIn(h, `https://git.example.test${repo}`);
    expect(clone.commit).toBe(head);
    const args = (await readFile(log, 'utf8')).split('\n');
    expect(args).toEqual(expect.arrayContaining(['BatchMode=yes', '2222', 'git@example.test']));
  });

  it("an https URL that the user's insteadOf rewrites to a local repository is cloned from it", async () => {
    const h = await home(`[url "${tmp}/"]\n\tinsteadOf = https://git.example.test/\n`);
    const clone = await cloneIn(h, 'https://git.example.test/origin');
    expect(clone.commit).toBe(head);
  });

  it('a rewrite to a location hookpm never clones from (git://, ext::) is refused before git fetches', async () => {
    const marker = join(tmp, 'ext-ran');
    const cases: [string, string][] = [
      ['git://example.test/', 'E_INSECURE_URL'],
      [`ext::sh -c touch% ${marker}% #`, 'E_REGISTRY_SCHEMA'],
    ];
    for (const [base, code] of cases) {
      const h = await home(`[url "${base}"]\n\tinsteadOf = https://git.example.test/\n`);
      const error = await failure(cloneIn(h, 'https://git.example.test/origin'));
      expect(error.code).toBe(code);
      expect(error.message).toContain('insteadOf');
      expect(existsSync(h.dest)).toBe(false);
    }
    expect(existsSync(marker)).toBe(false);
  });

  it("the user's GIT_SSH_COMMAND or core.sshCommand is the ssh program run, not replaced", async () => {
    const log = join(tmp, 'own-ssh.log');
    const own = await sshBin('ssh-own', log);
    // The ssh on PATH is not the user's: it refuses, as one without the user's key would.
    const other = await sshBin('ssh-other', log, true);
    const path = { PATH: `${other}:${process.env.PATH ?? ''}` };
    const viaEnv = await home('', { ...path, GIT_SSH_COMMAND: `${own}/ssh -i deploy_key` });
    const viaConfig = await home(`[core]\n\tsshCommand = ${own}/ssh -i deploy_key\n`, path);
    for (const h of [viaEnv, viaConfig]) {
      await writeFile(log, '');
      const clone = await cloneIn(h, `ssh://git@example.test${repo}`);
      expect(clone.commit).toBe(head);
      const args = (await readFile(log, 'utf8')).split('\n');
      expect(args).toEqual(expect.arrayContaining(['-i', 'deploy_key', 'git@example.test']));
    }
  });
});
