import { HookpmError } from '../../errors.js';
import { LOCAL_REGISTRY } from '../../registry/registry-name.js';
import type { Capabilities } from '../../plugin/capabilities.js';
import { collectGarbage } from '../../store/collect.js';
import { ensureDataDir } from '../../store/data-dir.js';
import { treeStatusOf } from '../../store/tree-status.js';
import { readState, withStoreLock, writeState } from '../../store/state/state.js';
import type { PluginRecord } from '../../store/state/state-schema.js';
import { findInstalled } from '../steps/installed/installed.js';
import { lockOptions, nowIso, type OperationContext } from '../steps/context/operation-context.js';
import { installedRegistryOf, requirePluginAllowed } from '../steps/policy/enforce-policy.js';
import { keptFrom, keptOptOuts } from '../steps/transaction/record.js';
import { policyOf } from '../steps/policy/policy-of.js';
import { requireSandboxed } from '../steps/policy/sandbox-allowed.js';
import { requiresSandbox } from '../../policy/sandbox-require.js';
import { inspectPluginDir } from '../steps/staging/inspect.js';
import { shellWord } from '../../text/shell-word.js';

export interface RollbackResult {
  id: string;
  /** The version active before the rollback (its tree is collected). */
  from: string;
  /** The version active now: the one consented before the last update. */
  to: string;
  enabled: boolean;
}

/**
 * `hookpm rollback <plugin>` (docs/reference/commands.md#rollback): the version that was active
 * before the last update becomes the active one again, from its tree in the store (no network:
 * `--offline` changes nothing), with the consent record it had then, holding the confinement the
 * user recorded last (Z4: `enable --confine` stays across versions) and the hooks the user turned
 * off in either version that are hooks of it; the version rolled back from, and any update
 * waiting for consent, are dropped and their trees collected. The range stays, so `hookpm update`
 * moves forward again. E_NOT_FOUND when no earlier version is kept (never
 * updated, or rolled back already); E_PLUGIN_TAMPERED when its tree changed or is a symbolic link
 * (Q6); E_POLICY when the policy refuses the plugin (docs/reference/rules/policy.md#a13), or
 * requires confined plugins and the version rolled back to, enabled, is not confined (A18).
 * Nothing changes on failure.
 */
export function rollbackPlugin(
  ctx: OperationContext,
  opts: { name: string },
): Promise<RollbackResult> {
  return withStoreLock(
    ctx.paths,
    async () => {
      const state = await readState(ctx.paths);
      const record = findInstalled(state, opts.name);
      const previous = record.previous;
      if (previous === undefined)
        throw new HookpmError(
          'E_NOT_FOUND',
          `${record.id} has no earlier version to roll back to: it was not updated since it was installed, or was rolled back already`,
          {
            plugin: record.id,
            hint: anotherVersion(record),
          },
        );
      // A12: the version rolled back to is judged by where it was installed from.
      const from = { registry: record.registry, registryLocation: previous.registryLocation };
      requirePluginAllowed(ctx, 'rolling back', record, installedRegistryOf(ctx, state, from));
      const status = await treeStatusOf(ctx.paths, { ...previous, name: record.name });
      if (status.status !== 'match' && status.status !== 'created')
        throw new HookpmError(
          'E_PLUGIN_TAMPERED',
          status.status === 'changed' && status.linked === true
            ? `the kept tree of ${record.id} ${previous.version} at ${previous.path} is a symbolic link (or is in one), not the tree hookpm installed, so it cannot be rolled back to`
            : `the kept tree of ${record.id} ${previous.version} at ${previous.path} no longer matches its fingerprint, so it cannot be rolled back to`,
          {
            plugin: record.id,
            hint: `Install that version again with \`hookpm install ${record.id}@${previous.version} --force\`.`,
          },
        );
      const kept = await inspectPluginDir(previous.path, {
        fallbackName: record.name,
        registry: record.registry,
      });
      // policy.md#a18: the version rolled back to stays enabled, so it must be confined as one
      // `enable` enables: it declares capabilities, or the user's `--confine` (kept) confines it.
      if (record.enabled && requiresSandbox(policyOf(ctx)))
        requireSandboxed(ctx, 'rolling back', record.id, {
          capabilities: kept.surface.capabilities,
          confine: record.consent?.confine,
        });
      const {
        previous: _gone,
        pending: _dropped,
        registryLocation: _now,
        disabledHooks: _off,
        ...rest
      } = record;
      // The hooks turned off in either version stay off where they are hooks of the one rolled
      // back to (an update drops the opt-outs naming no hook of it, rollback brings them back).
      const off = keptOptOuts(
        [...new Set([...(previous.disabledHooks ?? []), ...(record.disabledHooks ?? [])])].sort(),
        kept.surface.entries,
      );
      const next: PluginRecord = {
        ...rest,
        ...keptFrom(previous),
        version: previous.version,
        path: previous.path,
        integrity: previous.integrity,
        fingerprint: previous.fingerprint,
        surfaceHash: previous.surfaceHash,
        events: [...previous.events],
        source: previous.source,
        consent: consentOf(previous.consent, record.consent?.confine),
        pending: null,
        updatedAt: nowIso(ctx),
        ...(off === undefined ? {} : { disabledHooks: off }),
      };
      state.plugins[record.id] = next;
      await writeState(ctx.paths, state);
      if (next.enabled) await ensureDataDir(ctx.paths, record.id);
      await collectGarbage(ctx.paths, state);
      return { id: record.id, from: record.version, to: next.version, enabled: next.enabled };
    },
    lockOptions(ctx),
  );
}

/**
 * The consent record of the version rolled back to, with the user's current `enable --confine`
 * (security.md Z4): confinement is lifted only by `--confine off`, which asks, never by a rollback.
 */
function consentOf(
  consent: NonNullable<PluginRecord['previous']>['consent'],
  confine: Capabilities | undefined,
): NonNullable<PluginRecord['consent']> {
  const { confine: _then, ...rest } = consent;
  return confine === undefined ? rest : { ...rest, confine };
}

/**
 * How to run another version of `record` than the installed one: a registry plugin by its spec, an
 * npm one by its package; a plugin installed from a directory or archive (`local`) from there
 * again; a linked directory (plugins.md D15) as it is edited, with nothing to install.
 */
function anotherVersion(record: PluginRecord): string {
  if (record.linked === true)
    return `${record.id} is linked to ${record.source}, which runs as its directory is edited: change it there.`;
  if (record.registry === 'npm')
    return `\`hookpm install ${record.source.replace(/@[^@]*$/, '')}@<version>\` installs another version of its package.`;
  if (record.registry === LOCAL_REGISTRY)
    return `Install another version from its directory or archive: \`hookpm install ${shellWord(record.source)}\` installs what is there now.`;
  return `\`hookpm info ${record.id}\` shows its version; \`hookpm install ${record.id}@<version>\` installs another one.`;
}
