/**
 * Picking a version is a pure function of index metadata (registry.md V1-V3), after
 * npm-pick-manifest: the `latest` dist-tag wins when it satisfies the range, otherwise the highest
 * satisfying version, non-deprecated versions before deprecated ones.
 */
import semver from './semver.js';
import { HookpmError } from '../../errors.js';
import type { IndexPlugin, IndexVersion } from '../indexes/index-schema.js';
import { nearestVersions, sortDescending } from './version-list.js';
import { ownValue } from '../../json/own-value.js';
import { clip } from '../../text/clip.js';

/** One registry's index record for the requested plugin name. */
export interface Candidate {
  registry: string;
  plugin: IndexPlugin;
}

export interface VersionRequest {
  name: string;
  /**
   * How errors name what was asked for, as a command takes it (`npm:<pkg>`, where nothing after an
   * `@` is a registry); default `<name>@<registry>`.
   */
  spec?: string;
  registry?: string;
  range?: string;
  tag?: string;
  includePrerelease?: boolean;
}

export interface PickedVersion {
  registry: string;
  name: string;
  version: string;
  entry: IndexVersion;
  /** The deprecation reason when the chosen version is deprecated: install it, with a warning. */
  deprecated?: string;
}

/**
 * V1: a bare name found in several registries is E_AMBIGUOUS; V2: npm ranges and dist-tags,
 * prereleases only when the range names one or `includePrerelease`; no match is
 * E_NO_MATCHING_VERSION with the nearest versions. Unknown plugin or registry: E_NOT_FOUND.
 */
export function pickVersion(
  candidates: readonly Candidate[],
  request: VersionRequest,
): PickedVersion {
  const candidate = chooseRegistry(candidates, request);
  const { plugin, registry } = candidate;
  const id = request.spec ?? `${request.name}@${registry}`;
  const versions = Object.keys(plugin.versions);
  if (request.tag !== undefined) {
    const version = ownValue(plugin.distTags, request.tag);
    if (version === undefined)
      throw unknownTag(id, request.tag, plugin, request.spec === undefined);
    return picked(candidate, request.name, version);
  }
  const range = request.range === undefined ? '*' : checkRange(request.range, id);
  const options = { includePrerelease: request.includePrerelease === true };
  const latest = latestInRange(plugin, range, options);
  if (latest !== undefined) return picked(candidate, request.name, latest);
  const best = bestOf(
    plugin,
    versions.filter((v) => semver.satisfies(v, range, options)),
  );
  if (best === undefined)
    throw noMatch(id, range, versions, options.includePrerelease, request.spec ?? request.name);
  return picked(candidate, request.name, best);
}

/** The dist-tags an unknown tag's error lists: a document may hold any number, of any length. */
const TAGS_SHOWN = 8;

/** `orRegistry`: the tag could have been a registry's name (`name@x`), which the message says. */
function unknownTag(
  id: string,
  tag: string,
  plugin: IndexPlugin,
  orRegistry: boolean,
): HookpmError {
  const all = Object.keys(plugin.distTags);
  // `latest` first, then the document's order; each name cut as a dist-tag's longest (64).
  const tags = [...all.filter((t) => t === 'latest'), ...all.filter((t) => t !== 'latest')]
    .slice(0, TAGS_SHOWN)
    .map((t) => ({ name: clip(t, 64), version: clip(ownValue(plugin.distTags, t) ?? '?', 64) }));
  const more = all.length - tags.length;
  const known =
    tags.map((t) => `${t.name} -> ${t.version}`).join(', ') +
    (more > 0 ? `, and ${more.toLocaleString('en-US')} more` : '');
  return new HookpmError(
    'E_NO_MATCHING_VERSION',
    `${id} has no dist-tag \`${tag}\`${orRegistry ? ` (nor is \`${tag}\` a registry you have added)` : ''}; tags: ${known || 'none'}`,
    {
      plugin: id,
      tag,
      tags: tags.map((t) => t.name),
      nearest: sortDescending(Object.keys(plugin.versions)).slice(0, 3),
      hint: `Name a range or one of the listed tags${orRegistry ? ', or add the registry first' : ''}.`,
    },
  );
}

function chooseRegistry(candidates: readonly Candidate[], request: VersionRequest): Candidate {
  if (request.registry !== undefined) {
    const found = candidates.find((c) => c.registry === request.registry);
    if (found === undefined) {
      throw new HookpmError(
        'E_NOT_FOUND',
        `no plugin ${request.name} in registry ${request.registry}`,
        {
          plugin: `${request.name}@${request.registry}`,
          hint: 'Run `hookpm search` to see what the registries offer.',
        },
      );
    }
    return found;
  }
  const [only, ...others] = candidates;
  if (only === undefined) {
    throw new HookpmError('E_NOT_FOUND', `no registry has a plugin named ${request.name}`, {
      plugin: request.name,
      hint: 'Run `hookpm search` to see what the registries offer, or `hookpm registry update` to refresh them.',
    });
  }
  if (others.length > 0) {
    throw ambiguousName(
      request.name,
      candidates.map((c) => `${request.name}@${c.registry}`),
    );
  }
  return only;
}

/** V1: a bare name that several registries hold; the hint shows `command` with the first id. */
export function ambiguousName(
  name: string,
  ids: readonly string[],
  command: 'install' | 'info' = 'install',
): HookpmError {
  return new HookpmError('E_AMBIGUOUS', `${name} is in several registries: ${ids.join(', ')}`, {
    plugin: name,
    ids: [...ids],
    hint: `Name the registry, e.g. \`hookpm ${command} ${ids[0] ?? name}\`.`,
  });
}

/**
 * The `latest` dist-tag when it satisfies `range` and is not deprecated: install takes it over any
 * higher version in the range, and update moves no further (npm-pick-manifest's rule).
 */
function latestInRange(
  plugin: IndexPlugin,
  range: string,
  options: { includePrerelease: boolean },
): string | undefined {
  const latest = ownValue(plugin.distTags, 'latest');
  if (latest === undefined || !satisfiesRange(latest, range, options)) return undefined;
  return ownValue(plugin.versions, latest)?.deprecated === undefined ? latest : undefined;
}

/**
 * semver.satisfies, with `*` (a bare name) answered without building a Range, which costs a
 * start-up more than anything else the resolution does: a valid version satisfies `*` unless it
 * is a prerelease and prereleases are not included.
 */
function satisfiesRange(
  version: string,
  range: string,
  options: { includePrerelease: boolean },
): boolean {
  if (range !== '*') return semver.satisfies(version, range, options);
  return (
    semver.valid(version) !== null &&
    (options.includePrerelease || semver.prerelease(version) === null)
  );
}

/** Non-deprecated before deprecated, then highest first. */
function bestOf(plugin: IndexPlugin, versions: readonly string[]): string | undefined {
  const sorted = sortDescending(versions);
  return sorted.find((v) => plugin.versions[v]?.deprecated === undefined) ?? sorted[0];
}

function checkRange(range: string, id: string): string {
  if (semver.validRange(range) === null) {
    throw new HookpmError('E_USAGE', `${id}: ${JSON.stringify(range)} is not a semver range`, {
      range,
      hint: 'Use an npm range such as ^1.2.0, ~1.2, 1.x or an exact version.',
    });
  }
  return range;
}

export function noMatch(
  id: string,
  range: string,
  versions: readonly string[],
  includePrerelease: boolean,
  example = id.split('@')[0] ?? id,
): HookpmError {
  const nearest = nearestVersions(versions, range);
  const onlyPrerelease =
    !includePrerelease &&
    versions.some((v) => semver.satisfies(v, range, { includePrerelease: true }));
  return new HookpmError(
    'E_NO_MATCHING_VERSION',
    `no version of ${id} matches ${clip(range)}; nearest available: ${nearest.length > 0 ? nearest.join(', ') : 'none'}`,
    {
      plugin: id,
      range,
      nearest,
      hint: onlyPrerelease
        ? 'Only prereleases match: add --include-prerelease, or name the prerelease in the range.'
        : `Pick one of the available versions, e.g. ${example}@${nearest[0] ?? '<version>'}.`,
    },
  );
}

export function picked(candidate: Candidate, name: string, version: string): PickedVersion {
  const entry = ownValue(candidate.plugin.versions, version);
  if (entry === undefined)
    throw new Error(`Assertion failed: ${name}@${version} is not in the index`);
  const result: PickedVersion = { registry: candidate.registry, name, version, entry };
  if (entry.deprecated !== undefined) result.deprecated = entry.deprecated;
  return result;
}

/**
 * V3: the version already installed with an integrity must be served with the same sha512 digest;
 * otherwise E_INTEGRITY_CHANGED and the caller changes nothing.
 */
export function checkKnownIntegrity(
  installed: { version: string; integrity: string | null | undefined } | undefined,
  picked: PickedVersion,
): void {
  if (installed === undefined || installed.version !== picked.version) return;
  if (installed.integrity === null || installed.integrity === undefined) return;
  const before = sha512Digests(installed.integrity);
  const now = sha512Digests(picked.entry.integrity);
  if (before.length === 0 || now.some((digest) => before.includes(digest))) return;
  const id = `${picked.name}@${picked.registry}`;
  throw new HookpmError(
    'E_INTEGRITY_CHANGED',
    `${id} ${picked.version} was installed with integrity ${installed.integrity}, but the registry now serves ${picked.entry.integrity} for the same version`,
    {
      plugin: id,
      version: picked.version,
      expected: installed.integrity,
      found: picked.entry.integrity,
      hint: 'A published version must never change. Nothing was changed; ask the registry owner, or install it again with --force-integrity-change if you trust the new bytes.',
    },
  );
}

/** The sha512 digests of an SRI string (without options). */
export function sha512Digests(integrity: string): string[] {
  return integrity
    .trim()
    .split(/\s+/)
    .filter((part) => part.startsWith('sha512-'))
    .map((part) => part.replace(/\?.*$/, ''));
}

export interface UpdateRequest {
  name: string;
  /** The installed version. */
  installed: string;
  /** The range recorded at install; default `*`. */
  range?: string;
  /** A dist-tag the plugin follows instead of a range. */
  tag?: string;
  includePrerelease?: boolean;
  allowDowngrade?: boolean;
}

export type UpdatePlan =
  | { change: 'none'; version: string }
  | { change: 'upgrade' | 'downgrade'; version: string; entry: IndexVersion; deprecated?: string };

/**
 * The version `hookpm update` moves to: the newest in range (non-deprecated first; no higher than
 * the `latest` dist-tag when it is in range, as install picks), never lower than the installed
 * one. When the index no longer offers the installed version or anything above it (the index moved
 * backwards), that is E_DOWNGRADE unless `allowDowngrade`.
 */
export function newestInRange(candidate: Candidate, request: UpdateRequest): UpdatePlan {
  const { plugin } = candidate;
  const id = `${request.name}@${candidate.registry}`;
  const versions = Object.keys(plugin.versions);
  const { installed } = request;
  let offered: string[];
  if (request.tag !== undefined) {
    const tagged = ownValue(plugin.distTags, request.tag);
    if (tagged === undefined) throw noMatch(id, request.tag, versions, true);
    offered = [tagged];
  } else {
    const range = checkRange(request.range ?? '*', id);
    // An installed prerelease the range names (`^1.1.0-beta.1`) moves as npm moves it: to later
    // prereleases of 1.1.0 and to releases. One the range matches only with prereleases included
    // (installed with --include-prerelease) keeps them included, or it would look left behind.
    const includePrerelease =
      request.includePrerelease === true ||
      (semver.prerelease(installed) !== null && !semver.satisfies(installed, range));
    offered = versions.filter((v) => semver.satisfies(v, range, { includePrerelease }));
    // As install picks: the versions above a `latest` in range are not offered (the publisher has
    // not promoted them), so `update` right after `install` of the same range changes nothing.
    const latest = latestInRange(plugin, range, { includePrerelease });
    // A `latest` moved back below the installed version (a release withdrawn by its publisher)
    // is what install would pick now: a downgrade, told and followed only with allowDowngrade.
    if (latest !== undefined && semver.lt(latest, installed))
      return tagMovedBack(candidate, request, latest);
    if (latest !== undefined)
      offered = offered.filter((v) => v === installed || !semver.gt(v, latest));
    // The installed version in range left the index with nothing else in it: it moved backwards
    // (E_DOWNGRADE, below); with allowDowngrade there is no version in range to follow.
    const left = semver.satisfies(installed, range, { includePrerelease });
    if (offered.length === 0 && (!left || request.allowDowngrade === true))
      throw noMatch(id, range, versions, includePrerelease);
  }
  const higher = offered.filter((v) => semver.gt(v, installed));
  const higherKept = higher.filter((v) => plugin.versions[v]?.deprecated === undefined);
  const target = bestOf(plugin, higherKept.length > 0 ? higherKept : higher);
  if (target !== undefined && (higherKept.length > 0 || !offered.includes(installed))) {
    return plan('upgrade', picked(candidate, request.name, target));
  }
  if (offered.includes(installed)) return { change: 'none', version: installed };
  const lower = bestOf(plugin, offered);
  if (request.allowDowngrade === true) {
    if (lower === undefined) throw new Error('Assertion failed: offered versions are not empty');
    return plan('downgrade', picked(candidate, request.name, lower));
  }
  // A range is as long as the user gave it (install records it): a message quotes a prefix.
  const where =
    request.tag === undefined ? ` in ${clip(request.range ?? '*')}` : ` as ${clip(request.tag)}`;
  throw new HookpmError(
    'E_DOWNGRADE',
    `the index of ${candidate.registry} moved backwards: ${id} ${installed} is installed, but ${lower === undefined ? `it offers no version${where}` : `the newest version it offers${where} is ${lower}`}`,
    {
      plugin: id,
      installed,
      found: lower ?? null,
      hint: 'Nothing was changed. Allow the downgrade explicitly if it is intended (hookpm install <name>@<version>).',
    },
  );
}

/** newestInRange when the `latest` tag in range is below the installed version. */
function tagMovedBack(candidate: Candidate, request: UpdateRequest, latest: string): UpdatePlan {
  if (request.allowDowngrade === true)
    return plan('downgrade', picked(candidate, request.name, latest));
  const id = `${request.name}@${candidate.registry}`;
  throw new HookpmError(
    'E_DOWNGRADE',
    `the \`latest\` tag of ${id} moved back to ${latest}: ${request.installed} is installed, and ${latest} is the version ${clip(request.range ?? '*')} picks now; not followed (--allow-downgrade follows it)`,
    {
      plugin: id,
      installed: request.installed,
      found: latest,
      hint: `Nothing was changed. \`hookpm update ${id} --allow-downgrade\` installs ${latest} if the downgrade is intended.`,
    },
  );
}

function plan(change: 'upgrade' | 'downgrade', chosen: PickedVersion): UpdatePlan {
  const result: UpdatePlan = { change, version: chosen.version, entry: chosen.entry };
  if (chosen.deprecated !== undefined) result.deprecated = chosen.deprecated;
  return result;
}
