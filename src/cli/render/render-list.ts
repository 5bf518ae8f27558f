import type { ListedPlugin } from '../../ops/plugins/list.js';
import { printJson, printLine, renderTable } from './render.js';

/**
 * `hookpm list` output: the JSON document of docs/reference/rules/cli.md#json-shapes (every field, whatever `long`), or a
 * table; `long` (`--long`) adds the source, integrity, and install and update times.
 */
export function printPluginList(
  result: { plugins: ListedPlugin[] },
  opts: { json: boolean; long: boolean },
): void {
  if (opts.json) return printJson(result);
  if (result.plugins.length === 0) return printLine('no plugins installed');
  const headers = ['ID', 'VERSION', 'STATE', 'PENDING', 'EVENTS'];
  if (opts.long) headers.push('SOURCE', 'INTEGRITY', 'INSTALLED', 'UPDATED');
  const rows = result.plugins.map((p) => {
    const row = [
      p.id,
      p.version,
      p.active ? 'enabled' : p.enabled ? 'enabled (no consent)' : 'disabled',
      p.pending === null ? '' : `update ${p.pending} waits`,
      p.events.join(', '),
    ];
    if (opts.long) row.push(p.source, p.integrity, p.installedAt, p.updatedAt);
    return row;
  });
  printLine(renderTable(headers, rows));
}
