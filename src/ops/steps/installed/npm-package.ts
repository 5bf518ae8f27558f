import type { PluginRecord } from '../../../store/state/state-schema.js';

/**
 * The npm package a plugin was installed from (its source `npm:<package>@<version>`), or null for
 * a plugin of another registry. The manifest may name the plugin otherwise (registry.md, kind npm).
 */
export function npmPackageOf(record: Pick<PluginRecord, 'registry' | 'source'>): string | null {
  if (record.registry !== 'npm' || !record.source.startsWith('npm:')) return null;
  const at = record.source.lastIndexOf('@');
  return at > 'npm:'.length + 1 ? record.source.slice('npm:'.length, at) : null;
}
