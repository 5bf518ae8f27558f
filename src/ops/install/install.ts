import { assertStoreWritable } from '../../store/check-writable.js';
import type { OperationContext } from '../steps/context/operation-context.js';
import { resolveInstallSources } from '../steps/staging/resolve.js';
import type { InstallOptions } from '../steps/transaction/options.js';
import type { InstallResult } from '../steps/transaction/record.js';
import { bringInRequired } from '../steps/transaction/bring-in-required.js';
import { installResultOf, stageAndCommit } from '../steps/transaction/transaction.js';

/**
 * `hookpm install <spec...>` as the transaction of
 * docs/reference/rules/registry.md#install-transaction: a read-only store fails first
 * (E_STORE_READONLY, before any network access), then every spec is resolved
 * (steps/staging/resolve.ts) and the transaction runs for the user's records
 * (steps/transaction/transaction.ts). With `dryRun`, the plan instead (plan.ts).
 */
export async function installPlugins(
  ctx: OperationContext,
  opts: InstallOptions,
): Promise<InstallResult> {
  if (!opts.dryRun) await assertStoreWritable(ctx.paths);
  const resolved = await resolveInstallSources(ctx, opts.specs, {
    cwd: opts.cwd,
    includePrerelease: opts.includePrerelease === true,
    acceptIntegrityChange: opts.acceptIntegrityChange === true,
  });
  const result = opts.dryRun
    ? await (
        await import('../steps/transaction/plan.js')
      ).planInstall(ctx, resolved.sources, { ...opts, state: resolved.state })
    : installResultOf(
        await stageAndCommit(ctx, resolved.sources, { kind: 'user' }, opts, resolved.notes),
      );
  result.notes.unshift(...resolved.notes);
  // policy.md A21: every install run makes sure the policy's required plugins are present.
  const required = await bringInRequired(ctx, { cwd: opts.cwd, dryRun: opts.dryRun });
  return {
    ...result,
    installed: [...result.installed, ...required.installed],
    notes: [...result.notes, ...required.notes],
  };
}
