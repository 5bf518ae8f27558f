import type { ListedPlugin } from '../../ops/plugins/list.js';
import { printJson, printLine, renderTable } from './render.js';

/** `hookpm list` output: the JSON document of cli.md section 3, or a table. */
export function printPluginList(result: { plugins: ListedPlugin[] }, json: boolean): void {
  if (json) return printJson(result);
  if (result.plugins.length === 0) return printLine('no plugins installed');
  const rows = result.plugins.map((p) => [
    p.id,
    p.version,
    p.active ? 'enabled' : p.enabled ? 'enabled (no consent)' : 'disabled',
    p.pending === null ? '' : `update ${p.pending} waits`,
    p.events.join(', '),
  ]);
  printLine(renderTable(['ID', 'VERSION', 'STATE', 'PENDING', 'EVENTS'], rows));
}
