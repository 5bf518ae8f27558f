import { rename, rm } from 'node:fs/promises';
import semver from '../../../registry/versions/semver.js';
import { HookpmError, isHookpmError } from '../../../errors.js';
import { redactUrl } from '../../../registry/http/url-policy.js';
import { readState } from '../../../store/state/state.js';
import { finishStage } from './staged.js';
import { readMarketplace } from '../catalogs/read-marketplace.js';
import { excludedEntryError } from '../catalogs/excluded-entry.js';
import { assertKnownIntegrity } from './pick.js';
import { stageMarketplacePlugin } from '../catalogs/fetch-marketplace.js';
import {
  environmentOf,
  type Environment,
  type OperationContext,
} from '../context/operation-context.js';
import { requireNetwork, type NetworkSwitch } from '../context/network.js';
import type { MarketplaceEntry as CatalogEntry } from '../../../registry/marketplace/marketplace-schema.js';
import type { MarketplaceSource, StageEnv, StagedPlugin, StageTarget } from './types.js';

/** A marketplace plugin's tree in staging, before validation; the caller owns `dir`. */
export interface MarketplaceTree {
  dir: string;
  version: string;
  /** The packed-tree sha512 (or the npm `dist.integrity` of an npm entry). */
  integrity: string;
  /** For an entry whose source is a git repository: the commit it was cloned at. */
  entryCommit?: string;
  /** For an entry whose source is npm: the picked version's deprecation message. */
  deprecated?: string;
}

/**
 * Reads the marketplace, stages the entry's plugin (fetch-marketplace.ts) and checks its
 * version against the range or tag asked for (E_NO_MATCHING_VERSION); the clone, if any, is
 * removed, and on failure the staged tree too. `review` shows the result; install validates it.
 * Offline (D5), a marketplace or plugin that must come over the network is E_OFFLINE:
 * marketplace trees are not cached (a local directory or `file:` repository is read as usual).
 */
export async function stageMarketplaceTree(
  source: MarketplaceSource,
  ctx: Pick<OperationContext, 'paths' | 'npmProjectConfig'> & NetworkSwitch & Environment,
): Promise<MarketplaceTree> {
  const stage = {
    paths: ctx.paths,
    env: ctx.env,
    cwd: ctx.cwd,
    ...(ctx.npmProjectConfig === undefined ? {} : { npmProjectConfig: ctx.npmProjectConfig }),
  };
  if (isNetworkLocation(source.location)) mustFetch(ctx, source, source.location);
  const read = await readMarketplace(source.location, {
    ...stage,
    ...(source.commit === undefined ? {} : { sha: source.commit }),
  });
  try {
    const entry = read.marketplace.plugins.find((e) => e.name === source.name);
    if (entry === undefined) {
      // A catalog cached before the entry became unusable (J14's refusal among them) still lists
      // it: the read says why, as for a catalog read now.
      const excluded = [{ registry: source.registry, excluded: read.excluded }];
      const unusable = excludedEntryError(excluded, source.name);
      if (unusable !== null) throw unusable;
      throw new HookpmError(
        'E_NOT_FOUND',
        `the marketplace ${source.registry} (${read.location}) no longer lists ${source.name}`,
        { plugin: source.path, hint: `Run \`hookpm registry update ${source.registry}\`.` },
      );
    }
    if (entry.source.kind === 'npm') mustFetch(ctx, source, entry.source.package);
    if (entry.source.kind === 'git' && isNetworkLocation(entry.source.url))
      mustFetch(ctx, source, entry.source.url);
    const staged = await stageMarketplacePlugin(read, pinnedEntry(entry, source), stage).catch(
      (error: unknown) => {
        throw lockedCommitGone(error, source, entry.source);
      },
    );
    try {
      checkWanted(source, staged.version);
    } catch (error) {
      await rm(staged.dir, { recursive: true, force: true }).catch(() => undefined);
      throw error;
    }
    return {
      dir: staged.dir,
      version: staged.version,
      integrity: staged.integrity,
      ...(entry.source.kind === 'git' && staged.commit !== undefined
        ? { entryCommit: staged.commit }
        : {}),
      ...(staged.deprecated === undefined ? {} : { deprecated: staged.deprecated }),
    };
  } finally {
    await read.dispose();
  }
}

/**
 * Steps 2-4 for a MarketplaceSource: stageMarketplaceTree (into `where.into` for a dry run), V3
 * (an installed version whose packed tree now differs is E_INTEGRITY_CHANGED), then validated like
 * any plugin (finishStage). A plugin without a manifest is accepted (Claude Code
 * plugins need none; its entry gives the name). On failure the staged tree is removed.
 */
export async function stageMarketplace(
  source: MarketplaceSource,
  where: StageTarget,
  env: StageEnv,
): Promise<StagedPlugin> {
  const paths = env.ctx.paths;
  const tree = await stageMarketplaceTree(source, {
    ...environmentOf(env.ctx),
    ...env.ctx,
    cwd: env.cwd,
  });
  let dir = tree.dir;
  try {
    // V3: an installed version whose tree now differs is refused (the lock re-reads the state later).
    if (env.acceptIntegrityChange !== true)
      assertKnownIntegrity(await readState(paths), {
        registry: source.registry,
        name: source.name,
        version: tree.version,
        entry: { tarball: source.path, integrity: tree.integrity },
      });
    if ('into' in where) {
      await rename(tree.dir, where.into);
      dir = where.into;
    }
    const staged =
      tree.entryCommit === undefined ? source : { ...source, entryCommit: tree.entryCommit };
    const result = await finishStage(staged, dir, tree.integrity);
    // The marketplace decides the version of a plugin whose manifest has none.
    result.inspected.version = tree.version;
    if (tree.deprecated !== undefined) result.deprecated = tree.deprecated;
    return result;
  } catch (error) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw withLinkHint(error, source);
  }
}

/**
 * plugins.md D15, for a marketplace on this machine: a tree edited without a version bump stays
 * E_INTEGRITY_CHANGED (V3: a version is one set of bytes), and the hint names the development
 * form that reads a directory in place.
 */
function withLinkHint(error: unknown, source: MarketplaceSource): unknown {
  if (!isHookpmError(error, 'E_INTEGRITY_CHANGED') || isNetworkLocation(source.location))
    return error;
  const hint = `${error.hint ?? ''} While you develop a plugin in a directory, \`hookpm install --link <dir>\` reads it in place and needs no version bump.`;
  return new HookpmError(error.code, error.message, { ...error.details, hint: hint.trim() });
}

/** `entry` with its git source cloned at `source.entryCommit` (a project's lock, J13) when set. */
function pinnedEntry(entry: CatalogEntry, source: MarketplaceSource): CatalogEntry {
  if (source.entryCommit === undefined || entry.source.kind !== 'git') return entry;
  return { ...entry, source: { ...entry.source, sha: source.entryCommit } };
}

/** J13: a locked entry commit its repository no longer serves is E_GIT naming that commit. */
function lockedCommitGone(
  error: unknown,
  source: MarketplaceSource,
  entrySource: CatalogEntry['source'],
): unknown {
  if (source.entryCommit === undefined || entrySource.kind !== 'git') return error;
  if (!isHookpmError(error, 'E_GIT')) return error;
  const id = `${source.name}@${source.registry}`;
  return new HookpmError(
    'E_GIT',
    `${id}: cannot clone the repository ${redactUrl(entrySource.url)} at the commit ${source.entryCommit} hookpm.lock pins: ${error.message}`,
    {
      plugin: id,
      url: redactUrl(entrySource.url),
      commit: source.entryCommit,
      hint: `Where the repository no longer has that commit (a rewritten history), \`hookpm install --project ${id}\` locks what it serves now; review the change and commit hookpm.lock.`,
    },
  );
}

/** Whether reading `location` needs the network (a local path or `file:` URL does not). */
function isNetworkLocation(location: string): boolean {
  return (
    /^(https?:|ssh:|git:|git\+)/i.test(location) ||
    /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:/.test(location)
  );
}

/** D5: marketplace trees are not cached, so one that must be fetched is E_OFFLINE without the network. */
function mustFetch(ctx: NetworkSwitch, source: MarketplaceSource, where: string): void {
  requireNetwork(
    ctx,
    `${source.name}@${source.registry} must be fetched from ${redactUrl(where)}`,
    { plugin: `${source.name}@${source.registry}` },
    'Run the command again online; marketplace plugins are not cached.',
  );
}

function checkWanted(source: MarketplaceSource, version: string): void {
  const range = source.wantRange;
  const tag = source.wantTag;
  const ok =
    (range === undefined || semver.satisfies(version, range, { includePrerelease: true })) &&
    (tag === undefined || tag === 'latest');
  if (ok) return;
  const wanted = range ?? tag ?? '';
  throw new HookpmError(
    'E_NO_MATCHING_VERSION',
    `${source.name}@${source.registry}: the marketplace offers version ${version}, which does not match ${wanted}`,
    {
      plugin: `${source.name}@${source.registry}`,
      nearest: [version],
      hint: `A marketplace lists one version of each plugin; install \`${source.name}@${source.registry}\`.`,
    },
  );
}
