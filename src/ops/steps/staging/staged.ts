import { HookpmError } from '../../../errors.js';
import { syncTree } from '../../../io/sync-tree.js';
import { toStoreError } from '../../../io/fs-error.js';
import { fingerprintOf, listTree, type TreeEntry } from '../../../store/fingerprint.js';
import { assertInstallable, inspectPluginDir, type InspectedPlugin } from './inspect.js';
import type { InstallSource, RegistrySource, StagedPlugin } from './types.js';

/**
 * Step 4 for every kind of source: validates the tree in `dir` (the caller removes it on failure)
 * and fingerprints it: from `files`, the entries of the files an extraction just wrote there, else
 * by reading the tree (the entries are kept for the review's file list). Meanwhile the tree is flushed to disk (D4: promoteTree names only a tree
 * that is complete on disk, so after a power loss the state never names a tree whose files are
 * empty); a validation error wins over a flush error.
 */
export async function finishStage(
  source: InstallSource,
  dir: string,
  integrity: string | null,
  files?: readonly TreeEntry[],
): Promise<StagedPlugin> {
  const flushing = syncTree(dir).catch((error: unknown) => {
    throw toStoreError(error, dir, 'flush the staged tree');
  });
  flushing.catch(() => undefined);
  const inspected = await inspectPluginDir(dir, {
    fallbackName: source.fallbackName,
    registry: source.registry,
  });
  // A directory, and a marketplace plugin (its entry names it), need no manifest (P1).
  if (source.kind !== 'directory' && source.kind !== 'marketplace')
    requireManifest(inspected, source.spec);
  assertInstallable(inspected, source.spec);
  if (source.kind === 'registry') checkAgainstIndex(inspected, source);
  const entries = files ?? (await listTree(dir));
  const fingerprint = fingerprintOf(entries);
  await flushing;
  return {
    source,
    dir,
    inspected,
    fingerprint,
    integrity: integrity ?? fingerprint,
    files: entries,
  };
}

/** P1: a tarball (registry, file, URL or npm) must hold a manifest; E_MANIFEST_INVALID otherwise. */
export function requireManifest(inspected: InspectedPlugin, spec: string): void {
  if (inspected.plugin.manifestFile !== null) return;
  throw new HookpmError(
    'E_MANIFEST_INVALID',
    `cannot install ${spec}: the tarball's package/ holds no manifest (plugin.json or .claude-plugin/plugin.json)`,
    {
      spec,
      hint: 'A published plugin needs a manifest with its name and version; `hookpm pack` makes such a tarball.',
    },
  );
}

/**
 * I3 and step 4 of docs/reference/rules/registry.md#install-transaction: the downloaded plugin must
 * be the one the index described: the manifest's name and version equal the resolved ones, and the
 * events and surfaceHash recomputed from its files equal the index entry's (when the entry has
 * them). E_MANIFEST_MISMATCH otherwise.
 */
export function checkAgainstIndex(inspected: InspectedPlugin, source: RegistrySource): void {
  const { plugin, surface } = inspected;
  const where = `${source.name}@${source.registry} ${source.version}`;
  const mismatch = (field: string, expected: unknown, found: unknown): HookpmError =>
    new HookpmError(
      'E_MANIFEST_MISMATCH',
      `${where}: the tarball's ${field} is ${JSON.stringify(found)}, but the index says ${JSON.stringify(expected)}`,
      {
        plugin: `${source.name}@${source.registry}`,
        version: source.version,
        field,
        expected,
        found,
        url: source.url,
        hint: 'The registry index does not describe this tarball; nothing was installed. Ask the registry owner to rebuild the index.',
      },
    );
  if (plugin.name !== source.name) throw mismatch('manifest name', source.name, plugin.name);
  if (plugin.version !== source.version)
    throw mismatch('manifest version', source.version, plugin.version);
  if (source.events !== undefined && !sameList(source.events, surface.events))
    throw mismatch('events', source.events, surface.events);
  if (source.surfaceHash !== undefined && source.surfaceHash !== surface.surfaceHash)
    throw mismatch('surfaceHash', source.surfaceHash, surface.surfaceHash);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
