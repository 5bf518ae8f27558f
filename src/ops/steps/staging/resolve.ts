import { isHookpmError } from '../../../errors.js';
import { parseInstallSpec, type InstallSpec } from '../../../registry/versions/parse-spec.js';
import { readStateShared } from '../../../store/state/state-draft.js';
import type { State } from '../../../store/state/state-schema.js';
import { effectiveRegistries } from '../catalogs/defaults.js';
import { resolveCatalogSource } from './resolve-catalog.js';
import { npmSource, resolveLocalSource } from './source.js';
import type { InstallSource } from './types.js';
import { loadCatalogs, type LoadedCatalogs } from '../catalogs/load-catalogs.js';
import type { OperationContext } from '../context/operation-context.js';
import { networkAllowed } from '../context/network.js';
import { cachedIndexesNote } from '../../../registry/network-refused.js';
import type { Catalog } from '../catalogs/catalog-types.js';
import { pickRegistrySource, type PickOptions, type RegistrySpec } from './pick.js';
import { requireSourceAllowed, requireSpecAllowed } from '../policy/source-allowed.js';
import { releaseAgeOf } from '../policy/release-age-of.js';

export interface ResolveOptions {
  cwd: string;
  includePrerelease: boolean;
  /** `--force-integrity-change`: V3 is not checked. */
  acceptIntegrityChange?: boolean;
  /** Revalidate every index first (an update looks for what was published since; N4). */
  refresh?: boolean;
}

export interface ResolvedSources {
  sources: InstallSource[];
  /**
   * The state the resolution saw (read without the lock; re-checked under it). Read only, and
   * only before the transaction: it may become the transaction's draft (S40).
   */
  state: State;
  /** Deprecations, registries skipped, cached indexes used without the network: for the CLI to print. */
  notes: string[];
}

/**
 * Step 1 of the install transaction (docs/reference/rules/registry.md#install-transaction) for
 * every spec, in order: parses it (the configured registry names decide `name@x`), checks local
 * paths, and picks registry versions from the indexes, which are loaded once for all specs (only
 * the named registries when every spec names one; see pickAll). Nothing is written but the index
 * cache.
 */
export async function resolveInstallSources(
  ctx: OperationContext,
  specs: readonly string[],
  opts: ResolveOptions,
): Promise<ResolvedSources> {
  const state = await readStateShared(ctx.paths);
  // `<pkg>@npm` names the npm registry even when none was added (resolve-catalog.ts).
  const names = [...effectiveRegistries(state, ctx.defaults).map((e) => e.name), 'npm'];
  const parsed: InstallSpec[] = specs.map((spec) => parseInstallSpec(spec, names));
  const notes: string[] = [];
  const registrySpecs = parsed.filter((p): p is RegistrySpec => p.kind === 'registry');
  // docs/reference/rules/policy.md#a16: a spec naming its registry is refused before that
  // registry is asked for its index.
  for (const spec of registrySpecs) requireSpecAllowed(ctx, state, spec);
  const picked =
    registrySpecs.length === 0
      ? new Map<RegistrySpec, InstallSource>()
      : await pickAll(ctx, registrySpecs, state, {
          includePrerelease: opts.includePrerelease,
          ...(opts.acceptIntegrityChange === true ? { acceptIntegrityChange: true } : {}),
          releaseAge: releaseAgeOf(ctx),
          notes,
          refresh: opts.refresh === true,
        });
  const sources: InstallSource[] = [];
  for (const spec of parsed) {
    if (spec.kind === 'registry') sources.push(picked.get(spec) as InstallSource);
    else if (spec.kind === 'npm') sources.push(npmSource(spec, opts.includePrerelease));
    else sources.push(await resolveLocalSource(spec, opts.cwd));
  }
  // docs/reference/rules/policy.md: refused before anything is downloaded (and again at commit).
  for (const source of sources) requireSourceAllowed(ctx, state, source);
  return { sources, state, notes };
}

/**
 * Picks every registry spec from the indexes under the cache policy of load-index (a fresh cached
 * copy is used as it is, so a warm install needs no network). When a spec does not resolve (an
 * unknown name, version or tag) and some index came from the cache, the indexes are revalidated
 * (N4: a conditional request; a `file:` index is re-read) and every spec is picked again, so a
 * version published a minute ago is found. Without the network (D5) nothing is revalidated.
 */
async function pickAll(
  ctx: OperationContext,
  specs: readonly RegistrySpec[],
  state: State,
  opts: PickOptions & { refresh?: boolean },
): Promise<Map<RegistrySpec, InstallSource>> {
  const named = new Set(specs.map((s) => s.registry));
  const only = named.has(undefined) ? undefined : (name: string) => named.has(name);
  const plugins = specs.map((s) => s.name);
  const load = (refresh: boolean) =>
    loadCatalogs(ctx, { refresh, plugins, ...(only ? { only } : {}) });
  let loaded = await load(opts.refresh === true);
  const attempt = (): Map<RegistrySpec, InstallSource> => {
    const notes: string[] = [];
    const result = new Map(
      specs.map((spec) => [
        spec,
        resolveCatalogSource(spec, loaded, opts.includePrerelease) ??
          pickRegistrySource(spec, loaded, state, { ...opts, notes }),
      ]),
    );
    opts.notes.push(...notes);
    return result;
  };
  try {
    return withCacheNote(loaded, opts, attempt());
  } catch (error) {
    if (!networkAllowed(ctx)) throw error;
    const stale = loaded.catalogs.some((c) => c.origin === 'cache');
    const retry =
      isHookpmError(error) &&
      (RETRY_CODES.has(error.code) || error.details['excludedEntry'] === true);
    if (!stale || !retry) throw error;
  }
  loaded = await load(true);
  return withCacheNote(loaded, opts, attempt());
}

const RETRY_CODES: ReadonlySet<string> = new Set(['E_NOT_FOUND', 'E_NO_MATCHING_VERSION']);

function withCacheNote<T>(loaded: LoadedCatalogs<Catalog>, opts: PickOptions, value: T): T {
  if (loaded.cacheOnly.length > 0) opts.notes.unshift(cachedIndexesNote(loaded.cacheOnly));
  return value;
}
