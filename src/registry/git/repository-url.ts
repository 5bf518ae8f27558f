import { isLoopbackHost, shownUrl } from '../http/url-policy.js';

/**
 * The git repository locations hookpm clones from (docs/reference/rules/registry.md#registry-kinds,
 * marketplace sources), decided from the text alone:
 * - `https://` URLs; `http://` only on a loopback host (development);
 * - `file://` URLs without a remote host, and absolute local paths (a local repository);
 * - the scp-like `git@host:owner/name(.git)` form and `ssh://[user@]host[:port]/path` URLs (ssh,
 *   run non-interactively by git-fetch.ts), with a user, host and path of plain characters only;
 * - nothing else: `git://` (neither encrypted nor authenticated) is E_INSECURE_URL; `ext::`,
 *   `fd::`, transport helpers (`x::y`), any other scheme and any text starting with `-` are
 *   refused, so no URL can smuggle an option or a command into git (or ssh);
 * - nor a URL longer than MAX_URL_LENGTH, which no host serves and no command line holds.
 */
export type RepositoryUrl =
  | { ok: true; url: string; protocol: 'https' | 'http' | 'file' | 'ssh' }
  | { ok: false; problem: string; code: 'E_INSECURE_URL' | 'E_REGISTRY_SCHEMA' };

const SCP = /^git@([A-Za-z0-9][A-Za-z0-9.-]{0,252}):([A-Za-z0-9_][A-Za-z0-9_./-]{0,255})$/;
/** `ssh://`, an optional login name (never a password), a host, an optional port, a path. */
const SSH =
  /^ssh:\/\/(?:[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}@)?[A-Za-z0-9][A-Za-z0-9.-]{0,252}(?::(\d{1,5}))?\/([A-Za-z0-9_][A-Za-z0-9_./-]{0,255})$/;
const CONTROL = /[\u0000-\u001f\u007f]/;
export const MAX_URL_LENGTH = 2048;

export function checkRepositoryUrl(text: string): RepositoryUrl {
  const shown = shownUrl(text);
  if (text === '' || CONTROL.test(text) || text.startsWith('-')) {
    return bad(`${JSON.stringify(shown)} is not a git repository URL`);
  }
  if (text.length > MAX_URL_LENGTH)
    return bad(`${JSON.stringify(shown)} is longer than ${MAX_URL_LENGTH} characters`);
  if (text.startsWith('/')) return { ok: true, url: text, protocol: 'file' };
  const scp = SCP.exec(text);
  if (scp !== null) {
    if ((scp[2] ?? '').split('/').includes('..')) return bad(`${shown} climbs with ".."`);
    return { ok: true, url: text, protocol: 'ssh' };
  }
  if (/^ssh:\/\//i.test(text)) return sshUrl(text, shown);
  if (text.includes('::'))
    return bad(`${shown} names a git transport helper, which hookpm never runs`);
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return bad(`${JSON.stringify(shown)} is not a git repository URL`);
  }
  switch (parsed.protocol) {
    case 'https:':
      return { ok: true, url: parsed.href, protocol: 'https' };
    case 'http:':
      if (isLoopbackHost(parsed.hostname)) return { ok: true, url: parsed.href, protocol: 'http' };
      return {
        ok: false,
        code: 'E_INSECURE_URL',
        problem: `refusing to clone over plain http: ${shown} (http is allowed on a loopback address only)`,
      };
    case 'file:':
      if (parsed.hostname === '' || parsed.hostname === 'localhost')
        return { ok: true, url: parsed.href, protocol: 'file' };
      return bad(`${shown} names a remote file host`);
    case 'git:':
      return {
        ok: false,
        code: 'E_INSECURE_URL',
        problem: `refusing to clone over git://: ${shown} (the git protocol is neither encrypted nor authenticated; use https:// or ssh)`,
      };
    default:
      return bad(`${shown} uses the scheme "${parsed.protocol}", which hookpm does not clone from`);
  }
}

/** `owner/name` of a `github` source, as an https clone URL. */
export function githubUrl(repo: string): string {
  return `https://github.com/${repo}.git`;
}

/** `owner/name` as GitHub spells repositories (no `.`/`..` part, no leading `-`). */
export function isGithubRepo(text: string): boolean {
  const parts = text.split('/');
  return (
    parts.length === 2 &&
    parts.every((p) => /^[A-Za-z0-9_.][A-Za-z0-9_.-]{0,99}$/.test(p) && p !== '.' && p !== '..')
  );
}

/**
 * A branch or tag name git accepts (git check-ref-format, plus: never starting with `-` or `+`),
 * so it can be passed to git without being read as an option or a forced refspec.
 */
export function isSafeRef(ref: string): boolean {
  return (
    ref.length > 0 &&
    ref.length <= 255 &&
    !/^[-+]/.test(ref) &&
    !/[\u0000-\u0020\u007f~^:?*[\\]/.test(ref) &&
    !ref.includes('..') &&
    !ref.includes('@{') &&
    !ref.includes('//') &&
    !/(^|\/)\./.test(ref) &&
    !/(\.lock|\/|\.)$/.test(ref) &&
    ref !== '@'
  );
}

/** A full commit id: 40 (sha1) or 64 (sha256) hex digits. */
export function isCommitSha(sha: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(sha);
}

/** An `ssh://` URL: SSH's form exactly (scheme in lower case), a port in range, no `..` part. */
function sshUrl(text: string, shown: string): RepositoryUrl {
  const ssh = SSH.exec(text);
  if (ssh === null)
    return bad(
      `${JSON.stringify(shown)} is not an ssh:// repository URL hookpm clones from (ssh://[user@]host[:port]/path, plain characters)`,
    );
  const port = ssh[1] === undefined ? 1 : Number(ssh[1]);
  if (port < 1 || port > 65535) return bad(`${shown} names port ${ssh[1]}, which is not a port`);
  if ((ssh[2] ?? '').split('/').includes('..')) return bad(`${shown} climbs with ".."`);
  return { ok: true, url: text, protocol: 'ssh' };
}

function bad(problem: string): RepositoryUrl {
  return { ok: false, code: 'E_REGISTRY_SCHEMA', problem };
}
