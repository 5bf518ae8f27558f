import semver from '../registry/versions/semver.js';
import { compareCodeUnits } from '../json/compare.js';
import { describeValue } from '../json/describe-value.js';
import { redactUrl } from '../registry/http/url-policy.js';
import { LOCAL_REGISTRY } from '../registry/registry-name.js';
import { isRegistryName, splitPluginId } from './plugin-id.js';
import {
  objectAt,
  parseProjectJson,
  projectFileError,
  refuseUnknownKeys,
} from './project-file-error.js';
import { sortedJsonText } from './sorted-json.js';

/** The file at the project root that names the project's plugins (docs/guides/projects.md). */
export const PROJECT_MANIFEST_FILE = 'hookpm.json';

/**
 * `hookpm.json`: `plugins` maps each plugin id (`name@registry`) to the range or dist-tag the
 * project wants; `registries` maps the registry names those ids use to their locations, so a fresh
 * clone needs no `registry add` (built-in registries are not listed). Both keys are always written.
 */
export interface ProjectManifest {
  plugins: Record<string, string>;
  registries: Record<string, string>;
}

const TAG = /^[A-Za-z][A-Za-z0-9._-]{0,63}$/;
/** The longest registry location (a URL or a path) hookpm.json may hold: errors quote it. */
const MAX_LOCATION_LENGTH = 2048;
/**
 * The most registries hookpm.json may list. A project names a handful; each is checked on disk
 * before use (J3), so a cloned file listing 200,000 would keep every command in it busy for half
 * a minute.
 */
export const MAX_PROJECT_REGISTRIES = 1000;
/**
 * The longest range or dist-tag hookpm.json may hold. Every project command parses each range
 * several times, in time that grows with its length: one of 13 MB in a cloned file kept `ci` busy
 * for a minute. `install --project` refuses a longer one (E_USAGE), so it never writes one.
 */
export const MAX_RANGE_LENGTH = 1024;

/**
 * Whether `wanted` is a range semver accepts or a dist-tag, of at most MAX_RANGE_LENGTH
 * characters (a longer one is not parsed at all).
 */
export function isWantedVersion(wanted: string): boolean {
  if (wanted.length > MAX_RANGE_LENGTH) return false;
  return wanted.trim() !== '' && (semver.validRange(wanted) !== null || TAG.test(wanted));
}

/**
 * Parses the text of hookpm.json, strictly: invalid JSON, duplicate keys, unknown keys, a key that
 * is not a plugin id or registry name, a range that is none or is longer than MAX_RANGE_LENGTH
 * characters, a registry location longer than 2048 characters or more than MAX_PROJECT_REGISTRIES
 * registries are E_PROJECT_FILE. `file` names it in errors; a value from the file is quoted cut
 * short (describeValue), whatever its size, and a location without its user part (redactUrl, N5).
 */
export function parseProjectManifest(text: string, file: string): ProjectManifest {
  const doc = parseProjectJson(text, file);
  refuseUnknownKeys(doc, ['plugins', 'registries'], 'the document', file);
  const plugins: Record<string, string> = {};
  for (const [id, wanted] of Object.entries(
    objectAt(doc.plugins === undefined ? {} : doc.plugins, 'plugins', file),
  )) {
    if (splitPluginId(id) === null)
      throw projectFileError(
        file,
        `plugins: ${describeValue(id)} is not a plugin id (name@registry)`,
      );
    if (typeof wanted !== 'string' || !isWantedVersion(wanted)) {
      const long = typeof wanted === 'string' && wanted.length > MAX_RANGE_LENGTH;
      const bound = long ? ` of at most ${MAX_RANGE_LENGTH} characters` : '';
      throw projectFileError(
        file,
        `plugins.${id}: ${describeValue(wanted)} is not a version range or dist-tag${bound}`,
      );
    }
    plugins[id] = wanted;
  }
  const registries: Record<string, string> = {};
  const listed = Object.entries(
    objectAt(doc.registries === undefined ? {} : doc.registries, 'registries', file),
  );
  if (listed.length > MAX_PROJECT_REGISTRIES)
    throw projectFileError(
      file,
      `registries: ${listed.length} registries listed, more than the ${MAX_PROJECT_REGISTRIES} a project may name`,
    );
  for (const [name, location] of listed) {
    if (!isRegistryName(name))
      throw projectFileError(file, `registries: ${describeValue(name)} is not a registry name`);
    // registry.md D1b: `local` holds the plugins of paths and tarballs; no registry is named so
    // (`registry add` refuses it too), or a project would say what `<name>@local` is.
    if (name === LOCAL_REGISTRY)
      throw projectFileError(
        file,
        `registries: "${LOCAL_REGISTRY}" is reserved for plugins installed from a directory, a tarball or a URL`,
      );
    if (typeof location !== 'string' || location.trim() === '')
      throw projectFileError(file, `registries.${name}: the location is not a non-empty string`);
    if (location.length > MAX_LOCATION_LENGTH)
      throw projectFileError(
        file,
        `registries.${name}: the location is longer than ${MAX_LOCATION_LENGTH} characters: ${describeValue(redactUrl(location))}`,
      );
    registries[name] = location;
  }
  return { plugins, registries };
}

/** The bytes of hookpm.json for `manifest` (sorted keys, trailing newline). */
export function serializeProjectManifest(manifest: ProjectManifest): string {
  return sortedJsonText({ plugins: manifest.plugins, registries: manifest.registries });
}

/** The ids of a manifest, sorted. */
export function manifestIds(manifest: ProjectManifest): string[] {
  return Object.keys(manifest.plugins).sort(compareCodeUnits);
}
