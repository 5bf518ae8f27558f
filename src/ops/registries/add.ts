import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HookpmError, isHookpmError } from '../../errors.js';
import { gitRepositoryKind } from '../../registry/git/git-repository-kind.js';
import { githubUrl, isGithubRepo } from '../../registry/git/repository-url.js';
import { readLocationKind } from '../../registry/read-location-kind.js';
import { checkRegistryName } from '../../registry/registry-name.js';
import { ROOT_FILE } from '../../registry/sparse/sparse-format.js';
import {
  classifyLocation,
  indexUrlOf,
  isSparseRootUrl,
  namesIndexFile,
  showLocation,
} from '../../registry/registry-location.js';
import { assertStoreWritable } from '../../store/check-writable.js';
import { readState, updateState } from '../../store/state/state.js';
import type { RegistryRecord, State } from '../../store/state/state-schema.js';
import { effectiveRegistries } from '../steps/catalogs/defaults.js';
import { loadCatalogSummary } from '../steps/catalogs/catalog.js';
import {
  environmentOf,
  lockOptions,
  type OperationContext,
} from '../steps/context/operation-context.js';
import { requireNetwork } from '../steps/context/network.js';
import { requireRegistryAllowed } from '../steps/policy/enforce-policy.js';

export interface AddRegistryOptions {
  name: string;
  location: string;
  /** Relative directory paths are taken from here. */
  cwd: string;
}

export interface AddedRegistry {
  name: string;
  kind: RegistryRecord['kind'];
  /** As stored (a base URL, or an absolute directory path), credentials redacted (N5). */
  location: string;
  plugins: number;
  /** A marketplace's entries left out of its catalog, each naming the entry and why. */
  warnings: string[];
}

/**
 * `hookpm registry add <name> <location>` (docs/reference/rules/registry.md#registry-kinds):
 * detects the kind, fetches and validates the index (which also fills the cache), then records the
 * registry under the store lock (D3) with one durable state write. E_STORE_READONLY first, before
 * any network access; E_REGISTRY_EXISTS when the name is taken (built-in names included, until
 * removed); on any failure the state file is unchanged. A marketplace's invalid entries come back
 * as `warnings`.
 */
export async function addRegistry(
  ctx: OperationContext,
  opts: AddRegistryOptions,
): Promise<AddedRegistry> {
  const name = checkRegistryName(opts.name);
  // security.md: a read-only store fails before any network access (and before any clone).
  await assertStoreWritable(ctx.paths);
  checkFree(await readState(ctx.paths), name, ctx);
  const record = await recordFor(opts, ctx);
  // docs/reference/rules/policy.md#a12: refused before the index is fetched or anything written.
  requireRegistryAllowed(ctx, `adding the registry ${name} (${showLocation(record.location)})`, {
    name,
    location: record.location,
  });
  if (record.kind === 'index' && !indexUrlOf(record.location).startsWith('file:'))
    requireNetwork(
      ctx,
      `cannot add the registry ${name}, whose index must be fetched from ${showLocation(record.location)}`,
      { registry: name },
    );
  const catalog = await loadAdded(name, record, ctx, namesIndexFile(opts.location));
  await updateState(
    ctx.paths,
    (draft) => {
      checkFree(draft, name, ctx);
      draft.registries[name] = record;
    },
    lockOptions(ctx),
  );
  const location = showLocation(record.location);
  const warnings = (catalog.excluded ?? []).map((entry) => entry.message);
  return {
    name,
    kind: record.kind,
    location,
    plugins: catalog.pluginCount ?? catalog.summary.length,
    warnings,
  };
}

/**
 * The catalog of the registry being added (refreshed). registry.md N6: a base URL is asked first
 * for its sparse root document (`registry.json`), whose size does not grow with the registry; when
 * it has one, the record stores that root's URL. Only a 404 there falls back to the base URL's
 * `index.json`, whose error is then the one reported. A location typed as the URL of an
 * `index.json` (`indexNamed`) is read through it alone, with no request for `registry.json`: a host
 * that answers 403 for a file it does not have (an S3 bucket without public listing) holds the
 * registry too. A 401 or 403 for the probe says so in its hint.
 */
async function loadAdded(
  name: string,
  record: RegistryRecord,
  ctx: OperationContext,
  indexNamed: boolean,
): ReturnType<typeof loadCatalogSummary> {
  const opts = { refresh: true, countOnly: true };
  const load = (location: string): ReturnType<typeof loadCatalogSummary> =>
    loadCatalogSummary({ name, record: { ...record, location }, builtin: false }, ctx, opts);
  // Only an index location has an index URL: a marketplace's (`git:x`) may be no URL base at all.
  const probe = record.kind === 'index' && !isSparseRootUrl(record.location) && !indexNamed;
  if (!probe) return load(record.location);
  const url = indexUrlOf(record.location);
  if (url.startsWith('file:')) return load(record.location);
  const root = new URL(ROOT_FILE, url).href;
  try {
    const catalog = await load(root);
    record.location = root;
    return catalog;
  } catch (error) {
    const status = isHookpmError(error, 'E_REGISTRY_NETWORK') ? statusOf(error) : undefined;
    if (status === 401 || status === 403) throw probeRefused(error as HookpmError, url, status);
    if (!isHookpmError(error, 'E_NOT_FOUND')) throw error;
    return load(record.location);
  }
}

function statusOf(error: HookpmError): number | undefined {
  const status = error.details['status'];
  return typeof status === 'number' ? status : undefined;
}

/** A 401 or 403 for the `registry.json` of a base URL: also how to read its `index.json` alone. */
function probeRefused(error: HookpmError, indexUrl: string, status: number): HookpmError {
  const shown = showLocation(indexUrl);
  return new HookpmError(error.code, error.message, {
    ...error.details,
    hint: `${error.hint ?? ''} A registry with only index.json, on a host that answers ${status} for a missing file (S3, CloudFront), is added by the URL of its index: ${shown}`.trim(),
  });
}

function checkFree(state: State, name: string, ctx: OperationContext): void {
  const existing = effectiveRegistries(state, ctx.defaults).find((entry) => entry.name === name);
  if (existing === undefined) return;
  throw new HookpmError(
    'E_REGISTRY_EXISTS',
    `a registry named ${name} already exists (${existing.record.kind} at ${showLocation(existing.record.location)})`,
    {
      registry: name,
      hint: `Choose another name, or run \`hookpm registry remove ${name}\` first.`,
    },
  );
}

async function recordFor(opts: AddRegistryOptions, ctx: OperationContext): Promise<RegistryRecord> {
  const addedAt = (ctx.now?.() ?? new Date()).toISOString();
  const guess = classifyLocation(opts.location, opts.cwd);
  if (guess.kind === 'npm') {
    // docs/reference/rules/registry.md#registry-kinds: the URL is fixed when the registry is added
    // (HOOKPM_NPM_REGISTRY, else npm's).
    const { resolveNpmRegistry } = await import('../../registry/npm/npm-client.js');
    const location = await resolveNpmRegistry({ env: environmentOf(ctx).env, cwd: opts.cwd });
    return { location, kind: 'npm', addedAt };
  }
  if (guess.kind !== 'local') return { location: guess.location, kind: guess.kind, addedAt };
  // Claude Code's `owner/repo` for a marketplace on GitHub, unless that path exists here.
  if (!guess.fileUrl && isGithubRepo(opts.location) && !(await exists(guess.path)))
    return { location: githubUrl(opts.location), kind: 'marketplace', addedAt };
  if (guess.fileUrl && (await isBareRepository(guess.path))) {
    const location = `${pathToFileURL(guess.path).href.replace(/\/$/, '')}/`;
    return { location, kind: 'marketplace', addedAt };
  }
  const local = await readLocationKind(guess.path, guess.fileUrl ? undefined : opts.location);
  const location = guess.fileUrl
    ? `${pathToFileURL(local.dir).href.replace(/\/$/, '')}/`
    : local.dir;
  return { location, kind: local.kind, addedAt };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * A bare git repository (gitRepositoryKind: `HEAD` and `objects/`, no work tree) that is no
 * hookpm index directory: a marketplace to clone. A work tree is read by readLocationKind.
 */
async function isBareRepository(path: string): Promise<boolean> {
  if (gitRepositoryKind(path) !== 'bare') return false;
  return stat(join(path, 'index.json')).then(
    () => false,
    () => true,
  );
}
