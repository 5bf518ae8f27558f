import type { ListedPlugin, ListedProject } from '../../ops/plugins/list.js';
import { restoreAdvice } from '../../store/reinstall-command.js';
import { writeText } from '../stdio.js';
import { escapeControl, printLine, renderTable } from './render.js';
import { listJsonText } from './list-json.js';

/**
 * `hookpm list` output: the JSON document of docs/reference/rules/cli.md#json-shapes (every field,
 * whatever `long`; the user-wide plugins: `list --project --json` is the project's), or a table;
 * `long` (`--long`) adds the source, integrity, the install and update times and when its tree was
 * last checked (registry.md S32). The text output adds,
 * inside a project, the plugins installed for it, and under each table the command that restores a
 * tampered plugin.
 */
export function printPluginList(
  result: { plugins: ListedPlugin[]; project: ListedProject | null },
  opts: { json: boolean; long: boolean; verify?: boolean },
): void {
  if (opts.json) return writeText(1, listJsonText(result.plugins));
  if (result.plugins.length === 0 && result.project === null)
    return printLine('no plugins installed');
  if (result.plugins.length > 0) printTable(result.plugins, opts.long, null);
  if (result.project !== null) {
    if (result.plugins.length > 0) printLine();
    printLine(escapeControl(`project ${result.project.root}:`));
    printTable(result.project.plugins, opts.long, result.project.root);
  }
  // registry.md S32: say what `tampered` stands on.
  if (opts.verify !== true)
    printLine('tamper status as last checked; `hookpm list --verify` checks every plugin now');
}

/** `project`: the root of the project whose plugins these are (null: the user-wide ones). */
function printTable(plugins: readonly ListedPlugin[], long: boolean, project: string | null): void {
  const headers = ['ID', 'VERSION', 'STATE', 'PENDING', 'EVENTS'];
  if (long) headers.push('SOURCE', 'INTEGRITY', 'INSTALLED', 'UPDATED', 'CHECKED');
  const rows = plugins.map((p) => {
    const row = [
      p.id,
      p.version,
      stateOf(p),
      p.pending === null ? '' : `update ${p.pending} waits`,
    ];
    row.push(p.events.join(', '));
    if (long) row.push(p.source, p.integrity, p.installedAt, p.updatedAt, p.checkedAt);
    return row;
  });
  // ID, VERSION and STATE are never cut; the events are.
  printLine(renderTable(headers, rows, { whole: [0, 1, 2] }));
  for (const p of plugins.filter((p) => p.tampered))
    printLine(
      escapeControl(
        `${p.id}: its installed files changed, so its hooks do not run; ${restoreAdvice(p, project)}`,
      ),
    );
}

function stateOf(p: ListedPlugin): string {
  if (p.tampered) return 'tampered';
  return p.active ? 'enabled' : p.enabled ? 'enabled (no consent)' : 'disabled';
}
