/**
 * Kind detection for `hookpm registry add <name> <location>`
 * (docs/reference/rules/registry.md#registry-kinds), as far as it can be told from the text alone.
 * A local location (a directory path or a `file:` URL) still has to be looked at on disk
 * (read-location-kind.ts) to tell an index from a marketplace.
 */
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HookpmError, isHookpmError } from '../errors.js';
import { clip } from '../text/clip.js';
import { checkUrl, redactUrl } from './http/url-policy.js';

export type LocationGuess =
  /**
   * An `https:` or loopback `http:` base URL, ending in `/`; its index is `<base>index.json`. Or
   * the URL of a sparse layout's root document, ending in `/registry.json` (registry.md N6).
   */
  | { kind: 'index'; location: string }
  /** A local directory (absolute path), or a file in one; `fileUrl` when it was given as `file:`. */
  | { kind: 'local'; path: string; fileUrl: boolean }
  /** A git repository or a remote marketplace.json: detected here, loaded by the marketplace kind. */
  | { kind: 'marketplace'; location: string }
  /** The word `npm`. */
  | { kind: 'npm'; location: 'npm' };

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const SCP_GIT = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:/;

/** Classifies `location`; relative paths are resolved against `cwd`. E_USAGE, E_INSECURE_URL. */
export function classifyLocation(location: string, cwd: string): LocationGuess {
  if (location.trim() === '' || /[\u0000-\u001f\u007f]/.test(location)) {
    throw usage(location, 'is empty or contains control characters');
  }
  if (location === 'npm') return { kind: 'npm', location: 'npm' };
  if (SCP_GIT.test(location) || /^(git\+|ssh:|git:)/i.test(location)) {
    const hash = location.indexOf('#');
    if (hash >= 0) throw refRefused(location, location.slice(hash + 1));
    return { kind: 'marketplace', location };
  }
  if (!SCHEME.test(location)) {
    return {
      kind: 'local',
      path: isAbsolute(location) ? resolve(location) : resolve(cwd, location),
      fileUrl: false,
    };
  }
  let url: URL;
  try {
    url = checkUrl(location, 'index');
  } catch (error) {
    if (isHookpmError(error, 'E_REGISTRY_SCHEMA'))
      throw usage(location, String(error.details.reason ?? 'is not a valid URL'));
    throw error;
  }
  // A git location (a repository's page on a forge too) is read at its default branch.
  const forge = forgeRepositoryUrl(url);
  const git = url.protocol === 'file:' || forge !== null || /\.git\/?$/.test(url.pathname);
  if (git && url.hash !== '') throw refRefused(location, url.hash.slice(1));
  if (url.protocol === 'file:') return { kind: 'local', path: fileURLToPath(url), fileUrl: true };
  url.hash = '';
  if (forge !== null) return { kind: 'marketplace', location: forge };
  if (/\.git\/?$/.test(url.pathname)) return { kind: 'marketplace', location: url.href };
  if (/(^|\/)marketplace\.json$/.test(url.pathname))
    return { kind: 'marketplace', location: url.href };
  // An index's documents are found relative to its URL, which drops a query: refused rather than
  // stored and never sent (a token there would only be written to hookpm.json and caches).
  if (url.search !== '')
    throw usage(location, 'has a query, which no request for its documents would carry');
  if (/(^|\/)registry\.json$/.test(url.pathname)) return { kind: 'index', location: url.href };
  if (/(^|\/)index\.json$/.test(url.pathname))
    url.pathname = url.pathname.replace(/index\.json$/, '');
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return { kind: 'index', location: url.href };
}

/** Hosts that serve a git repository at a repository's page and never an index there. */
const FORGES: ReadonlySet<string> = new Set(['github.com', 'gitlab.com', 'bitbucket.org']);

/**
 * A repository's page on GitHub or Bitbucket (`/<owner>/<name>`) or GitLab (`/<group>/…/<name>`),
 * as Claude Code's `marketplace add` takes one, as the repository's git URL (`….git`, as every git
 * marketplace location is stored); null for any other URL, one with a query or a port, and a
 * page below a repository's (GitHub's `/tree/main`, GitLab's `/-/`).
 */
function forgeRepositoryUrl(url: URL): string | null {
  if (url.protocol !== 'https:' || !FORGES.has(url.hostname)) return null;
  if (url.port !== '' || url.search !== '') return null;
  const parts = url.pathname.split('/').filter((part) => part !== '');
  const gitlab = url.hostname === 'gitlab.com';
  if (gitlab ? parts.length < 2 || parts.includes('-') : parts.length !== 2) return null;
  if (/\.(git|json)$/.test(parts[parts.length - 1]!)) return null;
  const repo = new URL(url.href);
  repo.pathname = `/${parts.join('/')}.git`;
  return repo.href;
}

/**
 * The URL of the `index.json` of a stored index location: a base URL (`https:`, `http:`, `file:`)
 * or an absolute directory path.
 */
export function indexUrlOf(location: string): string {
  if (isSparseRootUrl(location)) return new URL('index.json', location).href;
  if (SCHEME.test(location) && !isAbsolute(location)) {
    const base = location.endsWith('/') ? location : `${location}/`;
    return new URL('index.json', base).href;
  }
  return pathToFileURL(resolve(location, 'index.json')).href;
}

/**
 * Whether `location`, as typed, is the URL of an `index.json` (registry.md N6): such a registry is
 * read through that monolithic index alone, and `registry add` asks it for no `registry.json`.
 */
export function namesIndexFile(location: string): boolean {
  if (!SCHEME.test(location) || isAbsolute(location)) return false;
  try {
    return /(^|\/)index\.json$/.test(new URL(location).pathname);
  } catch {
    return false;
  }
}

/** A stored location naming a sparse layout's root document (registry.md N6): an URL ending in `/registry.json`. */
export function isSparseRootUrl(location: string): boolean {
  return SCHEME.test(location) && !isAbsolute(location) && /\/registry\.json$/.test(location);
}

/** docs/reference/rules/registry.md#registry-kinds: a tarball location of an index entry resolves against the index URL. */
export function tarballUrlOf(indexUrl: string, tarball: string): string {
  return new URL(tarball, indexUrl).href;
}

/** A location as it may be printed (N5: credentials redacted). */
export function showLocation(location: string): string {
  return SCHEME.test(location) && !isAbsolute(location) ? redactUrl(location) : location;
}

/** A URL scheme's word as people type one (`npm`, `git+ssh`); a token is longer or not a word. */
const SCHEME_WORD = /^[a-z][a-z0-9+.-]{0,9}$/i;

/**
 * `location` as typed, as a message quotes it (N5), cut to 200 characters: a URL redacted
 * (redactUrl); text without `://` has from after the last `/` before its first `:` to its last
 * `@` shown as `***`, the `user:password@` of a URL typed without its `://`
 * (`https//bob:pw@host/`, `bob:pw@host/`, a token as the user: `ghp_x…:@host`), unless that is a
 * scheme word right before the `@` of a scoped name, which holds no password (`npm:@scope/pkg`,
 * `npm:@scope/pkg@1.2.3`).
 */
export function showTypedLocation(location: string): string {
  const shown = redactUrl(location);
  const colon = shown.indexOf(':');
  const at = shown.lastIndexOf('@');
  if (shown.includes('://') || colon < 0 || at < colon) return clip(shown);
  const from = shown.lastIndexOf('/', colon) + 1;
  // A scheme word, then a scoped name (and a version) with no second colon: no password in it.
  const scoped = at === colon + 1 || (shown[colon + 1] === '@' && !shown.includes(':', colon + 1));
  if (scoped && SCHEME_WORD.test(shown.slice(from, colon))) return clip(shown);
  return clip(`${shown.slice(0, from)}***${shown.slice(at)}`);
}

function usage(location: string, reason: string): HookpmError {
  const shown = showTypedLocation(location);
  return new HookpmError('E_USAGE', `the registry location ${JSON.stringify(shown)} ${reason}`, {
    location: shown,
    hint: 'Give an https:// URL, an http:// URL on a loopback address, a file:// URL, a directory path, a git repository or `npm`.',
  });
}

/**
 * A git location with `#<ref>` (Claude Code's way to name a branch or tag): refused rather than
 * cut off, which would read the default branch in its place without a word.
 */
function refRefused(location: string, ref: string): HookpmError {
  const shown = showTypedLocation(location);
  return new HookpmError(
    'E_USAGE',
    `the registry location ${JSON.stringify(shown)} names the ref ${JSON.stringify(clip(ref))} after "#": hookpm reads a git marketplace at its default branch only`,
    {
      location: shown,
      hint: 'Give the repository without "#<ref>", or clone it at that ref yourself and add the directory: `git clone -b <ref> <url> <dir> && hookpm registry add <name> <dir>`.',
    },
  );
}
