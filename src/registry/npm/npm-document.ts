import semver from '../versions/semver.js';
import { z } from '../../json/zod.js';
import { HookpmError } from '../../errors.js';
import type { IndexPlugin, IndexVersion } from '../indexes/index-schema.js';
import { parseIntegrity } from '../integrity.js';
import { isNpmPackageName } from '../name-rules.js';
import { pickVersion } from '../versions/resolve-version.js';
import { formatIssue, pathOf } from '../indexes/schema-issue.js';
import { ownValue } from '../../json/own-value.js';

/**
 * An npm package document (the registry's `GET /<name>`, full or abbreviated "corgi" form), reduced
 * to what installing needs (docs/reference/rules/registry.md#registry-kinds, kind npm). Versions
 * whose key is not canonical semver or whose `dist` lacks a tarball are not offered; dist-tags
 * naming them are dropped. Package scripts are never looked at: hookpm never runs npm, only reads
 * tarballs.
 */
export interface NpmDocument {
  name: string;
  distTags: Record<string, string>;
  versions: Record<string, NpmVersion>;
}

export interface NpmVersion {
  tarball: string;
  /** `dist.integrity` as published; null when the version has none. */
  integrity: string | null;
  deprecated?: string;
}

const DocumentSchema = z.looseObject({
  name: z.string(),
  'dist-tags': z._default(z.record(z.string(), z.unknown()), {}),
  versions: z.record(z.string(), z.unknown()),
});

const VersionSchema = z.looseObject({
  dist: z.looseObject({
    tarball: z.string().check(z.minLength(1)),
    integrity: z.optional(z.string()),
  }),
  deprecated: z.optional(z.string()),
});

/** The document's URL: `<registry>/<name>`, a scoped name as `@scope%2fname` (as npm requests it). */
export function npmDocumentUrl(registry: string, pkg: string): string {
  if (!isNpmPackageName(pkg)) {
    throw new HookpmError('E_NAME_INVALID', `${JSON.stringify(pkg)} is not an npm package name`, {
      package: pkg,
    });
  }
  const base = registry.endsWith('/') ? registry : `${registry}/`;
  return `${base}${pkg.replace('/', '%2f')}`;
}

/** Parses a decoded document; E_REGISTRY_SCHEMA naming `where` and the field, or a foreign name. */
export function parseNpmDocument(value: unknown, pkg: string, where: string): NpmDocument {
  const parsed = DocumentSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue === undefined ? '' : pathOf(issue.path);
    const what = issue === undefined ? 'is invalid' : formatIssue(issue, value);
    throw new HookpmError(
      'E_REGISTRY_SCHEMA',
      `${where}: not an npm package document: ${field || 'the document'} ${what}`,
      { url: where, field },
    );
  }
  if (parsed.data.name !== pkg) {
    throw new HookpmError(
      'E_REGISTRY_SCHEMA',
      `${where}: the document is for ${JSON.stringify(parsed.data.name.slice(0, 100))}, not ${pkg}`,
      { url: where, package: pkg },
    );
  }
  const versions: Record<string, NpmVersion> = {};
  for (const [key, raw] of Object.entries(parsed.data.versions)) {
    const entry = VersionSchema.safeParse(raw);
    if (semver.valid(key) !== key || !entry.success) continue;
    const version: NpmVersion = {
      tarball: entry.data.dist.tarball,
      integrity: entry.data.dist.integrity ?? null,
    };
    if (entry.data.deprecated !== undefined && entry.data.deprecated !== '')
      version.deprecated = entry.data.deprecated;
    versions[key] = version;
  }
  const distTags: Record<string, string> = {};
  for (const [tag, version] of Object.entries(parsed.data['dist-tags'])) {
    if (typeof version === 'string' && ownValue(versions, version) !== undefined)
      distTags[tag] = version;
  }
  return { name: pkg, distTags, versions };
}

export interface NpmRequest {
  range?: string;
  tag?: string;
  includePrerelease?: boolean;
}

export interface NpmPick {
  version: string;
  tarball: string;
  /** A checked SRI string with a sha512 entry. */
  integrity: string;
  deprecated?: string;
}

/**
 * Picks a version as for an index (registry.md V2, resolve-version.ts: `latest` when it
 * satisfies, else the highest match, prereleases only when asked). The chosen version must
 * publish a sha512 `dist.integrity`: E_INTEGRITY otherwise (a sha1 `shasum` is never enough).
 */
export function pickNpmVersion(doc: NpmDocument, request: NpmRequest): NpmPick {
  const versions: Record<string, IndexVersion> = {};
  for (const [key, v] of Object.entries(doc.versions)) {
    versions[key] = {
      tarball: v.tarball,
      integrity: v.integrity ?? '',
      ...(v.deprecated === undefined ? {} : { deprecated: v.deprecated }),
    };
  }
  const plugin: IndexPlugin = { keywords: [], distTags: doc.distTags, versions };
  // Only these fields: a caller's request object may carry others (a registry URL) that
  // pickVersion would read as a registry name.
  const chosen = pickVersion([{ registry: 'npm', plugin }], {
    name: doc.name,
    spec: `npm:${doc.name}`,
    ...(request.range === undefined ? {} : { range: request.range }),
    ...(request.tag === undefined ? {} : { tag: request.tag }),
    ...(request.includePrerelease === undefined
      ? {}
      : { includePrerelease: request.includePrerelease }),
  });
  const version = ownValue(doc.versions, chosen.version);
  if (version === undefined)
    throw new Error('Assertion failed: picked a version the document lacks');
  if (version.integrity === null) {
    throw new HookpmError(
      'E_INTEGRITY',
      `${doc.name}@${chosen.version} publishes no dist.integrity: sha512 required`,
      {
        package: doc.name,
        version: chosen.version,
        hint: 'hookpm installs only tarballs with a published sha512 integrity (npm has published one since 2017).',
      },
    );
  }
  parseIntegrity(version.integrity);
  const pick: NpmPick = {
    version: chosen.version,
    tarball: version.tarball,
    integrity: version.integrity,
  };
  if (version.deprecated !== undefined) pick.deprecated = version.deprecated;
  return pick;
}
