import { fetchNpmDocument, npmRegistryAccess } from '../../registry/npm/npm-client.js';
import { redactUrl } from '../../registry/http/url-policy.js';
import { sortDescending } from '../../registry/versions/version-list.js';
import type { LoadedCatalogs } from '../steps/catalogs/load-catalogs.js';
import { installedOf, type PluginInfo } from './plugin-info.js';
import type { Catalog } from '../steps/catalogs/catalog-types.js';
import { environmentOf, type OperationContext } from '../steps/context/operation-context.js';
import { requireNetwork } from '../steps/context/network.js';
import { ownValue } from '../../json/own-value.js';
import { npmPackageOf } from '../steps/installed/npm-package.js';

export interface NpmInfoRequest {
  /** The package name as typed (`info <pkg>@<registry>`). */
  name: string;
  /** The registry named in the spec (an `npm` registry, or `npm` when none is named so). */
  registry: string;
  /** That registry's recorded URL; undefined: npmRegistryAccess (`@scope:registry`, HOOKPM_NPM_REGISTRY, .npmrc). */
  location: string | undefined;
  loaded: LoadedCatalogs<Catalog>;
}

/**
 * `hookpm info <pkg>@<registry>` for an npm registry
 * (docs/reference/rules/registry.md#registry-kinds): the package document read now (versions,
 * dist-tags, the latest version's integrity and tarball). The npm registry does not know a plugin's
 * events or surface: `events` is empty and `surfaceHash` null until the plugin is reviewed or
 * installed (`hookpm review <pkg>@npm` fetches it). The installed record shown is the one installed
 * from this package (its source `npm:<pkg>@<version>`), whatever its manifest names the plugin
 * (`hookpm list` shows the ids). E_OFFLINE without the network (D5): package documents are not
 * cached.
 */
export async function npmPluginInfo(
  ctx: OperationContext,
  request: NpmInfoRequest,
): Promise<PluginInfo> {
  const { name, loaded } = request;
  requireNetwork(ctx, `cannot read the npm package document of ${name}`, {
    registry: request.registry,
  });
  const access = await npmRegistryAccess(environmentOf(ctx), name, request.location);
  const base = access.registry;
  const doc = await fetchNpmDocument(base, name, access.authorization, access.proxy);
  const versions = sortDescending(Object.keys(doc.versions));
  const latestVersion = ownValue(doc.distTags, 'latest') ?? versions[0];
  const latest = latestVersion === undefined ? undefined : ownValue(doc.versions, latestVersion);
  const record = Object.values(loaded.state.plugins).find((r) => npmPackageOf(r) === name);
  return {
    id: `${name}@npm`,
    name,
    registry: 'npm',
    description: null,
    keywords: [],
    registryInfo: { name: request.registry, kind: 'npm', location: redactUrl(base) },
    distTags: doc.distTags,
    versions,
    deprecated: Object.fromEntries(
      Object.entries(doc.versions).flatMap(([v, e]) =>
        e.deprecated === undefined ? [] : [[v, e.deprecated]],
      ),
    ),
    latest:
      latestVersion === undefined || latest === undefined
        ? null
        : {
            version: latestVersion,
            events: [],
            surfaceHash: null,
            integrity: latest.integrity ?? '',
            tarball: redactUrl(latest.tarball),
            size: null,
            publishedAt: null,
            deprecated: latest.deprecated ?? null,
          },
    installed: record === undefined ? null : installedOf(record),
    warnings: loaded.warnings,
    cacheOnly: loaded.cacheOnly,
  };
}
