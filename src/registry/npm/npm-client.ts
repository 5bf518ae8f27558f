import { HookpmError } from '../../errors.js';
import { parseJson } from '../../json/parse-json.js';
import { fetchBytes } from '../http/http.js';
import {
  npmDocumentUrl,
  parseNpmDocument,
  type NpmDocument,
  type NpmPick,
} from './npm-document.js';
import { checkUrl, redactUrl, shownUrl } from '../http/url-policy.js';
import { registryAuthorization, type NpmRegistryAccess } from './npm-auth.js';
import { npmProxySettings, type ProxySettings } from '../http/proxy-policy.js';
import { readNpmConfig } from './read-npmrc.js';

export const DEFAULT_NPM_REGISTRY = 'https://registry.npmjs.org/';
/** Package documents of plugins are small; the abbreviated form of a large package stays far below. */
export const NPM_DOCUMENT_MAX_BYTES = 16 * 1024 * 1024;

export interface NpmRegistryOptions {
  env: Record<string, string | undefined>;
  /** Where the project `.npmrc` is looked for (readNpmConfig). */
  cwd: string;
  /** False: the project `.npmrc` is not read (readNpmConfig). */
  project?: boolean;
}

/**
 * The npm registry's base URL (docs/reference/rules/registry.md#registry-kinds, K4):
 * HOOKPM_NPM_REGISTRY, else `registry` from npm's configuration (readNpmConfig: npm_config_registry,
 * the project, user and global `.npmrc`; npm itself never runs), else https://registry.npmjs.org/.
 * Always ends in `/`; checked by url-policy (E_INSECURE_URL for plain http off loopback).
 */
export async function resolveNpmRegistry(opts: NpmRegistryOptions): Promise<string> {
  return (await npmRegistryAccess(opts)).registry;
}

/**
 * Where to ask for `pkg` and with which credentials (K4, K5): a scoped package's
 * `@scope:registry` first, else `registry` (explicit, e.g. a marketplace entry's or a recorded
 * registry's URL), else HOOKPM_NPM_REGISTRY, else npm's `registry`, else the public registry. The
 * credentials come from the same configuration and are matched against every request URL.
 */
export async function npmRegistryAccess(
  opts: NpmRegistryOptions,
  pkg?: string,
  registry?: string,
): Promise<NpmRegistryAccess> {
  const config = await readNpmConfig(opts);
  const scope = pkg?.startsWith('@') === true ? pkg.slice(0, pkg.indexOf('/')) : undefined;
  const scoped = scope === undefined ? undefined : config.get(`${scope}:registry`);
  const configured = opts.env.HOOKPM_NPM_REGISTRY;
  const found =
    nonEmpty(scoped) ??
    nonEmpty(registry) ??
    nonEmpty(configured) ??
    nonEmpty(config.get('registry')) ??
    DEFAULT_NPM_REGISTRY;
  const base = found.endsWith('/') ? found : `${found}/`;
  checkUrl(base, 'index');
  return {
    registry: base,
    authorization: registryAuthorization(config, base, DEFAULT_NPM_REGISTRY),
    proxy: npmProxySettings((key) => config.get(key), opts.env),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/**
 * Fetches and parses `<registry>/<package>` (abbreviated form preferred), through `proxy` when
 * given (else the environment's, N13).
 */
export async function fetchNpmDocument(
  registry: string,
  pkg: string,
  authorize?: (url: URL) => string | undefined,
  proxy?: ProxySettings,
): Promise<NpmDocument> {
  const url = npmDocumentUrl(registry, pkg);
  const shown = redactUrl(url);
  const result = await fetchBytes(url, {
    purpose: 'index',
    maxBytes: NPM_DOCUMENT_MAX_BYTES,
    headers: { accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8' },
    ...(authorize === undefined ? {} : { authorize }),
    ...(proxy === undefined ? {} : { proxy }),
  });
  if (result.status !== 200) throw new Error('Assertion failed: 304 without a conditional request');
  const json = parseJson(result.body.toString('utf8'), shown);
  if (!json.ok) {
    throw new HookpmError(
      'E_REGISTRY_SCHEMA',
      `${shown}:${json.line}:${json.column}: the package document is not valid JSON: ${json.message}`,
      { url: shown },
    );
  }
  return parseNpmDocument(json.value, pkg, shown);
}

/**
 * The picked version's tarball URL if hookpm may fetch it: allowed by url-policy, and a `file:`
 * URL only from a `file:` registry (E_INSECURE_URL otherwise, quoting the URL cut to 200
 * characters: a document may name one of megabytes).
 */
export function checkNpmTarballUrl(pick: NpmPick, registry: string): string {
  const url = checkUrl(pick.tarball, 'tarball');
  if (url.protocol === 'file:' && !registry.startsWith('file:')) {
    const shown = shownUrl(pick.tarball);
    throw new HookpmError(
      'E_INSECURE_URL',
      `the package document names a local tarball ${shown}; only a file: registry may`,
      { url: shown },
    );
  }
  return url.href;
}
