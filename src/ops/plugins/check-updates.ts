import { writeUpdatesWaiting, type UpdatesWaiting } from '../../store/updates-waiting.js';
import { nowIso, type OperationContext } from '../steps/context/operation-context.js';
import { listOutdated } from './outdated.js';

/**
 * `hookpm update --check` (docs/guides/installing-plugins.md#updates-announced-in-your-agent): the
 * registries are refreshed and the installed plugins with a newer version in their range are
 * recorded in the cache (store/updates-waiting.ts), for a linked agent's next SessionStart to
 * announce. Nothing is installed; no consent changes. `notes` are those of `outdated` (registries
 * that could not be read, plugins not checked), for the command to print: they are not recorded.
 */
export async function checkUpdates(
  ctx: OperationContext,
  cwd: string,
): Promise<{ found: UpdatesWaiting; notes: string[] }> {
  const report = await listOutdated(ctx, { project: false, cwd });
  const found: UpdatesWaiting = {
    checkedAt: nowIso(ctx),
    plugins: report.plugins.flatMap((p) =>
      p.outdated && p.inRange !== null
        ? [{ id: p.id, installed: p.installed, available: p.inRange }]
        : [],
    ),
  };
  await writeUpdatesWaiting(ctx.paths, found);
  return { found, notes: report.notes };
}
