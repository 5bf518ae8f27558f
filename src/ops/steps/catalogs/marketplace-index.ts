import { rm } from 'node:fs/promises';
import semver from '../../../registry/versions/semver.js';
import { isHookpmError } from '../../../errors.js';
import { buildSurface } from '../../../plugin/surface.js';
import type {
  IndexPlugin,
  IndexVersion,
  RegistryIndex,
} from '../../../registry/indexes/index-schema.js';
import {
  MAX_EXCLUDED,
  type EntrySource,
  type ExcludedEntry,
  type MarketplaceEntry,
} from '../../../registry/marketplace/marketplace-schema.js';
import { redactUrl } from '../../../registry/http/url-policy.js';
import type { ReadMarketplace } from './read-marketplace.js';
import { stageMarketplacePlugin, type MarketplaceStageContext } from './fetch-marketplace.js';

/**
 * The version shown for an entry whose plugin is not read when the catalog is built (a `github`,
 * `url`, `git-subdir` or `npm` source, or a relative source of a lone marketplace.json) and whose
 * entry names no version: what is installed is known only when it is fetched (`hookpm review
 * <name>@<registry>` fetches it without installing).
 */
export const UNKNOWN_VERSION = '0.0.0-unknown';

/**
 * A marketplace as a registry index (docs/reference/rules/registry.md#registry-kinds, kind
 * marketplace), so search, info and review read it like any index. Each entry is one plugin with
 * one version:
 * - a relative (`./`) source whose files are at hand (a local directory or a clone) is staged
 *   exactly as install stages it (fetch-marketplace.ts), so the version (manifest, entry,
 *   else `0.0.0-g<commit>` / `0.0.0-t<tree digest>`), the integrity (packed-tree sha512), the
 *   events and the surfaceHash are the ones an install now would record;
 * - any other source, and a relative one past the first MAX_STAGED_ENTRIES, is not fetched: the
 *   entry's version (else UNKNOWN_VERSION), no events, no surfaceHash, integrity '' (unknown).
 * Version keys are canonical semver (a `v1.0.0` manifest version is listed as `1.0.0`).
 * `tarball` holds where the plugin comes from (a path, `git+<url>#<commit>:<path>`, `npm:<pkg>`),
 * for display only: marketplace plugins are installed from the marketplace, never from it. An
 * invalid entry, and an entry whose plugin cannot be staged (missing, escaping its repository, a
 * manifest naming another plugin), is left out of the index and listed in `excluded` with why, as
 * `hookpm validate` reports it (`registry add` warns of it, `install` names it).
 */
export async function buildMarketplaceIndex(
  read: ReadMarketplace,
  ctx: MarketplaceStageContext,
  maxStaged = MAX_STAGED_ENTRIES,
): Promise<{ index: RegistryIndex; excluded: ExcludedEntry[] }> {
  const plugins: Record<string, IndexPlugin> = {};
  const excluded = [...read.excluded];
  let staged = 0;
  for (const entry of read.marketplace.plugins) {
    const stage = entry.source.kind === 'path' && read.roots !== null;
    if (stage) staged += 1;
    const built = await versionOf(read, entry, ctx, stage && staged <= maxStaged);
    if ('problem' in built) {
      excluded.push({ name: entry.name, ...built.problem });
      continue;
    }
    const plugin: IndexPlugin = {
      keywords: keywordsOf(entry),
      distTags: { latest: built.version },
      versions: { [built.version]: built.entry },
    };
    const description = built.description ?? entry.manifest.description;
    if (description !== undefined) plugin.description = description;
    plugins[entry.name] = plugin;
  }
  const index: RegistryIndex = { formatVersion: 1, name: read.marketplace.name, plugins };
  if (read.marketplace.description !== undefined) index.description = read.marketplace.description;
  const bounded = boundExcluded(excluded, read.excludedMore, read.location);
  if (staged > maxStaged) bounded.push(unreadNote(staged - maxStaged, maxStaged, read.location));
  return { index, excluded: bounded };
}

/**
 * How many relative (`./`) entries of one catalog are staged when it is read: each one is a copy
 * and a hash of its tree, so a catalog naming one directory 20,000 times would take minutes. The
 * entries past it are listed as a remote source's are (the entry's version, no events), and read
 * when reviewed or installed.
 */
export const MAX_STAGED_ENTRIES = 1_000;

/** The warning of a catalog whose `rest` relative entries past the first `read` were not read. */
function unreadNote(rest: number, read: number, location: string): ExcludedEntry {
  const message = `${location}: ${rest} entries with relative sources past the first ${read} are listed without being read; their versions and hooks are read when they are reviewed or installed`;
  return { name: null, message };
}

/**
 * The first MAX_EXCLUDED left-out entries, then one line counting the rest (`more`: those the
 * catalog's reading only counted): a catalog of a million invalid entries is kept (in the cache)
 * and warned of in bounded size. An entry past the bound is not found by its name; `hookpm
 * validate` on the marketplace lists every one.
 */
function boundExcluded(excluded: ExcludedEntry[], more: number, location: string): ExcludedEntry[] {
  if (excluded.length <= MAX_EXCLUDED && more === 0) return excluded;
  const rest = Math.max(excluded.length - MAX_EXCLUDED, 0) + more;
  const message = `${location}: and ${rest} more entries are left out (\`hookpm validate\` on the marketplace lists every one)`;
  return [...excluded.slice(0, MAX_EXCLUDED), { name: null, message }];
}

interface BuiltVersion {
  version: string;
  entry: IndexVersion;
  description?: string;
}

async function versionOf(
  read: ReadMarketplace,
  entry: MarketplaceEntry,
  ctx: MarketplaceStageContext,
  stage: boolean,
): Promise<BuiltVersion | { problem: Omit<ExcludedEntry, 'name'> }> {
  if (!stage) {
    const declared = entry.manifest.version;
    const version = (declared === undefined ? null : semver.valid(declared)) ?? UNKNOWN_VERSION;
    return { version, entry: { tarball: describeSource(entry.source, read), integrity: '' } };
  }
  let staged;
  try {
    staged = await stageMarketplacePlugin(read, entry, ctx);
  } catch (error) {
    if (!isHookpmError(error)) throw error;
    const problem = { message: `${read.location}: ${error.message}`, code: error.code };
    return { problem: error.hint === undefined ? problem : { ...problem, hint: error.hint } };
  }
  try {
    const surface = buildSurface(staged.plugin);
    const built: BuiltVersion = {
      version: semver.valid(staged.version) ?? UNKNOWN_VERSION,
      entry: {
        tarball: staged.source,
        integrity: staged.integrity,
        events: [...surface.events],
        surfaceHash: surface.surfaceHash,
      },
    };
    if (staged.plugin.description !== null) built.description = staged.plugin.description;
    return built;
  } finally {
    await rm(staged.dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

function keywordsOf(entry: MarketplaceEntry): string[] {
  const all = [...(entry.manifest.keywords ?? []), ...entry.tags];
  if (entry.category !== undefined) all.push(entry.category);
  return [...new Set(all)];
}

/** Where an entry's plugin comes from, credentials redacted. */
function describeSource(source: EntrySource, read: ReadMarketplace): string {
  switch (source.kind) {
    case 'path':
      return `${read.location}#./${source.path}`;
    case 'git': {
      const pin = source.sha ?? source.ref;
      const at = source.path === undefined ? '' : `:${source.path}`;
      return `git+${redactUrl(source.url)}${pin === undefined ? '' : `#${pin}`}${at}`;
    }
    case 'npm':
      return `npm:${source.package}${source.version === undefined ? '' : `@${source.version}`}`;
  }
}
