import semver from '../registry/versions/semver.js';
import { describeValue } from '../json/describe-value.js';
import { redactUrl } from '../registry/http/url-policy.js';
import { splitPluginId } from './plugin-id.js';
import {
  objectAt,
  parseProjectJson,
  projectFileError,
  refuseUnknownKeys,
} from './project-file-error.js';
import { sortedJsonText } from './sorted-json.js';

/** The committed file at the project root that pins every project plugin (docs/guides/projects.md). */
export const LOCKFILE_FILE = 'hookpm.lock';

/** The lockfile format this hookpm reads and writes; a newer one is refused, never rewritten. */
export const LOCKFILE_VERSION = 1;

/**
 * One locked plugin: the exact `version`; `resolved`, where its tarball is (an http(s) URL as the
 * index gave it, or, for a registry on disk, the path relative to the registry's index, so that no
 * absolute path of one machine is written); `integrity`, the tarball's sha512 SRI; `surfaceHash`,
 * the consent surface (plugins.md Q2); `fingerprint`, the files fingerprint of the installed tree
 * (Q6); `commit`, only for a plugin of a git marketplace (registry.md J12), the full commit id the
 * marketplace's repository was read at (40 lowercase hex digits), `resolved` then being the
 * plugin's directory inside that repository, or for an entry whose own source is a git repository
 * (J13), the commit that repository was cloned at, `resolved` then being its URL (and
 * `#<subdirectory>`). Nothing in it depends on the machine, the user or the
 * time.
 */
export interface LockEntry {
  version: string;
  resolved: string;
  integrity: string;
  surfaceHash: string;
  fingerprint: string;
  commit?: string;
}

export interface Lockfile {
  lockfileVersion: typeof LOCKFILE_VERSION;
  plugins: Record<string, LockEntry>;
}

const REQUIRED_KEYS = ['version', 'resolved', 'integrity', 'surfaceHash', 'fingerprint'] as const;
const ENTRY_KEYS = [...REQUIRED_KEYS, 'commit'] as const;
/**
 * The longest `integrity`, `surfaceHash` and `fingerprint` (a sha512 SRI is 95 characters) and
 * `resolved` (a URL) a lock may hold: errors quote these values, so a clone's lock cannot fill a
 * terminal with one.
 */
const MAX_HASH_LENGTH = 128;
const MAX_RESOLVED_LENGTH = 2048;
/** A locked commit: a full sha1 commit id, lowercase, as `git rev-parse HEAD` prints it. */
const COMMIT = /^[0-9a-f]{40}$/;

/**
 * Parses the text of hookpm.lock strictly (unknown keys, other versions, a `version` that is not
 * semver, a hash or `resolved` longer than any hookpm writes: E_PROJECT_FILE); a value from the
 * file is quoted cut short (describeValue), whatever its size, and `resolved` without its user
 * part (redactUrl, N5).
 */
export function parseLockfile(text: string, file: string): Lockfile {
  const doc = parseProjectJson(text, file);
  refuseUnknownKeys(doc, ['lockfileVersion', 'plugins'], 'the document', file);
  if (doc.lockfileVersion !== LOCKFILE_VERSION)
    throw projectFileError(
      file,
      `lockfileVersion is ${describeValue(doc.lockfileVersion)}; this hookpm reads version ${LOCKFILE_VERSION}`,
    );
  const plugins: Record<string, LockEntry> = {};
  for (const [id, raw] of Object.entries(
    objectAt(doc.plugins === undefined ? {} : doc.plugins, 'plugins', file),
  )) {
    if (splitPluginId(id) === null)
      throw projectFileError(
        file,
        `plugins: ${describeValue(id)} is not a plugin id (name@registry)`,
      );
    const entry = objectAt(raw, `plugins.${id}`, file);
    refuseUnknownKeys(entry, ENTRY_KEYS, `plugins.${id}`, file);
    for (const key of REQUIRED_KEYS) {
      const value = entry[key];
      if (typeof value !== 'string' || value === '')
        throw projectFileError(file, `plugins.${id}.${key} is missing or not a non-empty string`);
    }
    if (semver.valid(String(entry.version)) === null)
      throw projectFileError(
        file,
        `plugins.${id}.version: ${describeValue(entry.version)} is not a semver version`,
      );
    for (const key of ['integrity', 'surfaceHash', 'fingerprint'] as const)
      if (String(entry[key]).length > MAX_HASH_LENGTH)
        throw projectFileError(
          file,
          `plugins.${id}.${key} is longer than ${MAX_HASH_LENGTH} characters: ${describeValue(entry[key])}`,
        );
    if (String(entry.resolved).length > MAX_RESOLVED_LENGTH)
      throw projectFileError(
        file,
        `plugins.${id}.resolved is longer than ${MAX_RESOLVED_LENGTH} characters: ${describeValue(redactUrl(String(entry.resolved)))}`,
      );
    if (
      entry.commit !== undefined &&
      (typeof entry.commit !== 'string' || !COMMIT.test(entry.commit))
    )
      throw projectFileError(file, `plugins.${id}.commit is not a full commit id (40 hex digits)`);
    if (!String(entry.integrity).startsWith('sha512-'))
      throw projectFileError(file, `plugins.${id}.integrity is not a sha512 integrity`);
    // J13: a `file:` repository only with the commit it is cloned at, never as a tarball's location.
    const repository = entry.commit !== undefined && isLockedFileRepository(String(entry.resolved));
    if (!isLockedLocation(String(entry.resolved)) && !repository)
      throw projectFileError(
        file,
        `plugins.${id}.resolved is neither an http(s) or file: URL nor a path inside its registry`,
      );
    plugins[id] = entry as unknown as LockEntry;
  }
  return { lockfileVersion: LOCKFILE_VERSION, plugins };
}

/** A commit a lock may name (J12): a full sha1 commit id in lowercase hex. */
export function isLockedCommit(value: unknown): value is string {
  return typeof value === 'string' && COMMIT.test(value);
}

/**
 * What a lock may name as a tarball's location: an http(s) URL a URL parser reads (`http://[::1`
 * is none), or a relative path that stays inside the registry's directory (no scheme, no leading
 * `/` or `\`, no `..` segment). A project file is untrusted input: a lock never makes hookpm read a
 * local file outside a registry.
 */
export function isLockedLocation(resolved: string): boolean {
  if (/^https?:\/\/[^\s]+$/i.test(resolved)) return URL.canParse(resolved);
  if (/^[a-z][a-z0-9+.-]*:/i.test(resolved) || /^[\\/]/.test(resolved)) return false;
  // `%2e%2e` is `..` to a URL parser.
  if (/[?#]|%2e/i.test(resolved)) return false;
  return !resolved.split(/[\\/]/).some((part) => part === '..' || part === '.' || part === '');
}

/**
 * A `file:` repository a marketplace entry names (registry.md J13), optionally followed by
 * `#<subdirectory>`: a `file:///` URL with no query and no `..` segment. It is only ever cloned
 * where the project's catalog names the same repository.
 */
export function isLockedFileRepository(resolved: string): boolean {
  if (!/^file:\/\/\/[^\s?]+$/i.test(resolved) || /%2e/i.test(resolved)) return false;
  return !resolved.split(/[\\/#]/).some((part) => part === '..' || part === '.');
}

/** The bytes of hookpm.lock (sorted keys at every depth, trailing newline). */
export function serializeLockfile(lock: Lockfile): string {
  const plugins: Record<string, LockEntry> = {};
  for (const [id, entry] of Object.entries(lock.plugins)) {
    const { version, resolved, integrity, surfaceHash, fingerprint, commit } = entry;
    plugins[id] = { version, resolved, integrity, surfaceHash, fingerprint };
    if (commit !== undefined) plugins[id].commit = commit;
  }
  return sortedJsonText({ lockfileVersion: LOCKFILE_VERSION, plugins });
}

export function emptyLockfile(): Lockfile {
  return { lockfileVersion: LOCKFILE_VERSION, plugins: {} };
}
