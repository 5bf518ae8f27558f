/** A plugin document of the sparse layout (registry.md N7); apart, so a search never loads zod. */
import { isPlainObject } from '../../json/describe-value.js';
import { parseIndex, type IndexPlugin } from '../indexes/index-schema.js';
import { schemaError } from './sparse-format.js';

/**
 * N7: a plugin document, checked by the index schema (I1, the tarball and integrity rules) as if
 * it were the one plugin of an index; its `name` must be the name it was fetched for.
 */
export function parsePluginDocument(value: unknown, name: string, where: string): IndexPlugin {
  if (!isPlainObject(value)) throw schemaError(where, '', 'is not a JSON object');
  if (value['name'] !== name) throw schemaError(where, 'name', `is not ${JSON.stringify(name)}`);
  const { name: _name, ...plugin } = value;
  const index = parseIndex({ formatVersion: 1, plugins: { [name]: plugin } }, where);
  return index.plugins[name] as IndexPlugin;
}
