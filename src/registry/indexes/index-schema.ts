/**
 * The registry index format (docs/reference/rules/registry.md#index-format), parsed once at the
 * boundary. `parseIndex` either returns a fully checked index or throws; a caller that replaces a
 * cached index with the result therefore never stores a bad one (I2).
 */
import semver from '../versions/semver.js';
import { z } from '../../json/zod.js';
import { HookpmError, isHookpmError } from '../../errors.js';
import { isPlainObject } from '../../json/describe-value.js';
import { PLUGIN_NAME_PATTERN } from '../../plugin/name.js';
import { parseIntegrity } from '../integrity.js';
import { DIST_TAG_PATTERN } from '../name-rules.js';
import { formatIssue, pathOf } from './schema-issue.js';
import { checkUrl, redactUrl } from '../http/url-policy.js';
import { ownValue } from '../../json/own-value.js';
import { clip } from '../../text/clip.js';

const SCHEMA_HINT =
  'The registry serves an index hookpm cannot use; the cached copy, if any, is kept.';
const NAME_RULE = 'is not a valid plugin name (^[a-z0-9][a-z0-9._-]{0,63}$)';

const VERSION_KEY_RULE = 'is not a canonical semver version';
const TAG_NAME_RULE = 'is not a dist-tag name (a word that is not a semver range)';

/** I1: a version key is canonical semver (`semver.valid(k) === k`), as an index may hold it. */
export const isVersionKey = (key: string): boolean => semver.valid(key) === key;
/** A dist-tag name is a word that is not also a semver range. */
const isTagName = (tag: string): boolean =>
  DIST_TAG_PATTERN.test(tag) && semver.validRange(tag) === null;

const versionKey = z.string().check(z.refine(isVersionKey, { message: VERSION_KEY_RULE }));

const versionSchema = z.object({
  tarball: z.string().check(z.minLength(1)),
  integrity: z.string(),
  size: z.optional(z.number().check(z.int(), z.nonnegative())),
  publishedAt: z.optional(z.string()),
  events: z.optional(z.array(z.string())),
  surfaceHash: z.optional(
    z.string().check(z.regex(/^sha256-[A-Za-z0-9+/]+={0,2}$/, 'is not `sha256-<base64>`')),
  ),
  deprecated: z.optional(z.string()),
});

const pluginSchema = z.object({
  description: z.optional(z.string()),
  keywords: z._default(z.array(z.string()), []),
  distTags: z._default(
    z.record(z.string().check(z.refine(isTagName, { message: TAG_NAME_RULE })), z.string()),
    {},
  ),
  versions: z.record(versionKey, versionSchema),
});

const indexSchema = z.object({
  formatVersion: z.literal(1),
  name: z.optional(z.string()),
  description: z.optional(z.string()),
  plugins: z.record(z.string().check(z.regex(PLUGIN_NAME_PATTERN, NAME_RULE)), pluginSchema),
});

export type RegistryIndex = z.infer<typeof indexSchema>;
export type IndexPlugin = RegistryIndex['plugins'][string];
export type IndexVersion = IndexPlugin['versions'][string];

/**
 * Parses an index document (already JSON-decoded). `where` names it in messages (a URL or file,
 * already redacted). Throws E_REGISTRY_SCHEMA naming the field path; E_INSECURE_URL for a plain
 * http tarball URL off loopback; E_INTEGRITY for an integrity without a sha512 entry (security.md).
 */
export function parseIndex(value: unknown, where: string): RegistryIndex {
  checkKeys(value, where);
  const parsed = indexSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message = issue ? formatIssue(issue, value) : 'is invalid';
    const field = issue ? pathOf(issue.path) : '';
    throw new HookpmError('E_REGISTRY_SCHEMA', `${where}: ${field ? `${field} ` : ''}${message}`, {
      file: where,
      field,
      hint: SCHEMA_HINT,
    });
  }
  for (const [name, plugin] of Object.entries(parsed.data.plugins)) {
    checkPlugin(name, plugin, where);
  }
  return parsed.data;
}

/**
 * Checks keys on the raw document, before zod copies it: zod silently drops a `__proto__` key, so
 * every own key is checked here by the rule zod would apply. Plugin keys are plugin names (P3);
 * version keys are canonical semver, and two equal under semver (`1.0.0`, `v1.0.0`) are a schema
 * error (I1); dist-tag keys are dist-tag names.
 */
function checkKeys(raw: unknown, where: string): void {
  const plugins = isPlainObject(raw) ? raw['plugins'] : undefined;
  if (!isPlainObject(plugins)) return;
  for (const [name, plugin] of Object.entries(plugins)) {
    if (!PLUGIN_NAME_PATTERN.test(name)) throw keyError(where, `plugins.${name}`, NAME_RULE);
    if (!isPlainObject(plugin)) continue;
    checkVersionKeys(plugin['versions'], `plugins.${name}.versions`, where);
    const tags = plugin['distTags'];
    if (!isPlainObject(tags)) continue;
    for (const tag of Object.keys(tags)) {
      if (!isTagName(tag)) throw keyError(where, `plugins.${name}.distTags.${tag}`, TAG_NAME_RULE);
    }
  }
}

/** I1 on the own keys of one plugin's `versions` (`field`), when it is an object. */
function checkVersionKeys(versions: unknown, field: string, where: string): void {
  if (!isPlainObject(versions)) return;
  const seen = new Map<string, string>();
  for (const key of Object.keys(versions)) {
    const norm = semver.clean(key, { loose: true }) ?? key;
    const other = seen.get(norm);
    if (other !== undefined) {
      const rule = `has keys ${other} and ${key}, which are equal under semver`;
      throw keyError(where, field, rule);
    }
    if (!isVersionKey(key)) throw keyError(where, `${field}.${key}`, VERSION_KEY_RULE);
    seen.set(norm, key);
  }
}

/** A refused key, its field path quoted bounded: a key that fails its rule can be any length. */
function keyError(where: string, field: string, rule: string): HookpmError {
  const shown = clip(field);
  return new HookpmError('E_REGISTRY_SCHEMA', `${where}: ${shown} ${rule}`, {
    file: where,
    field: shown,
    hint: SCHEMA_HINT,
  });
}

function checkPlugin(name: string, plugin: IndexPlugin, where: string): void {
  for (const [tag, version] of Object.entries(plugin.distTags)) {
    if (ownValue(plugin.versions, version) === undefined) {
      const field = `plugins.${name}.distTags.${tag}`;
      throw new HookpmError(
        'E_REGISTRY_SCHEMA',
        `${where}: ${field} names ${clip(version)}, which is not among the plugin's versions`,
        { file: where, field },
      );
    }
  }
  for (const [version, entry] of Object.entries(plugin.versions)) {
    const field = `plugins.${name}.versions.${version}`;
    checkTarballLocation(entry.tarball, `${field}.tarball`, where);
    try {
      parseIntegrity(entry.integrity);
    } catch (error) {
      if (!isHookpmError(error)) throw error;
      throw new HookpmError(
        'E_INTEGRITY',
        `${where}: ${field}.integrity has no sha512 entry (found ${JSON.stringify(entry.integrity.slice(0, 80))}); sha512 required`,
        { file: where, field: `${field}.integrity`, plugin: name, version, hint: error.hint },
      );
    }
  }
}

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * A tarball location is a path relative to the index, or a URL that url-policy allows (https,
 * loopback http, local file). A relative path must not be absolute, protocol-relative, or hold a
 * backslash or control character. Errors keep url-policy's code and add the field path.
 */
function checkTarballLocation(location: string, field: string, where: string): void {
  if (SCHEME.test(location)) {
    try {
      checkUrl(location, 'tarball');
    } catch (error) {
      if (!isHookpmError(error)) throw error;
      throw new HookpmError(error.code, `${where}: ${field}: ${error.message}`, {
        file: where,
        field,
        url: redactUrl(location),
        hint:
          error.hint ?? 'Use a path relative to the index, or an https, loopback http or file URL.',
      });
    }
    return;
  }
  if (/^[/\\]/.test(location) || /[\\\u0000-\u001f\u007f]/.test(location)) {
    throw new HookpmError(
      'E_REGISTRY_SCHEMA',
      `${where}: ${field} ${JSON.stringify(location.slice(0, 200))} is neither a relative path nor an allowed URL`,
      {
        file: where,
        field,
        hint: 'Use a path relative to the index, or an https, loopback http or file URL.',
      },
    );
  }
}
