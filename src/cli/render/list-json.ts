import type { ListedPlugin } from '../../ops/plugins/listed-plugin.js';
import type { ListShape } from '../../ops/plugins/list-document.js';
import { JSON_SCHEMA_VERSION, jsonText } from './render.js';

/**
 * The `list --json` document (docs/reference/rules/cli.md#json-shapes) as jsonText writes
 * `{schemaVersion, plugins}`, taken apart so that a row can be made, and kept, alone (registry.md
 * S33): each row is its plugin's jsonText, indented to its depth in the array.
 */
export const LIST_JSON_SHAPE: ListShape = {
  empty: `${jsonText({ schemaVersion: JSON_SCHEMA_VERSION, plugins: [] })}\n`,
  head: `{\n  "schemaVersion": ${JSON_SCHEMA_VERSION},\n  "plugins": [\n    `,
  separator: ',\n    ',
  tail: '\n  ]\n}\n',
  row: (plugin) => jsonText(plugin).replaceAll('\n', '\n    '),
};

/** The whole `list --json` document, as printed. */
export function listJsonText(plugins: readonly ListedPlugin[]): string {
  const shape = LIST_JSON_SHAPE;
  if (plugins.length === 0) return shape.empty;
  return `${shape.head}${plugins.map(shape.row).join(shape.separator)}${shape.tail}`;
}
