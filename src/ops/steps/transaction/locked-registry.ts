import { HookpmError } from '../../../errors.js';
import { ownValue } from '../../../json/own-value.js';
import type { LockEntry } from '../../../project/lockfile.js';
import { splitPluginId } from '../../../project/plugin-id.js';
import { redactUrl } from '../../../registry/http/url-policy.js';
import { sha512Digests } from '../../../registry/versions/resolve-version.js';
import type { State } from '../../../store/state/state-schema.js';
import type { Catalog } from '../catalogs/catalog-types.js';
import { loadCatalogs, type RegistryWarning } from '../catalogs/load-catalogs.js';
import { networkAllowed } from '../context/network.js';
import { errorOf, sourceOf } from '../staging/pick.js';
import type { RegistrySource } from '../staging/types.js';
import { locksTarball, tarballUrlOfLocked } from './locked-source.js';
import { assertLockedIntegrity } from './locked-integrity.js';
import { releaseAgeOf } from '../policy/release-age-of.js';
import { policyRegistryOf, requirePluginAllowed } from '../policy/enforce-policy.js';
import { youngVersion, type ReleaseAge } from '../../../registry/versions/release-age.js';
import type { ProjectScope } from './project-scope.js';

/**
 * docs/reference/rules/registry.md#j1: the sources that install exactly what the lock pins for
 * `ids`, each from the registry its id names, as this command sees it (hookpm.json's, or the
 * user's own of that name): the registry's index (a cached copy with the network off, D5) must
 * list the locked version, at the tarball location the lock's `resolved` names (E_LOCK_MISMATCH
 * otherwise: a lock never sends hookpm elsewhere), with the locked integrity among its own
 * (E_INTEGRITY: the registry serves other bytes); and V3 holds (E_INTEGRITY_CHANGED: this user
 * installed that version with other bytes). All before any tarball is read.
 */
export async function lockedSources(
  scope: ProjectScope,
  locked: readonly LockedPlugin[],
  state: State,
): Promise<RegistrySource[]> {
  if (locked.length === 0) return [];
  // policy.md A12, A13, A16: a locked plugin the policy refuses is refused before its registry is
  // read (and again at the commit).
  for (const { id } of locked) {
    const { name, registry } = splitPluginId(id)!;
    const from = policyRegistryOf(scope.ctx, state, registry);
    requirePluginAllowed(scope.ctx, 'installing', { name, registry }, from);
  }
  const names = new Set(locked.map(({ id }) => splitPluginId(id)!.registry));
  const plugins = locked.map(({ id }) => splitPluginId(id)!.name);
  let loaded = await loadCatalogs(scope.ctx, { only: (name) => names.has(name), plugins });
  // An index copy cached before the lock was written may not list its version yet: read it again
  // once, as a spec not found in a cached index is (N4).
  const stale = new Set(
    locked
      .filter((plugin) => !servesLocked(loaded.catalogs, plugin))
      .map(({ id }) => splitPluginId(id)!.registry)
      .filter((name) => loaded.catalogs.some((c) => c.registry === name && c.origin === 'cache')),
  );
  if (stale.size > 0 && networkAllowed(scope.ctx)) {
    const again = await loadCatalogs(scope.ctx, {
      only: (name) => stale.has(name),
      refresh: true,
      plugins,
    });
    loaded = {
      ...loaded,
      catalogs: [...loaded.catalogs.filter((c) => !stale.has(c.registry)), ...again.catalogs],
      warnings: [...loaded.warnings, ...again.warnings],
    };
  }
  const age = releaseAgeOf(scope.ctx);
  return locked.map((plugin) => sourceOfLocked(plugin, loaded, state, age));
}

/** One locked plugin as stage-locked.ts hands it: its id, lock entry and hookpm.json range. */
export interface LockedPlugin {
  id: string;
  entry: LockEntry;
  range: string;
}

function servesLocked(catalogs: readonly Catalog[], { id, entry }: LockedPlugin): boolean {
  const { name, registry } = splitPluginId(id)!;
  const catalog = catalogs.find((c) => c.registry === registry);
  if (catalog === undefined || catalog.kind !== 'index') return true;
  const version = ownValue(ownValue(catalog.index.plugins, name)?.versions ?? {}, entry.version);
  return (
    version !== undefined &&
    locksTarball(
      entry.resolved,
      catalog.indexUrl,
      new URL(version.tarball, catalog.indexUrl).href,
    ) &&
    sameBytes(version.integrity, entry.integrity)
  );
}

/** `plugin` as its registry serves it, held to the lock and (when there is one) the cooldown. */
function sourceOfLocked(
  plugin: LockedPlugin,
  { catalogs, warnings }: { catalogs: readonly Catalog[]; warnings: readonly RegistryWarning[] },
  state: State,
  age: ReleaseAge | null,
): RegistrySource {
  const { id, entry, range } = plugin;
  const { name, registry } = splitPluginId(id)!;
  const catalog = catalogs.find((c) => c.registry === registry);
  if (catalog === undefined) {
    const failed = warnings.find((w) => w.registry === registry);
    if (failed !== undefined) throw errorOf(failed);
    throw noRegistry(id, registry);
  }
  if (catalog.kind !== 'index') throw noRegistry(id, registry);
  const version = ownValue(ownValue(catalog.index.plugins, name)?.versions ?? {}, entry.version);
  if (version === undefined) throw notListed(id, entry, catalog);
  const picked = { name, registry, version: entry.version, entry: version };
  const source = sourceOf(`${id}@${entry.version}`, picked, catalog, range);
  if (!locksTarball(entry.resolved, catalog.indexUrl, source.url))
    throw elsewhere(
      id,
      entry,
      tarballUrlOfLocked(entry.resolved, catalog.indexUrl),
      source.url,
      registry,
    );
  if (!sameBytes(version.integrity, entry.integrity))
    throw otherBytes(id, entry, version.integrity);
  if (age !== null) requireOldEnough(state, plugin, version, age);
  assertLockedIntegrity(state, {
    name,
    registry,
    version: entry.version,
    integrity: entry.integrity,
  });
  return { ...source, integrity: entry.integrity };
}

/**
 * policy.md A15: a version the lock pins is installed only when it is old enough for the cooldown
 * (its index entry's `publishedAt`), as a version a range picks: E_NO_MATCHING_VERSION naming its
 * age and the cooldown otherwise. A version this user has installed already (the user's record or
 * any project's, this one's or another clone's, at the locked version) is not installed anew, so
 * it stays.
 */
function requireOldEnough(
  state: State,
  { id, entry }: LockedPlugin,
  published: { publishedAt?: string | undefined },
  age: ReleaseAge,
): void {
  const records = [state.plugins, ...Object.values(state.projects ?? {}).map((p) => p.plugins)];
  if (records.some((plugins) => plugins?.[id]?.version === entry.version)) return;
  const held = youngVersion(entry.version, published, age);
  if (held === null) return;
  throw new HookpmError(
    'E_NO_MATCHING_VERSION',
    `hookpm.lock pins ${id} ${entry.version}, published ${held.ageDays} day(s) ago (${held.publishedAt}), younger than the minimum release age of ${age.days} day(s) (${age.from})`,
    {
      plugin: id,
      version: entry.version,
      hint: `Wait until it is old enough, or lock an older version (\`hookpm install --project ${id}@<version>\`).`,
    },
  );
}

/** Whether two integrity strings share a sha512 digest. */
function sameBytes(a: string, b: string): boolean {
  const digests = sha512Digests(b);
  return sha512Digests(a).some((d) => digests.includes(d));
}

function noRegistry(id: string, registry: string): HookpmError {
  return new HookpmError('E_NOT_FOUND', `${id}: there is no index registry named ${registry}`, {
    registry,
    plugin: id,
    hint: 'List the registry under "registries" in hookpm.json, or run `hookpm registry add`.',
  });
}

function notListed(id: string, entry: LockEntry, catalog: Catalog): HookpmError {
  return new HookpmError(
    'E_LOCK_MISMATCH',
    `hookpm.lock pins ${id} ${entry.version}, which the registry ${catalog.registry} (${redactUrl(catalog.indexUrl)}) does not list`,
    {
      plugin: id,
      version: entry.version,
      // `install` reads the lock as it is, so it fails the same way; `update` resolves again, and
      // --allow-downgrade lets it follow a registry whose versions now end below the locked one.
      hint: `Run \`hookpm update --project ${id} --allow-downgrade\` to lock a version the registry has, and commit hookpm.lock.`,
    },
  );
}

function elsewhere(
  id: string,
  entry: LockEntry,
  locked: string,
  served: string,
  registry: string,
): HookpmError {
  return new HookpmError(
    'E_LOCK_MISMATCH',
    `hookpm.lock's resolved for ${id} ${entry.version} is ${redactUrl(locked)}, but the registry ${registry} serves that version at ${redactUrl(served)}; hookpm fetches a project plugin only from its registry, and nothing was read`,
    {
      plugin: id,
      version: entry.version,
      expected: redactUrl(served),
      found: redactUrl(locked),
      hint: `Someone edited hookpm.lock by hand, or the registry moved its tarballs. Review the change; \`hookpm update --project ${id}\` locks what the registry serves.`,
    },
  );
}

function otherBytes(id: string, entry: LockEntry, served: string): HookpmError {
  return new HookpmError(
    'E_INTEGRITY',
    `${id} ${entry.version}: hookpm.lock's integrity ${entry.integrity} differs from the registry's ${served}`,
    {
      plugin: id,
      field: 'integrity',
      expected: entry.integrity,
      found: served,
      hint: 'The registry serves other bytes than the lock was written with. If the change is expected, run `hookpm update --project` to lock the new bytes and commit hookpm.lock.',
    },
  );
}
