import { HookpmError } from '../../errors.js';
import { isValidPluginName, lowerCaseNames, lowerCaseSuggestion } from '../../plugin/name.js';
import type { IndexPlugin } from '../../registry/indexes/index-schema.js';
import { latestVersion } from '../../registry/versions/latest-version.js';
import { ambiguousName } from '../../registry/versions/resolve-version.js';
import { parseInstallSpec } from '../../registry/versions/parse-spec.js';
import { scopedPackageForm } from '../../registry/versions/scoped-package-spec.js';
import { showLocation, showTypedLocation, tarballUrlOf } from '../../registry/registry-location.js';
import { sortDescending } from '../../registry/versions/version-list.js';
import type { PluginRecord } from '../../store/state/state-schema.js';
import { loadCatalogs, type LoadedCatalogs } from '../steps/catalogs/load-catalogs.js';
import { excludedEntryError } from '../steps/catalogs/excluded-entry.js';
import type { Catalog } from '../steps/catalogs/catalog-types.js';
import type { OperationContext } from '../steps/context/operation-context.js';
import { installedOf, type LatestEntry, type PluginInfo } from './plugin-info.js';
import { ownValue } from '../../json/own-value.js';
import { suggestIn, withSuggestion } from '../../text/did-you-mean.js';
import { knownPluginNames } from '../steps/catalogs/known-names.js';
import { openProject } from '../steps/transaction/project-scope.js';
import { stateIn, USER_RECORDS, type RecordScope } from '../steps/installed/project-records.js';
import { clip } from '../../text/clip.js';

/**
 * `hookpm info <name|name@registry>`: the registry's record of a plugin and the installed record.
 * A bare name in several registries is E_AMBIGUOUS (V1); a plugin in no registry and not
 * installed is E_NOT_FOUND (suggesting the known names close to it). A named registry that cannot
 * be read is that registry's error. `npm:<pkg>` names an npm package, as install takes it.
 * `scope`: a project's records (`info --project`) for the installed part.
 */
export async function describePlugin(
  ctx: OperationContext,
  spec: string,
  scope: RecordScope = USER_RECORDS,
): Promise<PluginInfo> {
  if (spec.startsWith('npm:')) return describeNpmSpec(ctx, spec, scope);
  const at = spec.indexOf('@');
  const name = at === -1 ? spec : spec.slice(0, at);
  const registry = at === -1 ? undefined : spec.slice(at + 1);
  const scoped = scopedPackageForm(spec, ['npm']);
  if (scoped !== null) {
    throw new HookpmError(
      'E_NAME_INVALID',
      `${JSON.stringify(scoped.package)} is a scoped npm package, not a plugin name`,
      {
        spec: clip(spec),
        hint: `Describe it with \`hookpm info ${clip(scoped.form)}\`.`,
      },
    );
  }
  if (!isValidPluginName(name)) {
    const shown = showTypedLocation(spec); // N5: a URL typed here keeps its password out
    throw new HookpmError(
      'E_NAME_INVALID',
      `${JSON.stringify(shown.slice(0, 80))} does not name a plugin`,
      {
        spec: shown,
        suggestions: lowerCaseNames(name),
        hint: withSuggestion(lowerCaseSuggestion(name), 'Give a plugin name, or name@registry.'),
      },
    );
  }
  const loaded = inScope(
    await loadCatalogs(ctx, {
      plugins: [name],
      ...(registry === undefined ? {} : { only: (n: string) => n === registry }),
    }),
    scope,
  );
  const named = loaded.entries.find((e) => e.name === registry);
  const npm = (registry === 'npm' && named === undefined) || named?.record.kind === 'npm';
  if (registry !== undefined && npm) {
    const { npmPluginInfo } = await import('./npm-info.js');
    return npmPluginInfo(ctx, { name, registry, location: named?.record.location, loaded });
  }
  if (registry !== undefined && loaded.warnings[0] !== undefined) {
    const w = loaded.warnings[0];
    throw new HookpmError(w.code as HookpmError['code'], w.message, {
      registry,
      hint: w.hint ?? undefined,
    });
  }
  const found = loaded.catalogs.filter((c) => ownValue(c.index.plugins, name) !== undefined);
  if (found.length > 1)
    throw ambiguousName(
      name,
      found.map((c) => `${name}@${c.registry}`),
      'info',
    );
  const catalog = found[0];
  if (catalog !== undefined) return fromCatalog(catalog, name, loaded);
  const installed = Object.values(loaded.state.plugins).filter(
    (p) => p.name === name && (registry === undefined || p.registry === registry),
  );
  if (installed.length > 1)
    throw ambiguousName(
      name,
      installed.map((p) => p.id),
      'info',
    );
  const record = installed[0];
  if (record !== undefined) return fromInstalled(record, loaded);
  const excluded = excludedEntryError(loaded.catalogs, name);
  if (excluded !== null) throw excluded;
  const where = registry === undefined ? 'in any registry' : `in the registry ${clip(registry)}`;
  const failed = loaded.warnings.map((w) => w.registry);
  const notFound = new HookpmError(
    'E_NOT_FOUND',
    `no plugin named ${name} ${where}, and none is installed`,
    {
      plugin: name,
      hint:
        failed.length > 0
          ? `These registries could not be read: ${failed.join(', ')}. Run \`hookpm registry update\`.`
          : 'Run `hookpm search` to see what the registries offer.',
    },
  );
  throw suggestIn(notFound, name, knownPluginNames(loaded.catalogs, loaded.state, registry));
}

/**
 * `hookpm info npm:<pkg>[@range]`, as `hookpm install npm:<pkg>` names it: the package at the
 * npm registry install would use (resolveNpmRegistry); the range or tag is not needed to describe
 * it. E_NAME_INVALID for a spec that names no npm package.
 */
async function describeNpmSpec(
  ctx: OperationContext,
  spec: string,
  scope: RecordScope,
): Promise<PluginInfo> {
  const parsed = parseInstallSpec(spec, []);
  if (parsed.kind !== 'npm')
    throw new Error('Assertion failed: an npm: spec parsed as another kind');
  const loaded = inScope(await loadCatalogs(ctx, { only: () => false }), scope);
  const { npmPluginInfo } = await import('./npm-info.js');
  return npmPluginInfo(ctx, { name: parsed.package, registry: 'npm', location: undefined, loaded });
}

/**
 * `hookpm info --project <name>`: describePlugin with the registries of hookpm.json joined to the
 * user's and the project's record as the installed part (docs/guides/projects.md).
 */
export async function describeProjectPlugin(
  ctx: OperationContext,
  spec: string,
  cwd: string,
): Promise<PluginInfo> {
  const project = await openProject(ctx, cwd);
  return describePlugin(project.ctx, spec, {
    kind: 'project',
    root: project.root,
    key: project.key,
  });
}

/** `info --project`: the installed part is the project's record (docs/guides/projects.md). */
function inScope(loaded: LoadedCatalogs<Catalog>, scope: RecordScope): LoadedCatalogs<Catalog> {
  return scope.kind === 'user' ? loaded : { ...loaded, state: stateIn(loaded.state, scope) };
}

function fromCatalog(catalog: Catalog, name: string, loaded: LoadedCatalogs<Catalog>): PluginInfo {
  const plugin = ownValue(catalog.index.plugins, name) as IndexPlugin;
  const entry = loaded.entries.find((e) => e.name === catalog.registry);
  const id = `${name}@${catalog.registry}`;
  const record = ownValue(loaded.state.plugins, id);
  return {
    id,
    name,
    registry: catalog.registry,
    description: plugin.description ?? null,
    keywords: plugin.keywords,
    registryInfo: {
      name: catalog.registry,
      kind: catalog.kind,
      location: showLocation(entry?.record.location ?? ''),
    },
    distTags: plugin.distTags,
    versions: sortDescending(Object.keys(plugin.versions)),
    deprecated: Object.fromEntries(
      Object.entries(plugin.versions).flatMap(([v, e]) =>
        e.deprecated === undefined ? [] : [[v, e.deprecated]],
      ),
    ),
    latest: latestOf(plugin, catalog.indexUrl, catalog.kind),
    installed: record === undefined ? null : installedOf(record),
    warnings: loaded.warnings,
    cacheOnly: loaded.cacheOnly,
  };
}

/** A marketplace plugin has no tarball: it is installed from the marketplace (tarball null). */
function latestOf(plugin: IndexPlugin, indexUrl: string, kind: string): LatestEntry | null {
  const version = latestVersion(plugin);
  const entry = version === undefined ? undefined : ownValue(plugin.versions, version);
  if (version === undefined || entry === undefined) return null;
  return {
    version,
    events: entry.events ?? [],
    surfaceHash: entry.surfaceHash ?? null,
    integrity: entry.integrity,
    tarball: kind === 'index' ? showLocation(tarballUrlOf(indexUrl, entry.tarball)) : null,
    size: entry.size ?? null,
    publishedAt: entry.publishedAt ?? null,
    deprecated: entry.deprecated ?? null,
  };
}

function fromInstalled(record: PluginRecord, loaded: LoadedCatalogs<Catalog>): PluginInfo {
  return {
    id: record.id,
    name: record.name,
    registry: record.registry,
    description: null,
    keywords: [],
    registryInfo: null,
    distTags: {},
    versions: [record.version],
    deprecated: {},
    latest: {
      version: record.version,
      events: record.events,
      surfaceHash: record.surfaceHash,
      integrity: record.integrity,
      tarball: null,
      size: null,
      publishedAt: null,
      deprecated: null,
    },
    installed: installedOf(record),
    warnings: loaded.warnings,
    cacheOnly: loaded.cacheOnly,
  };
}
