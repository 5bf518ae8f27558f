import {
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  realpath,
  rename,
  rm,
  stat,
  unlink,
} from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import semver from '../../registry/versions/semver.js';
import { HookpmError } from '../../errors.js';
import { writeFileDurable } from '../../io/durable-write.js';
import { isValidPluginName, PLUGIN_NAME_PATTERN } from '../../plugin/name.js';
import type { PluginAbout } from '../../plugin/manifest.js';
import type { SurfaceEntry } from '../../plugin/surface.js';
import {
  parseIndex,
  type IndexPlugin,
  type RegistryIndex,
} from '../../registry/indexes/index-schema.js';
import { renderMarketplacePage } from '../../registry/marketplace/marketplace-page.js';
import { packPlugin, type PackResult } from '../../publish/pack.js';
import { errnoCode } from '../../io/fs-error.js';
import { SCRATCH_PREFIX, withBuildLock } from './build-lock.js';
import { checkOutputDirs } from './output-dirs.js';
import { checkSourcesApart } from './source-overlap.js';
import { keepRecordedTime, readRecordedTimes } from './recorded-times.js';
import { holdsBytes } from './unchanged-file.js';
import { sparseLayoutOf, writeSparseLayout, type SparseWriteResult } from './write-sparse.js';

export interface BuildRegistryOptions {
  /** Every subdirectory (not starting with `.`; a symlink to one too) is one plugin's source. */
  pluginsDir: string;
  outDir: string;
  /** The registry's name (docs/reference/rules/registry.md#registry-kinds); default: the name of `outDir`. */
  name?: string;
  description?: string;
  /**
   * Older versions: every subdirectory is one more plugin source, packed like those of
   * `pluginsDir` and collated by its manifest's name and version (`history/guard-1.0.0/`).
   */
  historyDir?: string;
  /**
   * Every version's `publishedAt` (ISO 8601); left out of the index when not given. A version the
   * index.json in `outDir` already records with the same bytes keeps its recorded time (policy.md A22).
   */
  publishedAt?: string;
  /** Write the sparse layout (registry.md N9) beside `index.json`; default true. */
  sparse?: boolean;
}

export interface BuildRegistryResult {
  name: string;
  outDir: string;
  index: RegistryIndex;
  /** Tarball paths relative to `outDir`, sorted. */
  tarballs: string[];
  /** Stale `.tgz` files removed from `<outDir>/tarballs/`. */
  removed: string[];
  /** What the sparse layout's incremental write did; null with `sparse: false`. */
  sparse: SparseWriteResult | null;
}

const TARBALLS = 'tarballs';
/** The registry directory is the user's: a file that cannot be written there is E_IO naming it. */
const USER_FILE = { owner: 'user' } as const;

interface BuildTarget {
  outDir: string;
  name: string;
  publishedAt: string | undefined;
  sources: string[];
}

/**
 * `hookpm registry build` (cli.md): packs every plugin source (into a scratch directory, so a
 * refused plugin leaves the registry as it was), moves the tarballs into `<outDir>/tarballs/`, then
 * writes `index.html` (the marketplace page), the sparse layout (N9, incrementally; unless
 * `sparse: false`) and last `index.json`, kept for clients without the sparse layout
 * (formatVersion 1, plugins and versions sorted, `distTags.latest` the newest non-prerelease
 * version), so a reader never sees an index naming a missing tarball. The output depends only on
 * the sources and the options: building twice gives byte-identical files. The index is checked
 * with parseIndex before it is written. Tarballs in `<outDir>/tarballs/` that an earlier build
 * wrote and this one did not are removed (removeStale) after that, so the index.json before, which
 * may name them, never names a missing one either, even when the build fails midway. Throws
 * E_USAGE for a bad name, date, a version found twice or two versions of one tarball name,
 * E_USAGE for an output directory mixed with the sources (checkSourcesApart), E_USAGE or
 * E_SYMLINK_ESCAPE for an output directory it would write outside of (checkOutputDirs),
 * E_REGISTRY_TOO_LARGE for a sparse document over a client's cap (sparseLayoutOf), and whatever
 * packPlugin throws, naming the source.
 */
export async function buildRegistry(opts: BuildRegistryOptions): Promise<BuildRegistryResult> {
  const outDir = resolve(opts.outDir);
  const name = opts.name ?? basename(outDir);
  if (!PLUGIN_NAME_PATTERN.test(name)) {
    throw new HookpmError(
      'E_USAGE',
      `registry name ${JSON.stringify(name)} is invalid: expected 1-64 characters of a-z, 0-9, ".", "_" or "-"`,
      {
        hint: 'Give one with --name, e.g. --name my-plugins.',
      },
    );
  }
  const publishedAt = opts.publishedAt === undefined ? undefined : normaliseDate(opts.publishedAt);
  const sources = await distinctSources([
    ...(await sourceDirs(opts.pluginsDir)),
    ...(opts.historyDir === undefined ? [] : await sourceDirs(opts.historyDir)),
  ]);
  const given = [opts.pluginsDir, ...(opts.historyDir === undefined ? [] : [opts.historyDir])];
  await checkSourcesApart(outDir, given, opts.sparse !== false, sources);
  await checkOutputDirs(outDir);
  return withBuildLock(outDir, () => buildLocked(opts, { outDir, name, publishedAt, sources }));
}

/** buildRegistry's writes, under the output directory's lock. */
async function buildLocked(
  opts: BuildRegistryOptions,
  { outDir, name, publishedAt, sources }: BuildTarget,
): Promise<BuildRegistryResult> {
  const tarballDir = join(outDir, TARBALLS);
  const recorded = await readRecordedTimes(outDir);
  await mkdir(tarballDir, { recursive: true });
  // Packed into a scratch directory first, so a refused plugin leaves the registry untouched.
  const scratch = await mkdtemp(join(outDir, SCRATCH_PREFIX));
  try {
    const packed: PackResult[] = [];
    for (const source of sources) {
      const at = publishedAt === undefined ? {} : { publishedAt };
      const result = await packPlugin(source, {
        outDir: scratch,
        tarballPrefix: `${TARBALLS}/`,
        ...at,
      });
      packed.push(keepRecordedTime(result, recorded));
    }
    const { index, surfaces, about } = assembleIndex(packed, name, opts.description);
    const checked = parseIndex(JSON.parse(JSON.stringify(index)), join(outDir, 'index.json'));
    const layout = opts.sparse === false ? null : sparseLayoutOf(checked);
    for (const result of packed) await moveTarball(result.file, tarballDir);
    const tarballs = packed.map((p) => p.entry.tarball).sort();
    const html = renderMarketplacePage({ index: checked, registry: name, surfaces, about });
    await writeChanged(join(outDir, 'index.html'), html);
    const sparse = layout === null ? null : await writeSparseLayout(outDir, layout);
    await writeChanged(join(outDir, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
    // Last: until the new index.json is in place, the old one may name these tarballs.
    const removed = await removeStale(tarballDir, new Set(packed.map((p) => basename(p.file))));
    return { name, outDir, index: checked, tarballs, removed, sparse };
  } catch (error) {
    throw withBuildHint(error, outDir);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * A full disk midway through a build: the store's hint says nothing was changed, but the build may
 * have moved tarballs in or written `index.html` or sparse documents already (the index.json before
 * still names only tarballs that exist). Says so instead; any other error passes through.
 */
function withBuildHint(error: unknown, outDir: string): unknown {
  if (!(error instanceof HookpmError) || error.code !== 'E_NOSPC') return error;
  return new HookpmError(error.code, error.message, {
    ...error.details,
    hint: `Free some disk space, then build again: what this build wrote already (tarballs, index.html, the sparse documents) the next build replaces; ${outDir}/index.json is as it was.`,
  });
}

/** The index of the packed versions, and each version's consent surface for the page. */
function assembleIndex(
  packed: readonly PackResult[],
  name: string,
  description: string | undefined,
): {
  index: RegistryIndex;
  surfaces: Record<string, Record<string, SurfaceEntry[]>>;
  about: Record<string, PluginAbout>;
} {
  const byName = new Map<string, PackResult[]>();
  const byFile = new Map<string, PackResult>();
  for (const result of packed) {
    // `a-1.0.0` 1.0.0 and `a` 1.0.0-1.0.0 are both a-1.0.0-1.0.0.tgz: one would replace the other.
    const clash = byFile.get(result.entry.tarball);
    if (clash !== undefined) {
      throw new HookpmError(
        'E_USAGE',
        `${clash.name}@${clash.version} and ${result.name}@${result.version} would both be ${result.entry.tarball}`,
        {
          hint: 'A tarball is named <name>-<version>.tgz: rename one of the plugins, or give it another version.',
        },
      );
    }
    byFile.set(result.entry.tarball, result);
    const list = byName.get(result.name) ?? [];
    const twin = list.find((other) => semver.eq(other.version, result.version));
    if (twin !== undefined) {
      throw new HookpmError(
        'E_USAGE',
        `${result.name}@${result.version} is built twice (from two source directories)`,
        {
          hint: 'Each source directory must hold a different version; bump the "version" in one manifest.',
        },
      );
    }
    byName.set(result.name, [...list, result]);
  }
  const plugins: Record<string, IndexPlugin> = {};
  const surfaces: Record<string, Record<string, SurfaceEntry[]>> = {};
  const about: Record<string, PluginAbout> = {};
  for (const pluginName of [...byName.keys()].sort()) {
    const versions = (byName.get(pluginName) ?? []).sort((a, b) =>
      semver.compare(a.version, b.version),
    );
    const stable = versions.filter((v) => semver.prerelease(v.version) === null);
    const latest = (stable.length > 0 ? stable : versions).at(-1);
    if (latest === undefined) continue;
    plugins[pluginName] = {
      ...(latest.description === null ? {} : { description: latest.description }),
      keywords: latest.keywords,
      distTags: { latest: latest.version },
      versions: Object.fromEntries(versions.map((v) => [v.version, v.entry])),
    };
    surfaces[pluginName] = Object.fromEntries(versions.map((v) => [v.version, v.surface]));
    about[pluginName] = latest.about;
  }
  const index: RegistryIndex = {
    formatVersion: 1,
    name,
    ...(description === undefined ? {} : { description }),
    plugins,
  };
  return { index, surfaces, about };
}

/**
 * The subdirectories of `dir`, sorted, without hidden ones; a symlink leading to a directory is one
 * too (a sources folder of links to plugin checkouts), packed from where it leads, so no plugin
 * source is left out without a word.
 */
async function sourceDirs(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new HookpmError(
      'E_NOT_FOUND',
      `cannot read the plugin sources directory ${dir}: ${errnoCode(error) ?? String(error)}`,
      {
        file: dir,
        hint: 'Give a directory whose subdirectories are plugin sources (each with .claude-plugin/plugin.json).',
      },
    );
  }
  const found: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory() || (entry.isSymbolicLink() && (await isDirectory(path))))
      found.push(path);
  }
  return found.sort();
}

/**
 * `sources` without those that lead to a folder listed before them (a link `guard-latest` beside
 * `guard`, or into the history folder): one folder is packed once, not refused as a second copy.
 */
async function distinctSources(sources: readonly string[]): Promise<string[]> {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const source of sources) {
    const real = await realpath(source).catch(() => source);
    if (seen.has(real)) continue;
    seen.add(real);
    kept.push(source);
  }
  return kept;
}

/** Whether `path`, symlinks followed, is a directory (false when it leads nowhere). */
async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

/** Writes `text` to the registry file `file`, unless it holds those bytes already (N9). */
async function writeChanged(file: string, text: string): Promise<void> {
  if (!holdsBytes(file, text)) await writeFileDurable(file, text, USER_FILE);
}

/**
 * Moves the packed tarball `file` into `tarballDir`, replacing a file of its name; a file there
 * with the same bytes (packing is deterministic: an unchanged plugin) is left as it is (N9). Throws
 * E_IO naming the target when that cannot be done (a folder of that name is in the way, say).
 */
async function moveTarball(file: string, tarballDir: string): Promise<void> {
  const target = join(tarballDir, basename(file));
  if (holdsBytes(target, await readFile(file))) return;
  try {
    await rename(file, target);
  } catch (error) {
    const code = errnoCode(error) ?? String(error);
    throw new HookpmError('E_IO', `cannot write the tarball ${target}: ${code}`, {
      file: target,
      errno: code,
      hint: 'The build writes its tarballs there: move aside what is in the way (or make the folder writable), then build again.',
    });
  }
}

/**
 * Removes from `tarballDir` the tarballs an earlier build wrote that this one did not (`keep`): files
 * named as packPlugin names them (`<name>-<version>.tgz`). A folder, or a file of another name (a
 * `backup.tgz` of the user's), is not a build's and is left as it is.
 */
async function removeStale(tarballDir: string, keep: ReadonlySet<string>): Promise<string[]> {
  const removed: string[] = [];
  const entries = await readdir(tarballDir, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.isDirectory() || !isTarballName(entry.name) || keep.has(entry.name)) continue;
    await unlink(join(tarballDir, entry.name));
    removed.push(`${TARBALLS}/${entry.name}`);
  }
  return removed;
}

/** Whether `file` is `<plugin name>-<semver version>.tgz`, the name packPlugin gives a tarball. */
function isTarballName(file: string): boolean {
  if (!file.endsWith('.tgz')) return false;
  const stem = file.slice(0, -'.tgz'.length);
  for (let at = stem.indexOf('-'); at > 0; at = stem.indexOf('-', at + 1)) {
    if (isValidPluginName(stem.slice(0, at)) && semver.valid(stem.slice(at + 1)) !== null)
      return true;
  }
  return false;
}

/**
 * An ISO 8601 date (a day, or a day and a time with its zone), or a number of seconds since the
 * epoch (SOURCE_DATE_EPOCH), as `YYYY-MM-DDTHH:MM:SSZ`. E_USAGE for anything else: a day that does
 * not exist (never rolled over to the next month), or a time without a zone, which would be read
 * in the packer's time zone and make the entry differ from machine to machine.
 */
export function normaliseDate(value: string): string {
  const date = /^\d+$/.test(value) ? new Date(Number(value) * 1000) : isoDate(value);
  if (date === null || Number.isNaN(date.getTime())) {
    throw new HookpmError('E_USAGE', `${JSON.stringify(value)} is not a date`, {
      hint: 'Give an ISO 8601 date such as 2026-11-01 or 2026-11-01T00:00:00Z (a time with its zone), or seconds since the epoch.',
    });
  }
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** `value` as an ISO 8601 date whose day and time exist, else null. */
function isoDate(value: string): Date | null {
  const match = ISO_DATE.exec(value);
  if (match === null) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((n) => Number(n ?? 0));
  const midnight = new Date(Date.UTC(year ?? 0, (month ?? 0) - 1, day));
  if (midnight.getUTCMonth() !== (month ?? 0) - 1 || midnight.getUTCDate() !== day) return null;
  if ((hour ?? 0) > 23 || (minute ?? 0) > 59 || (second ?? 0) > 59) return null;
  return new Date(value);
}
