import { collectGarbage, collectMarkedData } from '../../store/collect.js';
import { markTransaction } from '../../store/collect-marker.js';
import { removeDataDir } from '../../store/data-dir.js';
import { pluginDataDir } from '../../store/plugin-dirs.js';
import { dataUsers, describeDataUser } from '../../store/state/data-users.js';
import { readState, withStoreLock, writeState } from '../../store/state/state.js';
import type { State } from '../../store/state/state-schema.js';
import { findInstalled } from '../steps/installed/installed.js';
import { LOCAL_REGISTRY } from '../../registry/registry-name.js';
import { rememberIntegrity } from '../../store/state/known-integrity.js';
import { requireNotRequired } from '../steps/policy/enforce-policy.js';
import { lockOptions, type OperationContext } from '../steps/context/operation-context.js';

export interface UninstallResult {
  uninstalled: Array<{
    id: string;
    version: string;
    /** `--keep-data`, or a project still uses the id (`keptFor`). */
    keptData: boolean;
    /** The installed trees removed (the active one and a pending update's). */
    trees: string[];
    /** The data directory removed, null when kept (V3). */
    dataDir: string | null;
    /**
     * Who still uses the data directory, so it is kept (docs/guides/projects.md: the projects whose
     * records name the id, as "the project <root>"); empty when nothing else does.
     */
    keptFor: string[];
  }>;
  /** `--dry-run`: nothing was changed. */
  dryRun: boolean;
}

/**
 * `hookpm uninstall <name...> [--keep-data] [--dry-run]`: every name must be installed (else
 * nothing changes); with `dryRun` the plan (trees and data directories to remove) is returned and
 * nothing changes; the state is written first, then the trees are collected (D4) and, without
 * keepData, the data directories deleted (V3), except one a project still names the id for (the
 * data directory is one per id, shared by the user-wide plugin and the projects:
 * docs/guides/projects.md). A transaction's mark listing those data directories is written before
 * the state and removed last (collect-marker.ts), so a kill in between leaves them to the next
 * collection. The integrity of a registry plugin's versions stays in the state
 * (knownIntegrity, registry.md V3), so a reinstall of the same version with other bytes is refused.
 */
export function uninstallPlugins(
  ctx: OperationContext,
  opts: { names: readonly string[]; keepData: boolean; dryRun?: boolean },
): Promise<UninstallResult> {
  return withStoreLock(
    ctx.paths,
    async () => {
      const state = await readState(ctx.paths);
      const records = opts.names.map((name) => findInstalled(state, name));
      // docs/reference/rules/policy.md#a14: nothing is removed when one is required.
      for (const record of records) requireNotRequired(ctx, 'uninstalling', record);
      const unique = [...new Map(records.map((r) => [r.id, r])).values()];
      const after: State = { ...state, plugins: { ...state.plugins } };
      for (const record of unique) delete after.plugins[record.id];
      const result: UninstallResult = {
        uninstalled: unique.map((r) => {
          const keptFor = dataUsers(after, r.id).map(describeDataUser);
          const keptData = opts.keepData || keptFor.length > 0;
          return {
            id: r.id,
            version: r.version,
            keptData,
            trees: r.pending === null ? [r.path] : [r.path, r.pending.path],
            dataDir: keptData ? null : pluginDataDir(ctx.paths, r.id),
            keptFor,
          };
        }),
        dryRun: opts.dryRun === true,
      };
      if (opts.dryRun === true) return result;
      // V3: the data a killed uninstall listed is settled against the state before this one's.
      await collectMarkedData(ctx.paths, state);
      for (const record of records) {
        // V3: the integrity outlives the plugin (a state written before knownIntegrity lacks it).
        if (record.registry !== LOCAL_REGISTRY) {
          rememberIntegrity(state, record.id, record.version, record.integrity);
          const { pending } = record;
          if (pending !== null)
            rememberIntegrity(state, record.id, pending.version, pending.integrity);
        }
        delete state.plugins[record.id];
      }
      // registry.md S41: a kill from here on leaves the mark, listing the data directories to go.
      const removing = result.uninstalled.filter((entry) => entry.dataDir !== null);
      const unmark = await markTransaction(
        ctx.paths,
        removing.map((entry) => entry.id),
      );
      try {
        await writeState(ctx.paths, state);
      } catch (error) {
        // The state is as it was: a mark left would have the next collection delete the data
        // directories of plugins still installed once a later uninstall keeps their data.
        unmark();
        throw error;
      }
      await collectGarbage(ctx.paths, state);
      for (const entry of removing) await removeDataDir(ctx.paths, entry.id);
      unmark();
      return result;
    },
    lockOptions(ctx),
  );
}
