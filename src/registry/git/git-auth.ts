import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { HookpmError } from '../../errors.js';
import { basicAuthOf, percentDecode } from '../http/basic-auth.js';
import { withoutUserInfo } from '../http/url-policy.js';
import { killGroup } from './git-run.js';

/**
 * How hookpm authenticates to private git hosts over HTTPS (docs/reference/rules/registry.md#k6),
 * beside git's own credential helpers and credentials in the URL, which keep working.
 */
export interface GitAuthSettings {
  /**
   * settings.json `git.headersHelper`: a shell command printing a JSON object of HTTP headers for
   * the repository named by HOOKPM_GIT_URL (its host in HOOKPM_GIT_HOST), as Claude Code's
   * `headersHelper` does for MCP servers. Its headers go to that origin only.
   */
  headersHelper?: string;
  /**
   * settings.json `git.hosts`: further hosts (`host` or `host:port`) that are GitHub, GitLab or
   * Bitbucket servers (GitHub Enterprise, a self-hosted GitLab), so their token variables apply.
   */
  hosts?: Partial<Record<GitHostKind, readonly string[]>>;
}

export type GitHostKind = 'github' | 'gitlab' | 'bitbucket';

/** The hosts each token belongs to without configuration. */
const KNOWN_HOSTS: Record<GitHostKind, readonly string[]> = {
  github: ['github.com'],
  gitlab: ['gitlab.com'],
  bitbucket: ['bitbucket.org'],
};

/** Token variables by host kind, first set wins, and the user name git's Basic auth pairs with it. */
const TOKENS: Record<GitHostKind, { vars: readonly string[]; user: string }> = {
  github: { vars: ['GITHUB_TOKEN', 'GH_TOKEN'], user: 'x-access-token' },
  gitlab: { vars: ['GITLAB_TOKEN', 'GL_TOKEN'], user: 'oauth2' },
  bitbucket: { vars: ['BITBUCKET_TOKEN'], user: 'x-token-auth' },
};

/** A helper that has not answered after this long is killed, and the clone fails. */
export const HEADERS_HELPER_TIMEOUT_MS = 10_000;
const HELPER_OUTPUT_MAX = 64 * 1024;

/**
 * The HTTP headers git should send to the origin of `url` (an `https:` URL, or `http:` on a
 * loopback address), or an empty object for any other URL or when nothing applies: the token of
 * the host's kind (GitHub, GitLab, Bitbucket: by KNOWN_HOSTS and `settings.hosts`) as Basic auth,
 * then whatever the headers helper prints (it wins for the same header name, spelled in any case).
 * A URL that already holds credentials (a password) gets no token: its own user and password
 * become the Basic auth, as git reaches it by withoutUserInfo (no credentials on git's command
 * line, where other users could read them). A user without a password is no credential: it only
 * reaches git's credential helpers (gitHeaderEnvironment).
 * Errors: E_GIT when the helper fails or has not answered within `helperTimeoutMs` (K6's 10 s;
 * shorter only in tests), never quoting its output.
 */
export async function gitHeadersFor(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
  settings: GitAuthSettings,
  helperTimeoutMs = HEADERS_HELPER_TIMEOUT_MS,
): Promise<Record<string, string>> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {};
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return {};
  const headers: Record<string, string> = {};
  const kind = hostKind(parsed, settings);
  // A user without a password names an account (Bitbucket's and Azure DevOps' clone URLs do): no
  // credential of its own, so the host's token applies, else git's credential helpers answer.
  const basic = parsed.password === '' ? undefined : basicAuthOf(parsed);
  if (basic !== undefined) {
    headers.Authorization = basic;
  } else if (kind !== null) {
    const { vars, user } = TOKENS[kind];
    const token = vars.map((name) => env[name]).find((v) => v !== undefined && v !== '');
    if (token !== undefined)
      headers.Authorization = `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;
  }
  const helper = settings.headersHelper;
  if (helper === undefined || helper.trim() === '') return headers;
  const printed = await runHeadersHelper(helper, parsed, env, helperTimeoutMs);
  // Header names are case-insensitive: the helper's `authorization` replaces the token's
  // `Authorization` rather than travelling beside it.
  for (const name of Object.keys(printed))
    for (const had of Object.keys(headers))
      if (had.toLowerCase() === name.toLowerCase()) delete headers[had];
  return Object.assign(headers, printed);
}

/**
 * git configuration entries that send `headers` to `origin` only (`http.<origin>/.extraHeader`),
 * and name the user of a URL that has one without a password (accountOf), as
 * GIT_CONFIG_COUNT/GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n variables appended after any the
 * environment has: never on git's command line, where other users could read them. Redirects are
 * then not followed: git keeps sending extra headers after a redirect, to whatever host it led to.
 * `followRedirects` is set for every URL and for the repository's own URL (as git is given it,
 * without user and password), the most specific key git matches: a user's own setting for the
 * host or a path of it (~/.gitconfig, GIT_CONFIG_PARAMETERS from an outer `git -c`) matches less
 * well, and git takes the best match whatever its file.
 */
export function gitHeaderEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  url: string,
  headers: Readonly<Record<string, string>>,
): Record<string, string> {
  const names = Object.keys(headers);
  const entries: [string, string][] = [];
  if (names.length > 0) {
    const origin = new URL(url).origin;
    entries.push(
      ['http.followRedirects', 'false'],
      [`http.${withoutUserInfo(url)}.followRedirects`, 'false'],
      ...names.map((name): [string, string] => [
        `http.${origin}/.extraHeader`,
        `${name}: ${headers[name]}`,
      ]),
    );
  }
  const account = accountOf(url);
  if (account !== null) entries.push([`credential.${account.origin}.username`, account.user]);
  if (entries.length === 0) return {};
  const before = Number(env.GIT_CONFIG_COUNT ?? '0');
  const start = Number.isInteger(before) && before > 0 ? before : 0;
  const out: Record<string, string> = { GIT_CONFIG_COUNT: String(start + entries.length) };
  entries.forEach(([key, value], i) => {
    out[`GIT_CONFIG_KEY_${start + i}`] = key;
    out[`GIT_CONFIG_VALUE_${start + i}`] = value;
  });
  return out;
}

/**
 * The user an `http(s):` URL names without a password (`https://jdoe@bitbucket.org/...`), and its
 * origin, or null: git, given the URL without it, is told it as `credential.<origin>.username`, so
 * its credential helpers answer for that account as they would for the URL itself.
 */
function accountOf(url: string): { origin: string; user: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (parsed.username === '' || parsed.password !== '') return null;
  const user = percentDecode(parsed.username);
  // A control character (an encoded line break or NUL) is no user name: git is told none.
  if (/[\u0000-\u001f\u007f]/.test(user)) return null;
  return { origin: parsed.origin, user };
}

/**
 * The kind of `url`'s host (and port): a URL without a port is its scheme's default one, which a
 * `git.hosts` entry may also spell out (`ghe.acme.example:443` for `https://ghe.acme.example/`).
 */
function hostKind(url: URL, settings: GitAuthSettings): GitHostKind | null {
  const host = url.host.toLowerCase();
  const names = [host];
  if (url.port === '') names.push(`${host}:${url.protocol === 'https:' ? 443 : 80}`);
  for (const kind of Object.keys(TOKENS) as GitHostKind[]) {
    const hosts = [...KNOWN_HOSTS[kind], ...(settings.hosts?.[kind] ?? [])];
    if (hosts.some((h) => names.includes(h.toLowerCase()))) return kind;
  }
  return null;
}

function runHeadersHelper(
  command: string,
  url: URL,
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs: number,
): Promise<Record<string, string>> {
  const shown = `${url.origin}${url.pathname}`;
  const fail = (why: string): HookpmError =>
    new HookpmError('E_GIT', `the git headers helper failed for ${shown}: ${why}`, {
      url: shown,
      hint: 'The command in settings.json `git.headersHelper` must print a JSON object of header names to string values and exit 0.',
    });
  return new Promise((done, reject) => {
    // A group of its own: at the deadline the shell and whatever it started are killed together
    // (a child left holding stdout would otherwise keep the clone waiting).
    let child: ChildProcessByStdio<null, Readable, null>;
    try {
      child = spawn('/bin/sh', ['-c', command], {
        env: { ...env, HOOKPM_GIT_URL: shown, HOOKPM_GIT_HOST: url.host },
        stdio: ['ignore', 'pipe', 'ignore'],
        detached: true,
      });
    } catch {
      // spawn throws at once for a command holding a NUL byte, quoting the command (which may
      // hold a token): never repeated here.
      reject(fail('its command cannot be run (it holds a NUL byte)'));
      return;
    }
    let out = '';
    const timer = setTimeout(() => {
      killGroup(child.pid);
      // A process that left the group (setsid, a daemon) may still hold the pipe: it is closed
      // here, or it would keep hookpm running until that process ends.
      child.stdout.destroy();
      reject(fail(`no answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (out.length < HELPER_OUTPUT_MAX) out += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(fail(`cannot start it (${error.message})`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) return reject(fail(signal !== null ? `killed by ${signal}` : `exit ${code}`));
      let value: unknown;
      try {
        value = JSON.parse(out);
      } catch {
        return reject(fail('its output is not JSON'));
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return reject(fail('its output is not a JSON object'));
      const headers: Record<string, string> = {};
      for (const [name, v] of Object.entries(value)) {
        if (
          !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name) ||
          typeof v !== 'string' ||
          /[\r\n\0]/.test(v)
        )
          return reject(fail('a header name or value is not valid'));
        headers[name] = v;
      }
      done(headers);
    });
  });
}
