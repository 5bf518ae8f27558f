import semver from '../../../registry/versions/semver.js';
import { HookpmError, isHookpmError } from '../../../errors.js';
import type { InstallSpec } from '../../../registry/versions/parse-spec.js';
import {
  checkKnownIntegrity,
  pickVersion,
  type Candidate,
  type PickedVersion,
} from '../../../registry/versions/resolve-version.js';
import { redactUrl } from '../../../registry/http/url-policy.js';
import type { PluginRecord, State } from '../../../store/state/state-schema.js';
import type { LoadedCatalogs, RegistryWarning } from '../catalogs/load-catalogs.js';
import type { InstallSource, RegistrySource, StagedPlugin } from './types.js';
import { knownIntegrityOf } from '../../../store/state/known-integrity.js';
import { npmPackageOf } from '../installed/npm-package.js';
import type { Catalog } from '../catalogs/catalog-types.js';
import { ownValue } from '../../../json/own-value.js';
import { suggestIn } from '../../../text/did-you-mean.js';
import { knownPluginNames } from '../catalogs/known-names.js';
import { clip, FIELD_MAX } from '../../../text/clip.js';
import {
  heldNote,
  holdBackYoung,
  type HeldVersion,
  type ReleaseAge,
} from '../../../registry/versions/release-age.js';

export type RegistrySpec = Extract<InstallSpec, { kind: 'registry' }>;

export interface PickOptions {
  includePrerelease: boolean;
  /** `--force-integrity-change`: V3 is not checked (the new integrity replaces the known one). */
  acceptIntegrityChange?: boolean;
  /** Things to tell the user (a deprecated version). */
  notes: string[];
  /** docs/reference/rules/policy.md#a15: versions younger than this are not picked. */
  releaseAge?: ReleaseAge | null;
}

/**
 * V1-V3 for one spec over the loaded catalogs: the candidates are the index registries holding the
 * name (only the named registry when the spec names one); pickVersion decides (E_AMBIGUOUS,
 * E_NO_MATCHING_VERSION, E_NOT_FOUND); checkKnownIntegrity refuses a changed integrity for an
 * installed version (E_INTEGRITY_CHANGED). A registry that could not be read is its own error when
 * the spec names it, or when no other registry has the name; when another has it, a bare name is
 * E_AMBIGUOUS (V1: the unread one may hold it too).
 */
export function pickRegistrySource(
  spec: RegistrySpec,
  loaded: LoadedCatalogs<Catalog>,
  state: State,
  opts: PickOptions,
): RegistrySource {
  if (spec.registry !== undefined && !loaded.entries.some((e) => e.name === spec.registry)) {
    throw suggestIn(
      new HookpmError(
        'E_NOT_FOUND',
        `${clip(spec.raw)}: there is no registry named ${clip(spec.registry)}`,
        {
          registry: spec.registry,
          hint: 'Run `hookpm registry list` to see the registries, or `hookpm registry add` one; a project can list it under `registries` in hookpm.json.',
        },
      ),
      spec.registry,
      loaded.entries.map((e) => e.name),
    );
  }
  const relevant = (name: string): boolean => spec.registry === undefined || name === spec.registry;
  const held = new Map<string, HeldVersion[]>();
  const candidates: Candidate[] = loaded.catalogs.flatMap((c) => {
    const plugin = relevant(c.registry) ? ownValue(c.index.plugins, spec.name) : undefined;
    if (plugin === undefined) return [];
    if (opts.releaseAge == null) return [{ registry: c.registry, plugin }];
    const gated = holdBackYoung(plugin, opts.releaseAge);
    held.set(c.registry, gated.held);
    return [{ registry: c.registry, plugin: gated.plugin }];
  });
  const failed = loaded.warnings.filter((w) => relevant(w.registry));
  if (candidates.length === 0 && failed[0] !== undefined) throw errorOf(failed[0]);
  // V1: a registry that could not be read, not even from its cache, may hold the name too: never
  // a quiet pick of another's plugin of that name (a private registry down, a public one in).
  const unread = failed.find((w) => !loaded.catalogs.some((c) => c.registry === w.registry));
  if (spec.registry === undefined && unread !== undefined)
    throw unreadRegistry(spec, candidates, unread);
  const request = {
    name: spec.name,
    ...(spec.registry === undefined ? {} : { registry: spec.registry }),
    ...(spec.range === undefined ? {} : { range: spec.range }),
    ...(spec.tag === undefined ? {} : { tag: spec.tag }),
    includePrerelease: opts.includePrerelease,
  };
  let picked: PickedVersion;
  try {
    picked = pickVersion(candidates, request);
  } catch (error) {
    // Messages, questions and waits (docs/design/decisions.md#where-the-rules-are-silent): a name
    // no registry holds comes with the known names close to it; an unknown dist-tag
    // (`guard@exmaples`) with the registries and tags close to it.
    if (!isHookpmError(error)) throw error;
    const young = [...held.values()].flat();
    if (opts.releaseAge != null && young.length > 0 && error.code === 'E_NO_MATCHING_VERSION')
      throw tooYoung(spec.raw, young, opts.releaseAge);
    if (candidates.length === 0 && error.code === 'E_NOT_FOUND')
      throw suggestIn(error, spec.name, knownPluginNames(loaded.catalogs, state, spec.registry));
    const tags = error.details['tags'];
    if (spec.tag !== undefined && Array.isArray(tags))
      throw suggestIn(error, spec.tag, [...loaded.entries.map((e) => e.name), ...tags]);
    throw error;
  }
  if (opts.releaseAge != null)
    for (const h of held.get(picked.registry) ?? [])
      if (semver.gt(h.version, picked.version))
        opts.notes.push(heldNote(`${spec.name}@${picked.registry}`, h, opts.releaseAge));
  if (opts.acceptIntegrityChange !== true) assertKnownIntegrity(state, picked);
  const catalog = loaded.catalogs.find((c) => c.registry === picked.registry);
  if (catalog === undefined)
    throw new Error('Assertion failed: the picked registry has no catalog');
  if (picked.deprecated !== undefined)
    opts.notes.push(
      deprecatedNote(`${spec.name}@${picked.registry}`, picked.version, picked.deprecated),
    );
  return sourceOf(spec.raw, picked, catalog, recordedRange(spec, picked.version));
}

/**
 * What `hookpm update` later stays within (after npm's save-prefix): a dist-tag or a range as
 * given; an exact version or a bare name becomes `^<version>`.
 */
export function recordedRange(spec: RegistrySpec, version: string): string {
  if (spec.tag !== undefined) return spec.tag;
  if (spec.range === undefined || semver.valid(spec.range) !== null) return `^${version}`;
  return spec.range;
}

/**
 * V3 against the active version, a pending one, and the integrity the state keeps for every
 * version installed before (knownIntegrity: it outlives an uninstall).
 */
export function assertKnownIntegrity(state: State, picked: PickedVersion): void {
  const id = `${picked.name}@${picked.registry}`;
  const record = ownValue(state.plugins, id);
  if (record !== undefined) assertRecordIntegrity(record, picked);
  const known = knownIntegrityOf(state, id, picked.version);
  if (known !== undefined)
    checkKnownIntegrity({ version: picked.version, integrity: known }, picked);
}

/**
 * The warning for a deprecated version: its reason, a field the registry supplies, cut at
 * FIELD_MAX (docs/reference/rules/cli.md#conventions).
 */
export function deprecatedNote(id: string, version: string, reason: string): string {
  return `warning: ${id} ${version} is deprecated: ${clip(reason, FIELD_MAX)}`;
}

/** The sources V3 holds for: a registry serves them, and must serve a version's bytes unchanged. */
export function isFromRegistry(source: InstallSource): boolean {
  return source.kind === 'registry' || source.kind === 'npm' || source.kind === 'marketplace';
}

/**
 * V3 on the staged bytes of a plugin from a registry of any kind, against `state` (an npm
 * plugin's id and version are known only once staged): what a commit checks under the lock, and
 * what a dry run reports in its place. A source of no registry passes.
 */
export function assertStagedIntegrity(state: State, plugin: StagedPlugin): void {
  const { source, inspected } = plugin;
  if (!isFromRegistry(source)) return;
  const picked = {
    registry: source.registry,
    name: inspected.plugin.name,
    version: inspected.version,
    entry: { tarball: source.path, integrity: plugin.integrity },
  };
  const record = ownValue(state.plugins, `${picked.name}@${picked.registry}`);
  const from = record === undefined ? null : npmPackageOf(record);
  if (source.kind !== 'npm' || from === null || from === source.request.package)
    return assertKnownIntegrity(state, picked);
  try {
    assertKnownIntegrity(state, picked);
  } catch (error) {
    if (!isHookpmError(error, 'E_INTEGRITY_CHANGED')) throw error;
    throw otherPackage(error, from, source.request.package);
  }
}

/**
 * E_INTEGRITY_CHANGED when another npm package than the installed one holds a plugin of the same
 * name and version: no registry changed a version's bytes, two packages differ.
 */
function otherPackage(error: HookpmError, installed: string, other: string): HookpmError {
  const id = String(error.details['plugin']);
  const version = String(error.details['version']);
  return new HookpmError(
    'E_INTEGRITY_CHANGED',
    `${id} ${version} is installed from npm:${installed}; npm:${other} publishes a plugin of that name and version with other bytes (${String(error.details['found'])})`,
    {
      ...error.details,
      hint: `Two packages hold the plugin ${id.replace(/@npm$/, '')}: install npm:${other} with --force-integrity-change to replace the one of npm:${installed} with it.`,
    },
  );
}

/** V3 for one installed plugin: its active version and its pending update. */
export function assertRecordIntegrity(record: PluginRecord, picked: PickedVersion): void {
  checkKnownIntegrity(record, picked);
  if (record.pending !== null) checkKnownIntegrity(record.pending, picked);
}

/**
 * The source of a picked version. The tarball location resolves against the index URL; a remote
 * index may not point at a local `file:` tarball (E_INSECURE_URL): only a local index may.
 */
export function sourceOf(
  spec: string,
  picked: PickedVersion,
  catalog: Catalog,
  range: string,
): RegistrySource {
  const url = new URL(picked.entry.tarball, catalog.indexUrl).href;
  if (url.startsWith('file:') && !catalog.indexUrl.startsWith('file:')) {
    throw new HookpmError(
      'E_INSECURE_URL',
      `${picked.name}@${picked.registry} ${picked.version}: the remote index ${redactUrl(catalog.indexUrl)} points at the local file ${url}`,
      { url, hint: 'A remote registry must serve its tarballs over https (or loopback http).' },
    );
  }
  const { entry } = picked;
  const source: RegistrySource = {
    kind: 'registry',
    spec,
    path: `${picked.name}@${picked.registry}@${picked.version}`,
    fallbackName: picked.name,
    registry: picked.registry,
    range,
    name: picked.name,
    version: picked.version,
    url,
    integrity: entry.integrity,
  };
  if (entry.size !== undefined) source.size = entry.size;
  if (entry.events !== undefined) source.events = entry.events;
  if (entry.surfaceHash !== undefined) source.surfaceHash = entry.surfaceHash;
  if (picked.deprecated !== undefined) source.deprecated = picked.deprecated;
  return source;
}

/**
 * V1: a bare name found in `candidates` while the registry of `failure` could not be read:
 * E_AMBIGUOUS, as if both held it, naming both and the id to give.
 */
function unreadRegistry(
  spec: RegistrySpec,
  candidates: readonly Candidate[],
  failure: RegistryWarning,
): HookpmError {
  const ids = candidates.map((c) => `${spec.name}@${c.registry}`).sort();
  return new HookpmError(
    'E_AMBIGUOUS',
    `${clip(spec.name)} is in ${ids.join(', ')}, and the registry ${failure.registry} could not be read, so it may be there too (${failure.message})`,
    {
      name: spec.name,
      ids,
      registry: failure.registry,
      hint: `Name the registry to install from, for example \`hookpm install ${ids[0]}\`, or fix ${failure.registry} first.`,
    },
  );
}

/** A registry's load failure as the error it was. */
export function errorOf(warning: RegistryWarning): HookpmError {
  return new HookpmError(warning.code as HookpmError['code'], warning.message, {
    registry: warning.registry,
    ...(warning.hint === null ? {} : { hint: warning.hint }),
  });
}

/** A15: every version the spec could take is younger than the cooldown: E_NO_MATCHING_VERSION naming the age. */
function tooYoung(spec: string, held: readonly HeldVersion[], age: ReleaseAge): HookpmError {
  const newest = [...held].sort((a, b) => semver.rcompare(a.version, b.version))[0]!;
  return new HookpmError(
    'E_NO_MATCHING_VERSION',
    `${spec}: every version that matches is younger than the minimum release age of ${age.days} day(s) (${age.from}); the newest, ${newest.version}, was published ${newest.ageDays} day(s) ago (${newest.publishedAt})`,
    {
      minimumReleaseAgeDays: age.days,
      held: held.map((h) => h.version),
      hint: 'Wait until it is old enough, or name an older version.',
    },
  );
}
