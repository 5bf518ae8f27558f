import type { HookListing, ListedHandler } from '../../ops/run/list-hooks.js';
import { formatDiagnostic, renderTable } from './render.js';

/**
 * The handler table of `hookpm hooks` (docs/reference/rules/cli.md#json-shapes), or `no hooks`; a
 * KEY column (for `hookpm disable <plugin> --hook <key>`) when plugin handlers are listed. Fitted
 * to `width` (default: stdout's terminal, table.ts): the matcher and `if` are cut, ids, the origin,
 * key and timeout never are, nor a command; one that does not fit goes on its own line under its
 * row. COMMAND is what runs: the argv (a handler's `argv`, or `command` with `args`) as a JSON
 * array, else the shell command, after `(bash)` when `bash -c` runs it.
 */
export function formatHookTable(listing: HookListing, width?: number | null): string {
  const keyed = listing.handlers.some((h) => h.key !== null);
  const rows = listing.handlers.map((h) => [
    h.id,
    h.plugin === null ? h.origin : `plugin ${h.plugin}`,
    ...(keyed ? [h.key ?? ''] : []),
    h.matcher ?? '*',
    h.if ?? '',
    `${h.timeout}s`,
    execForm(h),
  ]);
  const headers = [
    'ID',
    'ORIGIN',
    ...(keyed ? ['KEY'] : []),
    'MATCHER',
    'IF',
    'TIMEOUT',
    'COMMAND',
  ];
  return rows.length === 0
    ? 'no hooks'
    : renderTable(headers, rows, {
        last: 'own-line',
        // ID, ORIGIN (the plugin id), KEY and TIMEOUT are never cut; MATCHER and IF are.
        whole: keyed ? [0, 1, 2, 5] : [0, 1, 4],
        ...(width === undefined ? {} : { width }),
      });
}

function execForm(h: ListedHandler): string {
  if (h.argv !== null) return JSON.stringify(h.argv);
  return h.shell === null ? h.command : `(${h.shell}) ${h.command}`;
}

/** `/hooks` at the session prompt: the table of `hookpm hooks`, then the snapshot id and diagnostics. */
export function formatHookListing(listing: HookListing): string {
  const lines = [formatHookTable(listing), `snapshot ${listing.snapshotId}`];
  for (const d of listing.diagnostics) lines.push(formatDiagnostic(d));
  return lines.join('\n');
}
