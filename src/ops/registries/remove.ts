import { HookpmError } from '../../errors.js';
import { suggestIn } from '../../text/did-you-mean.js';
import { removeCachedIndex } from '../../registry/indexes/cache-index.js';
import { removeSparseCache } from '../../registry/sparse/cache-sparse.js';
import { indexCacheDir } from '../../store/paths.js';
import { updateState } from '../../store/state/state.js';
import { builtinRegistries } from '../../store/builtin-registries.js';
import { lockOptions, type OperationContext } from '../steps/context/operation-context.js';
import { ownValue } from '../../json/own-value.js';
import { clip } from '../../text/clip.js';

export interface RemovedRegistry {
  name: string;
  /** Ids of installed plugins that came from it: they stay installed, but cannot be updated from it. */
  installed: string[];
}

/**
 * `hookpm registry remove <name>`: forgets the registry under the store lock, and its cached index.
 * A built-in registry stays removed (recorded in `removedDefaults`). E_NOT_FOUND for an unknown
 * name, with the state unchanged.
 */
export async function removeRegistry(
  ctx: OperationContext,
  name: string,
): Promise<RemovedRegistry> {
  const defaults = ctx.defaults ?? builtinRegistries();
  const installed = await updateState(
    ctx.paths,
    (draft) => {
      const removed = new Set(draft.removedDefaults ?? []);
      const isBuiltin = ownValue(defaults, name) !== undefined;
      const known =
        ownValue(draft.registries, name) !== undefined || (isBuiltin && !removed.has(name));
      if (!known) {
        const names = [
          ...Object.keys(draft.registries),
          ...Object.keys(defaults).filter((n) => !removed.has(n)),
        ];
        throw suggestIn(
          new HookpmError(
            'E_NOT_FOUND',
            `there is no registry named ${JSON.stringify(clip(name))}`,
            {
              registry: name,
              hint: 'Run `hookpm registry list` to see the registries.',
            },
          ),
          name,
          names,
        );
      }
      delete draft.registries[name];
      if (isBuiltin) draft.removedDefaults = [...removed.add(name)].sort();
      return Object.values(draft.plugins)
        .filter((plugin) => plugin.registry === name)
        .map((plugin) => plugin.id);
    },
    lockOptions(ctx),
  );
  await removeCachedIndex(indexCacheDir(ctx.paths), name);
  await removeSparseCache(indexCacheDir(ctx.paths), name);
  return { name, installed };
}
