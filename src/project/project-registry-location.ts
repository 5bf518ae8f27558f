import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HookpmError } from '../errors.js';
import { redactUrl } from '../registry/http/url-policy.js';

/**
 * A registry location of hookpm.json once checked (docs/reference/rules/registry.md#j3): a URL
 * hookpm fetches the index from (`https:`, `http:`; the network rules then apply, loopback-only
 * `http` included), or an absolute path on disk (a relative path, or a `file:` URL, made absolute
 * against the project root), which must still be found inside the project.
 */
export type ProjectRegistryLocation = { kind: 'url'; url: string } | { kind: 'path'; path: string };

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
/** `git@host:path`, the scp-like form git and ssh read. */
const SCP_LIKE = /^[^/\\:@\s]+@[^/\\:\s]+:/;

/**
 * J3: checks the location hookpm.json gives the registry `name` before anything reads it. A project
 * file is written by strangers, so only the forms an index registry has are accepted: an `https:`
 * or `http:` URL, a `file:` URL on this machine, or a directory path. Anything else is
 * E_REGISTRY_LOCATION, naming the registry and the (redacted) location, never read: another scheme
 * (`ext::`, `javascript:`, `data:`, `ssh:`, `git:`), a git or scp-like location (a project registry
 * is an index registry), a location that starts with `-` (the form of a command-line option, which
 * a git or ssh would read as one), or one holding control characters. `root` is the project root.
 */
export function parseProjectRegistryLocation(
  name: string,
  location: string,
  root: string,
): ProjectRegistryLocation {
  const refuse = (reason: string) => locationError(name, location, root, reason);
  if (/[\u0000-\u001f\u007f]/.test(location)) throw refuse('holds control characters');
  const trimmed = location.trim();
  if (trimmed.startsWith('-')) throw refuse('starts with "-", the form of a command-line option');
  if (SCP_LIKE.test(trimmed) || /^git\+/i.test(trimmed))
    throw refuse('is a git location; a project registry is an index registry');
  const scheme = SCHEME.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: 'path', path: resolve(root, trimmed) };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw refuse('is not a valid URL');
  }
  if (scheme === 'https' || scheme === 'http') return { kind: 'url', url: url.href };
  if (scheme === 'file') {
    if (url.hostname !== '' && url.hostname !== 'localhost')
      throw refuse('names a file on another host');
    const path = fileURLToPath(url);
    if (!isAbsolute(path)) throw refuse('is not an absolute file URL');
    return { kind: 'path', path };
  }
  throw refuse(`has the scheme "${scheme}:", which is not a registry location`);
}

export function locationError(
  name: string,
  location: string,
  root: string,
  reason: string,
): HookpmError {
  const shown = JSON.stringify(redactUrl(location).slice(0, 200));
  return new HookpmError(
    'E_REGISTRY_LOCATION',
    `hookpm.json of ${root}: the location ${shown} of the registry ${name} ${reason}; nothing was read from it`,
    {
      registry: name,
      location: redactUrl(location),
      file: `${root}/hookpm.json`,
      hint: 'A project registry is an index registry: give an https:// URL (http:// only on a loopback address) or a directory inside the project, relative to its root. Or configure the registry yourself (`hookpm registry add`): your own registry of that name takes precedence.',
    },
  );
}
