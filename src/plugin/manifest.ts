import semver from '../registry/versions/semver.js';
import { z } from '../json/zod.js';
import { describeValue } from '../json/describe-value.js';
import { diagnostic, type Diagnostic } from '../hooks/diagnostic.js';
import { childPath, documentPath, valueAtPath } from '../hooks/json-path.js';
import { clip } from '../text/clip.js';
import { CapabilitiesSchema } from './capabilities.js';

/**
 * The plugin manifest (plugins.md P1, P2, P4): the fields hookpm uses are checked strictly (no
 * coercion: `name: 1` and `hooks: 5` are errors with their JSON path); every other field
 * (skills, commands, agents, mcpServers, $schema, ...) is kept as is and reported as an
 * `unknown_key` warning, which only `hookpm validate` shows.
 */
const Author = z.union([
  z.string(),
  z.looseObject({ name: z.string(), email: z.optional(z.string()), url: z.optional(z.string()) }),
]);

const Version = z
  .string()
  .check(z.refine((v) => semver.valid(v) !== null, { message: 'is not a semver version' }));

/** `hooks`: a path, an array of paths (H2) or an inline hooks object (H3). */
const ManifestHooks = z.union([z.string(), z.array(z.string()), z.record(z.string(), z.unknown())]);

export const ManifestSchema = z.looseObject({
  name: z.string(),
  version: z.optional(Version),
  description: z.optional(z.string()),
  author: z.optional(Author),
  homepage: z.optional(z.string()),
  repository: z.optional(z.union([z.string(), z.record(z.string(), z.unknown())])),
  license: z.optional(z.string()),
  keywords: z.optional(z.array(z.string())),
  hooks: z.optional(ManifestHooks),
  /** Z1 (security.md#confinement): what the plugin's handlers may do; absent: unconfined. */
  capabilities: z.optional(CapabilitiesSchema),
});

export type Manifest = z.infer<typeof ManifestSchema>;
export type ManifestHooksField = z.infer<typeof ManifestHooks>;

/** The manifest fields a marketplace page shows about a plugin; absent ones are left out. */
export type PluginAbout = Pick<
  Manifest,
  'author' | 'license' | 'homepage' | 'repository' | 'capabilities'
>;

export function aboutOf(manifest: Manifest | null): PluginAbout {
  const about: PluginAbout = {};
  if (manifest?.author !== undefined) about.author = manifest.author;
  if (manifest?.license !== undefined) about.license = manifest.license;
  if (manifest?.homepage !== undefined) about.homepage = manifest.homepage;
  if (manifest?.repository !== undefined) about.repository = manifest.repository;
  if (manifest?.capabilities !== undefined) about.capabilities = manifest.capabilities;
  return about;
}

const EXPECTED: Readonly<Record<string, string>> = {
  name: 'a string',
  version: 'a semver version string such as "1.0.0"',
  description: 'a string',
  author: 'a string or an object {name, email?, url?} of strings',
  homepage: 'a string',
  repository: 'a string or an object',
  license: 'a string',
  keywords: 'an array of strings',
  hooks: 'a "./" path string, an array of them, or an inline hooks object',
  capabilities:
    'an object {"network": false or true, "write": [places among "data", "project", "tmp"]}',
};

export const MANIFEST_FIELDS: readonly string[] = Object.keys(EXPECTED);

/** What a manifest field must be, in words (`a string or an object`), for messages; else undefined. */
export function expectedOfField(field: string): string | undefined {
  return Object.hasOwn(EXPECTED, field) ? EXPECTED[field] : undefined;
}

export interface ParsedManifest {
  /** null when the value is not an object or `name` is missing or invalid. */
  manifest: Manifest | null;
  /** Errors (`invalid_manifest`) and warnings (`unknown_key`), with `path` = `<file>:<field>`. */
  diagnostics: Diagnostic[];
}

/**
 * Checks an already-parsed manifest. A field of the wrong type is an error and is left out of the
 * result, so the other fields (and the plugin's name) can still be shown; the caller refuses to
 * install a plugin with any error (P4).
 */
export function parseManifest(value: unknown, file: string): ParsedManifest {
  const root = documentPath(file);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const message = `${file}: a manifest must be a JSON object, found ${describeValue(value)}`;
    return {
      manifest: null,
      diagnostics: [diagnostic('invalid_manifest', 'error', message, { path: file })],
    };
  }
  const record = value as Record<string, unknown>;
  const diagnostics: Diagnostic[] = [];
  const bad = new Set<string>();
  const result = ManifestSchema.safeParse(record);
  for (const issue of result.success ? [] : result.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (bad.has(field)) continue;
    bad.add(field);
    const path = childPath(root, field);
    diagnostics.push(
      diagnostic('invalid_manifest', 'error', fieldMessage(record, issue.path, path), { path }),
    );
  }
  for (const key of Object.keys(record)) {
    if (MANIFEST_FIELDS.includes(key)) continue;
    const path = childPath(root, key);
    const message = `${clip(path)}: field ${JSON.stringify(clip(key))} is not used by hookpm and is kept as is`;
    diagnostics.push(diagnostic('unknown_key', 'warning', message, { path }));
  }
  if (bad.has('name')) return { manifest: null, diagnostics };
  const kept = Object.fromEntries(Object.entries(record).filter(([key]) => !bad.has(key)));
  const manifest = ManifestSchema.parse(kept);
  return { manifest, diagnostics };
}

/** `plugin.json:name is missing ...`, `plugin.json:hooks must be ..., found 5`. */
function fieldMessage(
  record: Record<string, unknown>,
  at: ReadonlyArray<PropertyKey>,
  path: string,
): string {
  const field = String(at[0]);
  const expected = `must be ${EXPECTED[field] ?? 'valid'}`;
  const found = valueAtPath(record, at);
  if (at.length === 1 && found === undefined) return `${path} is missing (required in a manifest)`;
  if (at.length === 1) return `${path} ${expected}, found ${describeValue(found)}`;
  const inner = at.slice(1).reduce<string>((p, key) => childPath(p, key as string | number), path);
  return `${path} ${expected}; ${inner} is ${describeValue(found)}`;
}
