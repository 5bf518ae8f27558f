import { collectGarbage } from '../store/collect.js';
import { removeDataDir } from '../store/data-dir.js';
import { readState, withStoreLock, writeState } from '../store/state.js';
import { findInstalled } from './installed-plugin.js';
import { lockOptions, type PluginContext } from './plugin-context.js';

export interface UninstallResult {
  uninstalled: Array<{ id: string; version: string; keptData: boolean }>;
}

/**
 * `hookpm uninstall <name...> [--keep-data]`: every name must be installed (else nothing changes);
 * the state is written first, then the trees are collected (D4) and, without keepData, the data
 * directories deleted (V3).
 */
export function uninstallPlugins(
  ctx: PluginContext,
  opts: { names: readonly string[]; keepData: boolean },
): Promise<UninstallResult> {
  return withStoreLock(
    ctx.paths,
    async () => {
      const state = await readState(ctx.paths);
      const records = opts.names.map((name) => findInstalled(state, name));
      for (const record of records) delete state.plugins[record.id];
      await writeState(ctx.paths, state);
      await collectGarbage(ctx.paths, state);
      if (!opts.keepData) for (const record of records) await removeDataDir(ctx.paths, record.id);
      const unique = [...new Map(records.map((r) => [r.id, r])).values()];
      return {
        uninstalled: unique.map((r) => ({ id: r.id, version: r.version, keptData: opts.keepData })),
      };
    },
    lockOptions(ctx),
  );
}
