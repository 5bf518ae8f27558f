import type { PluginRecord } from '../../store/state/state-schema.js';
import { npmPackageOf } from '../steps/installed/npm-package.js';

/**
 * The command that updates an npm plugin (`update` does not yet, docs/guides/installing-plugins.md):
 * `hookpm install npm:<package>@<range>` with the range (or dist-tag) the record follows, so it
 * stays where `npm update` would, rather than jumping to whatever `latest` is. Quoted for a POSIX
 * shell when the spec holds anything but the characters of a plain range.
 */
export function npmReinstallCommand(
  record: Pick<PluginRecord, 'name' | 'registry' | 'source' | 'range'>,
): string {
  const pkg = `npm:${npmPackageOf(record) ?? record.name}`;
  const spec = record.range === '' ? pkg : `${pkg}@${record.range}`;
  const shown = /^[\w@/.:^~*+=<>-]+$/.test(spec) ? spec : `'${spec.replace(/'/g, `'\\''`)}'`;
  return `hookpm install ${shown}`;
}
