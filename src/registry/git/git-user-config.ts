import { HookpmError } from '../../errors.js';
import { shownUrl } from '../http/url-policy.js';
import { runGit, type GitContext } from './git-run.js';
import { checkRepositoryUrl, type RepositoryUrl } from './repository-url.js';

/** What the user's own git configuration decides about one clone, before anything is fetched. */
export interface GitUserConfig {
  /**
   * The URL git fetches once the user's `url.<base>.insteadOf` rules rewrote the remote (the
   * remote itself when none applies), and its protocol: the one git is allowed.
   */
  fetched: { url: string; protocol: Extract<RepositoryUrl, { ok: true }>['protocol'] };
  /** Whether a rule rewrote the remote. */
  rewritten: boolean;
  /**
   * Whether the user names their own ssh program (GIT_SSH_COMMAND, GIT_SSH, `core.sshCommand`):
   * it is run as given, never replaced by hookpm's `ssh -o BatchMode=yes`.
   */
  ownSsh: boolean;
}

/**
 * Asks git, in the freshly made repository `args` start with (`-C <dir>` and its `-c` settings),
 * what the user's configuration makes of `remote` (given without user and password): where
 * `url.<base>.insteadOf` rewrites it to (`git ls-remote --get-url`, which contacts nothing), and
 * whether `core.sshCommand` is set. git applies the same rules when it fetches, so the protocol
 * allowed is the rewritten URL's; a rewritten URL must itself be one hookpm clones from
 * (repository-url.ts).
 * Errors: E_INSECURE_URL / E_REGISTRY_SCHEMA naming the rule's result for one that is not;
 * E_GIT when git cannot answer.
 */
export async function readGitUserConfig(
  args: readonly string[],
  remote: string,
  ctx: GitContext,
): Promise<GitUserConfig> {
  const shown = shownUrl(remote);
  const got = await runGit([...args, 'ls-remote', '--get-url', '--', remote], ctx);
  if (!got.ok)
    throw new HookpmError('E_GIT', `cannot clone ${shown}: ${got.reason}`, { url: shown });
  const url = got.stdout.replace(/\r?\n$/, '');
  const rewritten = url !== remote;
  const checked = checkRepositoryUrl(url);
  if (!checked.ok) {
    throw new HookpmError(
      checked.code,
      `cannot clone ${shown}: your git configuration (url.<base>.insteadOf) rewrites it to a location hookpm does not clone from: ${checked.problem}`,
      {
        url: shown,
        hint: 'Change the `url.<base>.insteadOf` rule in your git configuration (`git config --get-regexp "^url\\."` lists them).',
      },
    );
  }
  const envSsh = [ctx.env.GIT_SSH_COMMAND, ctx.env.GIT_SSH].some(
    (v) => v !== undefined && v !== '',
  );
  let ownSsh = envSsh;
  if (!ownSsh && checked.protocol === 'ssh') {
    const ssh = await runGit([...args, 'config', '--get', 'core.sshCommand'], ctx);
    ownSsh = ssh.ok && ssh.stdout.trim() !== '';
  }
  return { fetched: { url, protocol: checked.protocol }, rewritten, ownSsh };
}
