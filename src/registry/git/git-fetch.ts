import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { HookpmError } from '../../errors.js';
import { checkRepositoryUrl, isCommitSha, isSafeRef } from './repository-url.js';
import { gitEnvironment, runGit, type GitContext, type GitWatch } from './git-run.js';
import { bytesUnder, CLONE_LIMITS, treeCounter, type CloneLimits } from './git-clone-limits.js';
import { gitHeaderEnvironment, gitHeadersFor, type GitAuthSettings } from './git-auth.js';
import { readGitUserConfig } from './git-user-config.js';
import { shownUrl, withoutUserInfo } from '../http/url-policy.js';

export interface CloneOptions {
  /** A branch or tag to check out; default the remote's HEAD. */
  ref?: string;
  /** A full commit id to check out (it wins over `ref`); the result is verified against it. */
  sha?: string;
  /** Deadline for all git commands of this clone together. */
  timeoutMs: number;
  /** A directory that does not exist yet or is empty; removed again when the clone fails. */
  dest: string;
  /** The environment git starts from (the caller's, filtered by gitEnvironment). */
  env: Record<string, string | undefined>;
  /** K6: token variables and settings.json's `git` settings for private HTTPS hosts. */
  auth?: GitAuthSettings;
  /** What the clone may bring onto the disk; default CLONE_LIMITS. */
  limits?: CloneLimits;
}

export interface Clone {
  dir: string;
  /** The checked-out commit (`git rev-parse HEAD`). */
  commit: string;
}

/** The default deadline of a clone (a marketplace or plugin repository). */
export const CLONE_TIMEOUT_MS = 120_000;

/**
 * Fetches one commit of a repository with the system git, shallow (`--depth 1`, no tags, no
 * submodules, no LFS smudge), and checks it out detached in `dest`. URLs follow
 * repository-url.ts (https, loopback http, file and local paths, `git@host:path`), and so must
 * what the user's `url.<base>.insteadOf` rules rewrite it to (git-user-config.ts): git itself is
 * told to allow only the protocol of the URL it then fetches, and tokens (K6) are for that URL.
 * Repository hooks never run (core.hooksPath is /dev/null), nothing prompts, and at the deadline
 * git and its helpers are killed. A `sha` that the server will not serve directly is looked for
 * in the full history of `ref` (or HEAD).
 * Errors: E_GIT naming the redacted URL; E_INSECURE_URL / E_REGISTRY_SCHEMA for a refused URL;
 * E_USAGE for a ref or sha that is not one.
 */
export async function cloneShallow(url: string, opts: CloneOptions): Promise<Clone> {
  const checked = checkRepositoryUrl(url);
  const shown = shownUrl(url);
  if (!checked.ok)
    throw new HookpmError(checked.code, `cannot clone: ${checked.problem}`, { url: shown });
  if (opts.ref !== undefined && !isSafeRef(opts.ref))
    throw usage(`${JSON.stringify(opts.ref.slice(0, 100))} is not a branch or tag name`, shown);
  if (opts.sha !== undefined && !isCommitSha(opts.sha))
    throw usage(`${JSON.stringify(opts.sha.slice(0, 100))} is not a full commit id`, shown);
  const dest = resolve(opts.dest);
  await prepareDest(dest);
  // Its user and password travel in the Authorization header below, never on git's command line.
  const remote = withoutUserInfo(checked.url);
  // Until the user's configuration is read: the URL's protocol, and the user's own ssh settings.
  let config = gitConfig(checked.protocol);
  let ctx: GitContext = {
    env: gitEnvironment(opts.env, checked.protocol, 'own'),
    deadline: Date.now() + opts.timeoutMs,
  };
  const limits = opts.limits ?? CLONE_LIMITS;
  let tooLarge: string | null = null;
  const git = async (args: readonly string[], watch: GitWatch = {}): Promise<string> => {
    const outcome = await runGit(['-C', dest, ...config, ...args], ctx, watch);
    if (outcome.ok) return outcome.stdout;
    if (tooLarge !== null) throw cloneTooLarge(shown, tooLarge);
    throw new HookpmError('E_GIT', `cannot clone ${shown}: ${outcome.reason}`, {
      url: shown,
      hint:
        outcome.reason === 'timed out'
          ? `git did not finish within ${opts.timeoutMs} ms; check the network, or try again.`
          : 'Check the URL, the ref and your access to the repository (hookpm never prompts for credentials).',
    });
  };
  /** E_GIT naming `sha` when neither fetch brought that commit (git would say "not a tree"). */
  const requireCommit = async (sha: string): Promise<void> => {
    const found = await runGit(['-C', dest, ...config, 'cat-file', '-e', `${sha}^{commit}`], ctx);
    if (found.ok) return;
    const searched = opts.ref === undefined ? 'its default branch' : `the history of ${opts.ref}`;
    throw new HookpmError(
      'E_GIT',
      `cannot clone ${shown}: the commit ${sha} is not in the repository (searched ${searched})`,
      {
        url: shown,
        expected: sha,
        hint: 'Check the sha: it must be a commit the server serves, or one in the history of the ref.',
      },
    );
  };
  // The download stops once `.git` holds more than the limit; the checkout is counted first.
  const fetchWatch: GitWatch = {
    poll: () => {
      const held = bytesUnder(join(dest, '.git'));
      if (held <= limits.maxFetchBytes) return null;
      tooLarge = `it downloads more than ${limits.maxFetchBytes} bytes`;
      return tooLarge;
    },
  };
  try {
    await git(['init', '-q']);
    // git applies the user's `url.<base>.insteadOf` rules when it fetches: the protocol allowed,
    // the tokens and the ssh program are those of the URL it then fetches.
    const user = await readGitUserConfig(['-C', dest, ...config], remote, ctx);
    const protocol = user.fetched.protocol;
    config = gitConfig(protocol);
    // K6: tokens and helper headers for the origin git fetches from only, through the environment.
    const authUrl = user.rewritten ? user.fetched.url : checked.url;
    const headers = await gitHeadersFor(authUrl, opts.env, opts.auth ?? {});
    ctx = {
      env: {
        ...gitEnvironment(opts.env, protocol, user.ownSsh ? 'own' : 'batch'),
        ...gitHeaderEnvironment(opts.env, authUrl, headers),
      },
      deadline: ctx.deadline,
    };
    const want = opts.sha ?? opts.ref ?? 'HEAD';
    const fetch = ['fetch', '-q', '--no-tags', '--no-recurse-submodules'];
    try {
      await git([...fetch, '--depth', '1', '--', remote, want], fetchWatch);
    } catch (error) {
      if (opts.sha === undefined || tooLarge !== null) throw error;
      await git([...fetch, '--', remote, opts.ref ?? 'HEAD'], fetchWatch);
    }
    // A download that ended between two polls is measured once more.
    const fetched = fetchWatch.poll?.() ?? null;
    if (fetched !== null) throw cloneTooLarge(shown, fetched);
    const tree = treeCounter(limits);
    const listing: GitWatch = {
      output: (chunk) => {
        tree.feed(chunk);
        tooLarge = tree.over();
        return tooLarge;
      },
    };
    const rev = opts.sha ?? 'FETCH_HEAD';
    if (opts.sha !== undefined) await requireCommit(opts.sha);
    await git(['ls-tree', '-r', '-l', '-z', '--full-tree', rev], listing);
    await git(['checkout', '-q', '--detach', rev]);
    const commit = (await git(['rev-parse', 'HEAD'])).trim();
    if (opts.sha !== undefined && commit !== opts.sha.toLowerCase()) {
      throw new HookpmError(
        'E_GIT',
        `cannot clone ${shown}: checked out ${commit}, expected ${opts.sha}`,
        { url: shown, expected: opts.sha, found: commit },
      );
    }
    return { dir: dest, commit };
  } catch (error) {
    await rm(dest, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * The `-c` settings of every git command of a clone: no repository hooks, no fsmonitor, only
 * `protocol` allowed, no submodules, a repository made without templates.
 */
function gitConfig(protocol: string): string[] {
  return [
    'core.hooksPath=/dev/null',
    'core.fsmonitor=false',
    'protocol.allow=never',
    `protocol.${protocol}.allow=always`,
    'submodule.recurse=false',
    'fetch.recurseSubmodules=false',
    'advice.detachedHead=false',
    'init.templateDir=',
  ].flatMap((c) => ['-c', c]);
}

/**
 * The root of the git work tree holding `dir` (the nearest directory with a `.git` entry, `dir`
 * included), or null outside any. It bounds a local marketplace's relative sources.
 */
export async function findRepositoryRoot(dir: string): Promise<string | null> {
  let current = resolve(dir);
  for (;;) {
    if (await exists(join(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

async function prepareDest(dest: string): Promise<void> {
  const entries = await readdir(dest).catch(() => null);
  if (entries !== null && entries.length > 0)
    throw new Error(`Assertion failed: clone destination ${dest} is not empty`);
  await mkdir(dest, { recursive: true });
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** A clone stopped at CloneLimits (`why`: which one). */
function cloneTooLarge(url: string, why: string): HookpmError {
  return new HookpmError('E_ARCHIVE_TOO_LARGE', `cannot clone ${url}: ${why}`, {
    url,
    hint: 'hookpm clones at most 1 GiB and 200,000 files. For a larger marketplace repository, clone it yourself and add its directory: `hookpm registry add <name> <dir>`.',
  });
}

function usage(what: string, url: string): HookpmError {
  return new HookpmError('E_USAGE', `cannot clone ${url}: ${what}`, {
    url,
    hint: 'A ref is a branch or tag name (no leading "-"); a sha is a full 40-hex commit id.',
  });
}
