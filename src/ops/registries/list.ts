import { HookpmError, isHookpmError } from '../../errors.js';
import { suggestIn } from '../../text/did-you-mean.js';
import type { IndexOrigin } from '../../registry/indexes/load-index.js';
import { showLocation } from '../../registry/registry-location.js';
import { readStateFast } from '../../store/state/read-state-fast.js';
import type { RegistryKind } from '../../store/state/state-schema.js';
import { effectiveRegistries, type RegistryEntry } from '../steps/catalogs/defaults.js';
import { loadCatalogSummary } from '../steps/catalogs/catalog.js';
import type { OperationContext } from '../steps/context/operation-context.js';
import { clip } from '../../text/clip.js';

/** One line of `hookpm registry list` / `registry update` (cli.md: name, location, kind, plugins). */
export interface RegistryStatus {
  name: string;
  /** Credentials redacted (N5). */
  location: string;
  kind: RegistryKind;
  /** Null when the index could not be loaded (see `error`). */
  plugins: number | null;
  builtin: boolean;
  origin: IndexOrigin | null;
  fetchedAt: string | null;
  /** True when the index came from the cache only, because the network is off (D5). */
  cacheOnly: boolean;
  /** Set when the registry could not be reached and a stale cached copy was counted. */
  stale: { code: string; message: string } | null;
  error: { code: string; message: string; hint: string | null } | null;
  /** A marketplace's entries left out of its catalog, with why (as `registry add` warns of them). */
  excluded: string[];
}

/** `hookpm registry list`: every registry in effect, with its plugin count (cache policy of load-index). */
export async function listRegistries(ctx: OperationContext): Promise<RegistryStatus[]> {
  const entries = effectiveRegistries(await readStateFast(ctx.paths), ctx.defaults);
  return Promise.all(entries.map((entry) => statusOf(entry, ctx, false)));
}

/**
 * `hookpm registry update [name]`: revalidates each index now (a conditional request for network
 * indexes). With a name, that registry's failure is thrown (E_NOT_FOUND for an unknown name);
 * without, every registry is tried and failures are reported in its line.
 */
export async function updateRegistries(
  ctx: OperationContext,
  name?: string,
): Promise<RegistryStatus[]> {
  const entries = effectiveRegistries(await readStateFast(ctx.paths), ctx.defaults);
  if (name === undefined) return Promise.all(entries.map((entry) => statusOf(entry, ctx, true)));
  const entry = entries.find((candidate) => candidate.name === name);
  if (entry === undefined) {
    throw suggestIn(
      new HookpmError('E_NOT_FOUND', `there is no registry named ${JSON.stringify(clip(name))}`, {
        registry: name,
        hint: 'Run `hookpm registry list` to see the registries.',
      }),
      name,
      entries.map((e) => e.name),
    );
  }
  const status = await statusOf(entry, ctx, true, true);
  return [status];
}

async function statusOf(
  entry: RegistryEntry,
  ctx: OperationContext,
  refresh: boolean,
  rethrow = false,
): Promise<RegistryStatus> {
  const base = {
    name: entry.name,
    location: showLocation(entry.record.location),
    kind: entry.record.kind,
    builtin: entry.builtin,
  };
  try {
    const catalog = await loadCatalogSummary(entry, ctx, { refresh, countOnly: true });
    return {
      ...base,
      plugins: catalog.pluginCount ?? catalog.summary.length,
      origin: catalog.origin,
      fetchedAt: catalog.fetchedAt,
      cacheOnly: catalog.cacheOnly,
      stale: catalog.stale,
      error: null,
      excluded: (catalog.excluded ?? []).map((e) => e.message),
    };
  } catch (error) {
    if (rethrow || !isHookpmError(error)) throw error;
    const problem = { code: error.code, message: error.message, hint: error.hint ?? null };
    return {
      ...base,
      plugins: null,
      origin: null,
      fetchedAt: null,
      cacheOnly: false,
      stale: null,
      error: problem,
      excluded: [],
    };
  }
}
