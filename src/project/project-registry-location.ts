import { isAbsolute, resolve } from 'node:path';
import { HookpmError } from '../errors.js';
import { filePathOf } from '../registry/http/url-policy.js';
import { showTypedLocation } from '../registry/registry-location.js';

/**
 * A registry location of hookpm.json once checked (docs/reference/rules/registry.md#j3): a URL
 * hookpm fetches the index from (`https:`, `http:`; the network rules then apply, loopback-only
 * `http` included), an absolute path on disk (a relative path, or a `file:` URL, made absolute
 * against the project root), which must still be found inside the project, or the URL of a git
 * marketplace's repository (J12: `https:`, loopback `http:` or `file:`, its path ending in `.git`).
 */
export type ProjectRegistryLocation =
  { kind: 'url'; url: string } | { kind: 'path'; path: string } | { kind: 'git'; url: string };

/** C0 controls and DEL: in a location or in the path a `file:` URL decodes to. */
const CONTROL = /[\u0000-\u001f\u007f]/;
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
/** `git@host:path`, the scp-like form git and ssh read. */
const SCP_LIKE = /^[^/\\:@\s]+@[^/\\:\s]+:/;

/**
 * J3: checks the location hookpm.json gives the registry `name` before anything reads it. A project
 * file is written by strangers, so only the forms an index registry has are accepted: an `https:`
 * or `http:` URL, a `file:` URL on this machine, or a directory path. Anything else is
 * E_REGISTRY_LOCATION, naming the registry and the (redacted) location, never read: another scheme
 * (`ext::`, `javascript:`, `data:`, `ssh:`, `git:`), an scp-like or `git+` location, a git URL
 * (J12: an `https:`, `http:` or `file:` URL whose path ends in `.git`) holding credentials or a
 * `#` fragment, a location that starts with `-` (the form of a command-line option, which
 * a git or ssh would read as one), or one holding control characters. `root` is the project root.
 */
export function parseProjectRegistryLocation(
  name: string,
  location: string,
  root: string,
): ProjectRegistryLocation {
  const refuse = (reason: string) => locationError(name, location, root, reason);
  if (CONTROL.test(location)) throw refuse('holds control characters');
  const trimmed = location.trim();
  if (trimmed.startsWith('-')) throw refuse('starts with "-", the form of a command-line option');
  if (SCP_LIKE.test(trimmed) || /^git\+/i.test(trimmed))
    throw refuse('is an scp-like or git+ location; a project lists a git marketplace by its URL');
  const scheme = SCHEME.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: 'path', path: resolve(root, trimmed) };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw refuse('is not a valid URL');
  }
  if (isGitUrl(url)) {
    if (scheme === 'file') checkedFilePath(url, refuse);
    if (url.username !== '' || url.password !== '') throw refuse('holds credentials');
    if (url.hash !== '' || trimmed.includes('#'))
      throw refuse('names a ref; hookpm.lock pins the commit of a git marketplace');
    return { kind: 'git', url: url.href };
  }
  if (scheme === 'https' || scheme === 'http') return { kind: 'url', url: url.href };
  if (scheme === 'file') return { kind: 'path', path: checkedFilePath(url, refuse) };
  throw refuse(`has the scheme "${scheme}:", which is not a registry location`);
}

/**
 * The path a `file:` URL of hookpm.json names, on this machine: refused (`refuse`) when it names
 * another host, holds an encoded `/` or `\\`, decodes to control characters or is not absolute.
 */
function checkedFilePath(url: URL, refuse: (reason: string) => HookpmError): string {
  if (url.hostname !== '' && url.hostname !== 'localhost')
    throw refuse('names a file on another host');
  const path = filePathOf(url);
  if (path === null) throw refuse('names no path: its path holds an encoded "/" or "\\"');
  if (CONTROL.test(path)) throw refuse('holds control characters once decoded');
  if (!isAbsolute(path)) throw refuse('is not an absolute file URL');
  return path;
}

/**
 * J12: whether `location` (a registry location as hookpm.json or the user's state gives it) is the
 * URL of a git marketplace a project can list: `https:`, `http:` or `file:`, its path ending in
 * `.git` (or `.git/`), the forms `registry add` records for a git marketplace.
 */
export function isProjectGitLocation(location: string): boolean {
  try {
    return isGitUrl(new URL(location));
  } catch {
    return false;
  }
}

function isGitUrl(url: URL): boolean {
  return ['https:', 'http:', 'file:'].includes(url.protocol) && /\.git\/?$/.test(url.pathname);
}

export function locationError(
  name: string,
  location: string,
  root: string,
  reason: string,
): HookpmError {
  const shown = showTypedLocation(location);
  return new HookpmError(
    'E_REGISTRY_LOCATION',
    `hookpm.json of ${root}: the location ${JSON.stringify(shown)} of the registry ${name} ${reason}; nothing was read from it`,
    {
      registry: name,
      location: shown,
      file: `${root}/hookpm.json`,
      hint: 'A project registry is an index registry (an https:// URL, http:// only on a loopback address, or a directory inside the project, relative to its root) or a marketplace: a directory inside the project, or a git repository URL ending in .git without credentials. Or configure the registry yourself (`hookpm registry add`): your own registry of that name takes precedence.',
    },
  );
}
