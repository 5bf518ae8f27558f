import type { State } from '../../../store/state/state-schema.js';
import { effectiveRegistries } from '../catalogs/defaults.js';
import type { OperationContext } from '../context/operation-context.js';
import {
  policyRegistryOf,
  requirePluginAllowed,
  requireRegistryAllowed,
} from './enforce-policy.js';

/** What of a resolved source (staging/types.ts InstallSource) the policy looks at. */
interface SourceSeen {
  kind: string;
  spec: string;
  registry: string;
  /** A registry source's plugin name. */
  name?: string;
  /** An npm source's registry of kind `npm`, when the spec named one (staging/types.ts). */
  via?: string;
}

/** What of a staged plugin (staging/types.ts StagedPlugin) the policy looks at. */
interface StagedSeen {
  source: { registry: string; via?: string };
  inspected: { id: string };
}

/**
 * A12, A13 before a source is staged: its registry must be one the policy lets be used, and a
 * registry plugin, whose name is known already, must be allowed. E_POLICY otherwise. An npm
 * package fetched from a registry of kind `npm` the spec named (`<pkg>@<registry>`) comes from
 * that registry, which must be allowed too: its id's `npm` alone would let any npm registry in.
 */
export function requireSourceAllowed(
  ctx: OperationContext,
  state: State,
  source: SourceSeen,
): void {
  requireViaAllowed(ctx, state, source, `installing ${source.spec}`);
  const registry = policyRegistryOf(ctx, state, source.registry);
  if (source.kind === 'registry' && source.name !== undefined)
    requirePluginAllowed(
      ctx,
      'installing',
      { name: source.name, registry: source.registry },
      registry,
    );
  else
    requireRegistryAllowed(
      ctx,
      `installing ${source.spec} from registry ${source.registry}`,
      registry,
    );
}

/**
 * A12, A13, A16 before any index is read: a registry spec that names its registry
 * (`name@registry`) is refused when the policy refuses that registry, or the plugin of that name
 * in it. The name is a plugin's only in a registry of kind index or marketplace; in one of kind
 * npm it is a package's, judged once resolved (requireSourceAllowed). A registry not configured is
 * left to the resolution (E_NOT_FOUND).
 */
export function requireSpecAllowed(
  ctx: OperationContext,
  state: State,
  spec: { raw: string; name: string; registry?: string },
): void {
  if (spec.registry === undefined) return;
  const registry = policyRegistryOf(ctx, state, spec.registry);
  const kind = effectiveRegistries(state, ctx.defaults).find((e) => e.name === spec.registry)
    ?.record.kind;
  if (kind === 'npm' || spec.registry === 'npm')
    requireRegistryAllowed(ctx, `installing ${spec.raw} from registry ${spec.registry}`, registry);
  // A registry that is not there is the resolution's E_NOT_FOUND, not a refusal.
  else if (kind !== undefined)
    requirePluginAllowed(ctx, 'installing', { name: spec.name, registry: spec.registry }, registry);
}

/**
 * A12, A13 at the commit of the install transaction, before anything is promoted or written: each
 * staged plugin by its real id (a local directory's name is known only once it is read).
 */
export function requireStagedAllowed(
  ctx: OperationContext,
  state: State,
  staged: readonly StagedSeen[],
): void {
  for (const plugin of staged) {
    requireViaAllowed(ctx, state, plugin.source, `installing ${plugin.inspected.id}`);
    const registryName = plugin.source.registry;
    const name = plugin.inspected.id.slice(0, plugin.inspected.id.lastIndexOf('@'));
    const registry = policyRegistryOf(ctx, state, registryName);
    requirePluginAllowed(ctx, 'installing', { name, registry: registryName }, registry);
  }
}

/** A12: the registry of kind `npm` an npm source comes from, when it is not `npm` itself. */
function requireViaAllowed(
  ctx: OperationContext,
  state: State,
  source: { registry: string; via?: string },
  what: string,
): void {
  if (source.via === undefined || source.via === source.registry) return;
  requireRegistryAllowed(
    ctx,
    `${what} from registry ${source.via}`,
    policyRegistryOf(ctx, state, source.via),
  );
}
