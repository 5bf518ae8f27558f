import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findCatalogFile } from '../../../registry/marketplace/read-catalog-file.js';
import { fileURLToPath } from 'node:url';
import { gitRepositoryKind } from '../../../registry/git/git-repository-kind.js';
import {
  locationError,
  parseProjectRegistryLocation,
} from '../../../project/project-registry-location.js';
import type { ProjectManifest } from '../../../project/project-manifest.js';
import type { RegistryRecord, State } from '../../../store/state/state-schema.js';
import { isInside } from '../../../text/path-inside.js';
import { landingOf, realRootOf } from '../../../workspace/inside-root.js';
import { builtinRegistries } from '../../../store/builtin-registries.js';
import type { InstallSource } from '../staging/types.js';

/** The registries of hookpm.json a command uses, checked: their locations, and which are on disk. */
export interface ProjectRegistries {
  /** Each registry name to the location to read (a checked URL, or an absolute path). */
  locations: Record<string, string>;
  /** The names of those on disk: their files must stay inside the project (J3). */
  onDisk: ReadonlySet<string>;
  /** The names of those on disk that are marketplace directories (J10), not index registries. */
  marketplaces?: ReadonlySet<string>;
}

/**
 * docs/reference/rules/registry.md#j3: the registries of hookpm.json this command would use (not
 * a built-in name, which a project never redefines, nor one the user configured, which takes
 * precedence), each checked before anything is read: its location's form
 * (project-registry-location.ts), and, for a registry on disk, that its directory and its
 * `index.json` lead inside the project once symlinks are resolved. E_REGISTRY_LOCATION otherwise;
 * the message names paths, never a file's content.
 */
export function checkProjectRegistries(
  root: string,
  manifest: ProjectManifest,
  state: State,
  defaults: Readonly<Record<string, RegistryRecord>> = builtinRegistries(),
): ProjectRegistries {
  const locations: Record<string, string> = {};
  const onDisk = new Set<string>();
  const marketplaces = new Set<string>();
  for (const [name, location] of Object.entries(manifest.registries)) {
    if (Object.hasOwn(defaults, name) || Object.hasOwn(state.registries, name)) continue;
    const checked = parseProjectRegistryLocation(name, location, root);
    if (checked.kind === 'git' && readInPlace(checked.url)) {
      // A `file:` URL naming no git repository is read in place (read-marketplace.ts), not cloned:
      // a directory on disk, held inside the project as any other.
      const dir = fileURLToPath(checked.url);
      for (const path of [dir, findCatalogFile(dir) ?? dir])
        assertInsideProject(root, path, () =>
          locationError(name, location, root, `leads outside the project: ${leadsTo(path)}`),
        );
    }
    if (checked.kind === 'url' || checked.kind === 'git') {
      locations[name] = checked.url;
      if (checked.kind === 'git') marketplaces.add(name);
      continue;
    }
    const catalog = existsSync(join(checked.path, 'index.json'))
      ? null
      : findCatalogFile(checked.path);
    if (catalog !== null) marketplaces.add(name);
    for (const path of [checked.path, catalog ?? join(checked.path, 'index.json')])
      assertInsideProject(root, path, () =>
        locationError(name, location, root, `leads outside the project: ${leadsTo(path)}`),
      );
    locations[name] = checked.path;
    onDisk.add(name);
  }
  return { locations, onDisk, marketplaces };
}

/**
 * J3: every `file:` tarball of a project registry on disk leads inside the project once symlinks
 * are resolved (an index can name `../../elsewhere.tgz`, a `tarballs/` can be a symlink), checked
 * before it is read; E_REGISTRY_LOCATION otherwise.
 */
export function assertProjectTarballs(
  root: string,
  registries: ProjectRegistries,
  sources: readonly InstallSource[],
): void {
  for (const source of sources) {
    if (source.kind !== 'registry' || !registries.onDisk.has(source.registry)) continue;
    if (!source.url.startsWith('file:')) continue;
    const path = fileURLToPath(source.url);
    const location = registries.locations[source.registry] ?? '';
    assertInsideProject(root, path, () =>
      locationError(
        source.registry,
        location,
        root,
        `names a tarball outside the project: ${leadsTo(path)}`,
      ),
    );
  }
}

/**
 * Whether a git marketplace's URL is read in place rather than cloned: a `file:` URL whose
 * directory is no git repository (gitRepositoryKind, as read-marketplace.ts decides).
 */
function readInPlace(url: string): boolean {
  return /^file:/i.test(url) && gitRepositoryKind(fileURLToPath(url)) === null;
}

function assertInsideProject(root: string, path: string, error: () => Error): void {
  const landing = landingOf(path);
  if (landing === null || !isInside(realRootOf(root), landing)) throw error();
}

function leadsTo(path: string): string {
  const landing = landingOf(path);
  return landing === null
    ? `${path} is behind a dangling symlink`
    : `${path} resolves to ${landing}`;
}
