import { PLUGIN_NAME_PATTERN } from '../plugin/name.js';

const NAME = PLUGIN_NAME_PATTERN.source.slice(1, -1);
const PLUGIN_ID = new RegExp(`^(${NAME})@(${NAME})$`);

/** A plugin id `name@registry` (P3 names both), split; null for anything else. */
export function splitPluginId(id: string): { name: string; registry: string } | null {
  const match = PLUGIN_ID.exec(id);
  return match === null ? null : { name: match[1]!, registry: match[2]! };
}

/** P3 and docs/reference/rules/registry.md#registry-kinds: a registry name has a plugin name's shape. */
export function isRegistryName(name: string): boolean {
  return PLUGIN_NAME_PATTERN.test(name);
}
