import { isHookpmError } from '../../../errors.js';
import { readStateFast } from '../../../store/state/read-state-fast.js';
import type { State } from '../../../store/state/state-schema.js';
import { effectiveRegistries, type RegistryEntry } from './defaults.js';
import { loadCatalog, loadCatalogSummary } from './catalog.js';
import type { Catalog, CatalogOptions, CatalogSummary } from './catalog-types.js';
import type { OperationContext } from '../context/operation-context.js';
import { networkAllowed } from '../context/network.js';

/** A registry that could not be read; the others are still used. */
export interface RegistryWarning {
  registry: string;
  code: string;
  message: string;
  hint: string | null;
}

export interface LoadedCatalogs<C> {
  state: State;
  entries: RegistryEntry[];
  catalogs: C[];
  warnings: RegistryWarning[];
  /** Registries whose index came from the cache only, because the network is off (D5). */
  cacheOnly: string[];
}

export interface LoadCatalogsOptions {
  /** Only these registries (by name); default all in effect. */
  only?: (name: string) => boolean;
  /** Revalidate (re-read) every index now (N4); ignored without network, which uses the cache. */
  refresh?: boolean;
  /** The plugins looked up: a sparse registry fetches only their documents (registry.md N11). */
  plugins?: readonly string[];
}

/** The whole indexes of the registries in effect; see loadEach. */
export function loadCatalogs(
  ctx: OperationContext,
  opts: LoadCatalogsOptions = {},
): Promise<LoadedCatalogs<Catalog>> {
  return loadEach(ctx, opts, loadCatalog);
}

/** The search projections of the registries in effect; see loadEach. */
export function loadSummaries(
  ctx: OperationContext,
  opts: LoadCatalogsOptions = {},
): Promise<LoadedCatalogs<CatalogSummary>> {
  return loadEach(ctx, opts, loadCatalogSummary);
}

/**
 * Loads every registry in effect concurrently, under the cache policy of load-index. A registry
 * that fails with a HookpmError becomes a warning and the others are still used; one served from
 * a stale cached copy (unreachable) is used with a warning; other errors propagate. Read-only:
 * the state is read without the lock.
 */
async function loadEach<C extends CatalogSummary>(
  ctx: OperationContext,
  opts: LoadCatalogsOptions,
  load: (entry: RegistryEntry, ctx: OperationContext, o: CatalogOptions) => Promise<C>,
): Promise<LoadedCatalogs<C>> {
  const state = await readStateFast(ctx.paths);
  const only = opts.only;
  const entries = effectiveRegistries(state, ctx.defaults).filter(
    (e) => only === undefined || only(e.name),
  );
  const refresh = opts.refresh === true && networkAllowed(ctx);
  const plugins = opts.plugins === undefined ? {} : { plugins: opts.plugins };
  const settled = await Promise.allSettled(
    entries.map((e) => load(e, ctx, { refresh, ...plugins })),
  );
  const catalogs: C[] = [];
  const warnings: RegistryWarning[] = [];
  settled.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') {
      catalogs.push(outcome.value);
      const stale = outcome.value.stale;
      if (stale !== null) warnings.push(staleWarning(outcome.value, stale));
      return;
    }
    const error: unknown = outcome.reason;
    if (!isHookpmError(error)) throw error;
    warnings.push({
      registry: entries[i]?.name ?? '',
      code: error.code,
      message: error.message,
      hint: error.hint ?? null,
    });
  });
  const cacheOnly = catalogs.filter((c) => c.cacheOnly).map((c) => c.registry);
  return { state, entries, catalogs, warnings, cacheOnly };
}

/**
 * The warning of a stale catalog: a cached copy used for one that could not be read, or, with a
 * hint of its own (sparse-catalog.ts: a search without the network that left out pages), its own
 * words and fix.
 */
function staleWarning(
  catalog: CatalogSummary,
  stale: { code: string; message: string; hint?: string },
): RegistryWarning {
  const cached = stale.hint === undefined;
  return {
    registry: catalog.registry,
    code: stale.code,
    message: cached
      ? `${stale.message} Using the cached index from ${catalog.fetchedAt}.`
      : stale.message,
    hint:
      stale.hint ??
      `Run \`hookpm registry update ${catalog.registry}\` when the registry can be reached.`,
  };
}
