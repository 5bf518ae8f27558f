import type { HookListing } from '../../ops/run/list-hooks.js';
import { formatDiagnostic, renderTable } from './render.js';

/** The handler table of `hookpm hooks` (cli.md section 3), or `no hooks`. */
export function formatHookTable(listing: HookListing): string {
  const rows = listing.handlers.map((h) => [
    h.id,
    h.plugin === null ? h.origin : `plugin ${h.plugin}`,
    h.matcher ?? '*',
    h.if ?? '',
    `${h.timeout}s`,
    h.argv === null ? h.command : JSON.stringify(h.argv),
  ]);
  return rows.length === 0
    ? 'no hooks'
    : renderTable(['ID', 'ORIGIN', 'MATCHER', 'IF', 'TIMEOUT', 'COMMAND'], rows);
}

/** `/hooks` at the session prompt: the table of `hookpm hooks`, then the snapshot id and diagnostics. */
export function formatHookListing(listing: HookListing): string {
  const lines = [formatHookTable(listing), `snapshot ${listing.snapshotId}`];
  for (const d of listing.diagnostics) lines.push(formatDiagnostic(d));
  return lines.join('\n');
}
