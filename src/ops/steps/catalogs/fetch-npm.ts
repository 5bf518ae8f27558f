import { rm } from 'node:fs/promises';
import { HookpmError } from '../../../errors.js';
import type { LoadedPlugin } from '../../../plugin/loaded-plugin.js';
import {
  checkNpmTarballUrl,
  fetchNpmDocument,
  npmRegistryAccess,
} from '../../../registry/npm/npm-client.js';
import { fetchTarballCached, hashFile } from '../../../registry/cache-tarball.js';
import { integrityOf, parseIntegrity } from '../../../registry/integrity.js';
import { redactUrl } from '../../../registry/http/url-policy.js';
import { pickNpmVersion } from '../../../registry/npm/npm-document.js';
import { createStagingDir } from '../../../store/layout.js';
import { tarballCacheDir } from '../../../store/paths.js';
import { requireNetwork, type NetworkSwitch } from '../context/network.js';
import type { Environment, OperationContext } from '../context/operation-context.js';
import { readPluginDir } from '../../../store/read-plugin.js';
import { extractTarball, scanTarball, tarballInput } from '../../../store/tar/tarball-scan.js';

export interface NpmPluginRequest {
  package: string;
  range?: string;
  tag?: string;
  /** A registry base URL (a marketplace entry's `registry`); default npmRegistryAccess's. */
  registry?: string;
  includePrerelease?: boolean;
}

/**
 * The operation context's store and network switch (package documents are not cached, so
 * without the network it is E_OFFLINE before any request), with its environment resolved.
 */
export type NpmStageContext = Pick<OperationContext, 'paths' | 'npmProjectConfig'> &
  NetworkSwitch &
  Environment;

/** A plugin extracted from an npm tarball into staging, not yet validated for install. */
export interface StagedNpmPlugin {
  /** The staging directory holding the package's `package/` tree; the caller owns it. */
  dir: string;
  plugin: LoadedPlugin;
  /** The manifest's name (docs/reference/rules/registry.md#registry-kinds: not the package's); the id is `<name>@npm`. */
  name: string;
  version: string;
  /**
   * `sha512-<base64>` of the downloaded bytes, one of the digests the published `dist.integrity`
   * holds: what is recorded, never the published text, which a document may make megabytes long.
   */
  integrity: string;
  package: string;
  registry: string;
  tarball: string;
  deprecated?: string;
}

/**
 * npm as a plugin source (docs/reference/rules/registry.md#registry-kinds, kind npm; steps 2-3 of
 * docs/reference/rules/registry.md#install-transaction): fetch the package document, pick a version
 * (V2), download the tarball verifying its sha512 `dist.integrity` (E_INTEGRITY: nothing extracted)
 * into the tarball cache (D5: a later install of the same version downloads nothing), scan it whole
 * (A1-A3), extract into a fresh staging directory and read the plugin. No npm command and no
 * package script ever runs. A package without a plugin manifest is E_MANIFEST_INVALID; a manifest
 * version other than the package's is E_MANIFEST_MISMATCH. On failure every directory made here is
 * removed.
 */
export async function stageNpmPlugin(
  request: NpmPluginRequest,
  ctx: NpmStageContext,
): Promise<StagedNpmPlugin> {
  requireNetwork(ctx, `cannot read the npm package document of ${request.package}`, {
    package: request.package,
  });
  // K4/K5: the registry for this package and the credentials npm's configuration holds for it.
  const access = await npmRegistryAccess(
    { env: ctx.env, cwd: ctx.cwd, project: ctx.npmProjectConfig !== false },
    request.package,
    request.registry,
  );
  const registry = access.registry;
  const doc = await fetchNpmDocument(registry, request.package, access.authorization, access.proxy);
  const pick = pickNpmVersion(doc, request);
  let dir: string | null = null;
  try {
    // D5: cached by integrity, verified again on every use (cache-tarball.ts).
    const url = checkNpmTarballUrl(pick, registry);
    const { file, bytes } = await fetchTarballCached(url, {
      cacheDir: tarballCacheDir(ctx.paths),
      integrity: pick.integrity,
      fetch: { authorize: access.authorization, proxy: access.proxy },
    });
    const integrity = await verifiedDigest(pick.integrity, file, bytes);
    const input = tarballInput(file, bytes, redactUrl(url));
    const listing = await scanTarball(input);
    dir = await createStagingDir(ctx.paths);
    await extractTarball(input, dir, listing);
    const plugin = await readPluginDir(dir);
    checkPlugin(plugin, request.package, pick.version);
    const staged: StagedNpmPlugin = {
      dir,
      plugin,
      name: plugin.name,
      version: pick.version,
      integrity,
      package: request.package,
      registry,
      tarball: pick.tarball,
    };
    if (pick.deprecated !== undefined) staged.deprecated = pick.deprecated;
    return staged;
  } catch (error) {
    if (dir !== null) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
}

function checkPlugin(plugin: LoadedPlugin, pkg: string, version: string): void {
  if (plugin.manifestFile === null) {
    throw new HookpmError(
      'E_MANIFEST_INVALID',
      `the npm package ${pkg}@${version} is not a plugin: its package/ holds no plugin.json or .claude-plugin/plugin.json`,
      {
        package: pkg,
        version,
        hint: 'An npm package is a plugin when its tarball has a plugin manifest.',
      },
    );
  }
  if (plugin.version !== null && plugin.version !== version) {
    throw new HookpmError(
      'E_MANIFEST_MISMATCH',
      `the npm package ${pkg}@${version} holds the plugin ${plugin.name} with manifest version ${plugin.version}`,
      {
        package: pkg,
        expected: version,
        found: plugin.version,
        hint: 'The manifest version must equal the published package version; ask the publisher to release a fixed version.',
      },
    );
  }
}

/**
 * `sha512-<base64>` of the tarball fetchTarballCached verified against `published`: its one sha512
 * digest as it stands, hashed again only when the document publishes several (which of them the
 * bytes matched is not told).
 */
async function verifiedDigest(
  published: string,
  file: string,
  bytes: Buffer | undefined,
): Promise<string> {
  const digests = parseIntegrity(published).sha512;
  if (digests.length === 1) return `sha512-${digests[0]}`;
  return bytes === undefined ? hashFile(file) : integrityOf(bytes);
}
