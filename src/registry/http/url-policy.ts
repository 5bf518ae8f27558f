import { fileURLToPath } from 'node:url';
import { HookpmError } from '../../errors.js';
import { clip } from '../../text/clip.js';

/** What a `file:` URL whose path holds an encoded separator names (E_REGISTRY_SCHEMA). */
const NO_PATH = 'names no path: its path holds an encoded "/" or "\\"';

/** What a URL is fetched for; it only changes the words of an error. */
export type UrlPurpose = 'index' | 'tarball';

/**
 * Decides whether hookpm may fetch `url` (docs/reference/rules/registry.md#registry-kinds,
 * security.md "Registries and the network"):
 * - `https:` always;
 * - `http:` only on a loopback host (127.0.0.0/8, `[::1]`, `localhost`), else `E_INSECURE_URL`;
 * - `file:` without a host (or with `localhost`), for local registries;
 * - anything else (`javascript:`, `data:`, `ftp:`, no scheme, unparseable) is not a location
 *   hookpm can read at all: `E_REGISTRY_SCHEMA`. Only a readable-but-unencrypted transport is
 *   `E_INSECURE_URL`.
 * Returns the parsed URL. Messages carry the redacted URL only (N5), cut to 200 characters; an
 * E_REGISTRY_SCHEMA error's `reason` detail is what its message says of the URL, for a caller that
 * names the URL its own way.
 */
export function checkUrl(url: string, purpose: UrlPurpose): URL {
  const shown = shownUrl(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HookpmError('E_REGISTRY_SCHEMA', `the ${purpose} URL "${shown}" is not a valid URL`, {
      url: shown,
      reason: 'is not a valid URL',
      hint: 'Use an https:// URL, a file:// URL, or an http:// URL on a loopback address.',
    });
  }
  switch (parsed.protocol) {
    case 'https:':
      return parsed;
    case 'http:':
      if (isLoopbackHost(parsed.hostname)) return parsed;
      throw new HookpmError(
        'E_INSECURE_URL',
        `refusing to fetch the ${purpose} over plain http: ${shown}`,
        {
          url: shown,
          hint: 'Use https://; plain http:// is allowed only on a loopback address (127.0.0.1, [::1], localhost).',
        },
      );
    case 'file:':
      if (parsed.hostname !== '' && parsed.hostname !== 'localhost')
        throw new HookpmError(
          'E_REGISTRY_SCHEMA',
          `the ${purpose} URL ${shown} names a remote file host`,
          {
            url: shown,
            reason: 'names a remote file host',
            hint: 'A file:// URL must point at this machine (file:///path/to/file).',
          },
        );
      if (filePathOf(parsed) === null)
        throw new HookpmError('E_REGISTRY_SCHEMA', `the ${purpose} URL ${shown} ${NO_PATH}`, {
          url: shown,
          reason: NO_PATH,
          hint: 'Write the path with plain "/" separators (file:///path/to/file).',
        });
      return parsed;
    default:
      throw new HookpmError(
        'E_REGISTRY_SCHEMA',
        `the ${purpose} URL ${shown} uses the unsupported scheme "${parsed.protocol}"`,
        {
          url: shown,
          reason: `uses the unsupported scheme "${parsed.protocol}"`,
          hint: 'Use an https:// URL, a file:// URL, or an http:// URL on a loopback address.',
        },
      );
  }
}

/**
 * The path a `file:` URL of this machine names, or null when it names none: fileURLToPath throws
 * for an encoded separator (`%2F`, and `%5C` on Windows) and for a host other than `localhost`.
 */
export function filePathOf(url: URL): string | null {
  try {
    return fileURLToPath(url);
  } catch {
    return null;
  }
}

/** True for `localhost`, any 127.0.0.0/8 address and `[::1]` (hostnames as WHATWG URL normalises them). */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * An `http(s):` `url` without its user and password, as a file others read may name it (N5: a
 * lockfile, hookpm.json, git's command line); anything else is returned as is (the user of an
 * `ssh:` URL is not a secret, and names the account).
 */
export function withoutUserInfo(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return url;
  if (parsed.username === '' && parsed.password === '') return url;
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

const SENSITIVE_PARAM = /token|auth|key|pass|secret|sig|credential|session|cookie|jwt/i;

/**
 * The URL as it may be shown (N5): user and password become `***`, and the values of query
 * parameters whose names look like credentials (token, auth, key, password, secret, signature,
 * credential, session, jwt: a CDN's signed download URL, N2) become `***`. Text that is not a URL
 * is passed through `redactUserInfo`: `url` is one value (a location, a tarball's URL, a word of
 * a message), whose password may hold a space or a quote.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactUserInfo(url);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    parsed.username = '***';
    parsed.password = '';
  }
  const params = [...parsed.searchParams.keys()];
  if (params.some((name) => SENSITIVE_PARAM.test(name))) {
    const next = new URLSearchParams();
    for (const [name, value] of parsed.searchParams)
      next.append(name, SENSITIVE_PARAM.test(name) ? '***' : value);
    parsed.search = next.toString();
  }
  return parsed.href;
}

/**
 * The URL as a message quotes it: redacted (redactUrl) and cut to 200 characters (clip). A URL
 * can come from a document (a package's tarball URL, a redirect's Location) and be any length.
 */
export function shownUrl(url: string): string {
  return clip(redactUrl(url));
}

/** A `scheme://` (at most 32 characters) and all that follows it. */
const SCHEME_WORD = /([a-z][a-z0-9+.-]{0,31}:\/\/)([^]*)/i;

/**
 * `text` with everything between its first `scheme://` and its last `@` shown as `***`. The user
 * part is the one errors.ts's redact hides in prose (a space or a quote ends none), but `text` is
 * one value: in one that does not parse as a URL, a password may also hold a `/`, `?` or `#`
 * (`https://bob:pa/ss@host/`), which ends no user part here. One pass over the text (a scheme is
 * at most 32 characters).
 */
export function redactUserInfo(text: string): string {
  return text.replace(SCHEME_WORD, (word, scheme: string, rest: string) => {
    const at = rest.lastIndexOf('@');
    return at < 0 ? word : `${scheme}***${rest.slice(at)}`;
  });
}
