import { readGitSettings } from '../../../store/git-settings.js';
import { mkdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import semver from '../../../registry/versions/semver.js';
import { HookpmError, isHookpmError } from '../../../errors.js';
import { hasErrors, type LoadedPlugin } from '../../../plugin/loaded-plugin.js';
import { MANIFEST_FIELDS } from '../../../plugin/manifest.js';
import { clip } from '../../../text/clip.js';
import { isInside } from '../../../text/path-inside.js';
import {
  resolveEntryPath,
  shownTreePath,
  subdirOf,
} from '../../../registry/marketplace/entry-path.js';
import { CLONE_TIMEOUT_MS, cloneShallow } from '../../../registry/git/git-fetch.js';
import type {
  EntrySource,
  MarketplaceEntry,
} from '../../../registry/marketplace/marketplace-schema.js';
import { redactUrl } from '../../../registry/http/url-policy.js';
import { copyPluginTree } from '../../../store/copy-tree.js';
import { createStagingDir } from '../../../store/layout.js';
import type { StorePaths } from '../../../store/store-paths.js';
import { readPluginDir } from '../../../store/read-plugin.js';
import { measureTree } from '../../../store/tree-size.js';
import { pathInClone, type ReadMarketplace } from './read-marketplace.js';
import { stageNpmPlugin, type NpmPluginRequest } from './fetch-npm.js';
import { shortDigest, treeIntegrity } from './tree-integrity.js';
import { addManifestHooks } from './entry-hooks.js';

export interface MarketplaceStageContext {
  paths: StorePaths;
  env: Record<string, string | undefined>;
  cwd: string;
  /** False: an npm source's registry is not taken from the project `.npmrc` (OperationContext). */
  npmProjectConfig?: boolean;
  timeoutMs?: number;
}

/** A marketplace entry's plugin tree in staging, not yet validated for install. */
export interface StagedMarketplacePlugin {
  /** The staging directory; the caller owns it (promote it, or remove it). */
  dir: string;
  plugin: LoadedPlugin;
  name: string;
  /** The manifest's version, else the entry's, else `0.0.0-g<commit>` / `0.0.0-t<tree digest>`. */
  version: string;
  /** `sha512-` of the packed tree (tree-integrity.ts), or the npm `dist.integrity`. */
  integrity: string;
  /** The commit the tree came from (a cloned marketplace or a git source). */
  commit?: string;
  /** What the state records as the plugin's source, credentials redacted. */
  source: string;
  /** An npm source's picked version is deprecated: its message (registry.md V2). */
  deprecated?: string;
}

/**
 * Materialises `entry`'s plugin into a fresh staging directory
 * (docs/reference/rules/registry.md#registry-kinds):
 * - a `./` path: copied from the marketplace directory or clone; it must stay inside the
 *   boundary (entry-path.ts), after symlinks too (E_SYMLINK_ESCAPE);
 * - `github`, `url`, `git-subdir`: cloned shallow at `sha`/`ref`, then the subdirectory copied;
 * - `npm`: fetch-npm.ts (the entry's `version` is a range or dist-tag, `registry` honoured).
 * When the tree has no manifest and the entry declares `hooks` (or `strict: false`), a
 * `.claude-plugin/plugin.json` made of the entry's manifest fields is written into the copy, so
 * its hooks resolve as for any plugin; when it has one, a strict entry's `hooks` are merged into
 * it (plugins.md G14), for every source kind. A tree over the tree limits (tree-size.ts) is
 * E_ARCHIVE_TOO_LARGE before it is copied. A manifest naming another plugin than the entry is
 * E_MANIFEST_MISMATCH. On failure everything made here is removed.
 */
export async function stageMarketplacePlugin(
  read: ReadMarketplace,
  entry: MarketplaceEntry,
  ctx: MarketplaceStageContext,
): Promise<StagedMarketplacePlugin> {
  const { source } = entry;
  if (source.kind === 'npm') return stageNpmEntry(entry, source, ctx);
  const dir = await createStagingDir(ctx.paths);
  try {
    if (source.kind === 'git') return await stageGitEntry(entry, source, dir, ctx);
    const from = await localSource(read, entry, source.path);
    await measureEntryTree(from, source.path, entry);
    await copyPluginTree(from, dir);
    const origin =
      read.kind === 'git' ? `git+${read.location}#${read.commit ?? ''}:${source.path}` : from;
    return await finishTree({ dir, entry, commit: read.commit, source: origin });
  } catch (error) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
}

type SourceOf<K extends EntrySource['kind']> = Extract<EntrySource, { kind: K }>;

async function stageNpmEntry(
  entry: MarketplaceEntry,
  source: SourceOf<'npm'>,
  ctx: MarketplaceStageContext,
): Promise<StagedMarketplacePlugin> {
  const wanted = source.version;
  const request: NpmPluginRequest = { package: source.package };
  if (wanted !== undefined && semver.validRange(wanted) !== null) request.range = wanted;
  else if (wanted !== undefined) request.tag = wanted;
  if (source.registry !== undefined) request.registry = source.registry;
  const npm = await stageNpmPlugin(request, ctx);
  // The package's bytes are verified against dist.integrity by now; the entry's hooks (G14) are
  // added to the staged copy, as for a tree from a directory or a repository.
  await writeEntryManifest(npm.dir, entry).catch(async (error: unknown) => {
    await rm(npm.dir, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  });
  const staged = await finishStage({
    dir: npm.dir,
    entry,
    version: npm.version,
    integrity: npm.integrity,
    source: `npm:${source.package}@${npm.version}`,
  });
  if (npm.deprecated !== undefined) staged.deprecated = npm.deprecated;
  return staged;
}

/** Clones the repository into a scratch directory, copies the (sub)directory into `dir`. */
async function stageGitEntry(
  entry: MarketplaceEntry,
  source: SourceOf<'git'>,
  dir: string,
  ctx: MarketplaceStageContext,
): Promise<StagedMarketplacePlugin> {
  const work = await createStagingDir(ctx.paths);
  try {
    const clone = await cloneShallow(source.url, {
      dest: join(work, 'repo'),
      timeoutMs: ctx.timeoutMs ?? CLONE_TIMEOUT_MS,
      env: ctx.env,
      auth: readGitSettings(ctx.paths),
      ...(source.ref === undefined ? {} : { ref: source.ref }),
      ...(source.sha === undefined ? {} : { sha: source.sha }),
    });
    const names = inRepository(clone.dir, redactUrl(source.url), clone.commit);
    const from = await insideReal(clone.dir, subdirOf(clone.dir, source.path), entry, names);
    await measureEntryTree(from, source.path ?? '.', entry);
    await copyPluginTree(from, dir);
    const at = source.path === undefined ? '' : `:${source.path}`;
    const origin = `git+${redactUrl(source.url)}#${clone.commit}${at}`;
    return await finishTree({ dir, entry, commit: clone.commit, source: origin });
  } finally {
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function localSource(
  read: ReadMarketplace,
  entry: MarketplaceEntry,
  path: string,
): Promise<string> {
  if (read.roots === null) {
    throw new HookpmError(
      'E_USAGE',
      `${entryLabel(entry)} has the relative source ./${clip(path)}, but the marketplace ${read.location} was read as a lone file with no plugin directories beside it`,
      {
        hint: 'Add the marketplace by its git repository or directory instead of its marketplace.json URL.',
      },
    );
  }
  const target = resolveEntryPath(read.roots, path);
  const names =
    read.kind === 'git' ? inRepository(read.roots.root, read.location, read.commit) : undefined;
  if (target === null) {
    throw new HookpmError(
      'E_REGISTRY_SCHEMA',
      `${entryLabel(entry)}: the source ${clip(path)} resolves outside ${names?.base ?? read.roots.boundary} (relative sources resolve against the directory holding .claude-plugin/ and stay inside the repository)`,
      {
        file: read.file,
        plugin: entry.name,
      },
    );
  }
  return insideReal(read.roots.boundary, target, entry, names);
}

/** measureTree with the entry named first in the message, as every other staging error. */
async function measureEntryTree(
  from: string,
  path: string,
  entry: MarketplaceEntry,
): Promise<void> {
  try {
    await measureTree(from, shownTreePath(path));
  } catch (error) {
    if (!isHookpmError(error)) throw error;
    const details = { ...error.details, plugin: entry.name };
    throw new HookpmError(error.code, `${entryLabel(entry)}: ${error.message}`, {
      ...details,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
    });
  }
}

/**
 * How messages name a path of a scratch clone and the clone: its place in the repository and the
 * repository's (redacted) URL, with the commit, never hookpm's scratch directory, which is gone by
 * the time the message is read.
 */
interface PathNames {
  path(path: string): string;
  base: string;
}

/** PathNames for the clone of `url` at `root`. */
function inRepository(root: string, url: string, commit: string | undefined): PathNames {
  const repository = `${url.replace(/\/$/, '')}${commit === undefined ? '' : ` (commit ${commit})`}`;
  return {
    path: (path) => `${pathInClone(root, path) || '.'} in ${repository}`,
    base: repository,
  };
}

/**
 * `target` after symlinks, refused unless it is a directory inside `base` after symlinks; messages
 * name paths as `names` says (by default as they are).
 */
async function insideReal(
  base: string,
  target: string,
  entry: MarketplaceEntry,
  names: PathNames = { path: clip, base },
): Promise<string> {
  const shown = names.path(target);
  const real = await realpath(target).catch(() => null);
  if (real === null) {
    throw new HookpmError(
      'E_NOT_FOUND',
      `${entryLabel(entry)}: the plugin directory ${shown} does not exist`,
      { file: shown, plugin: entry.name },
    );
  }
  if (!isInside(await realpath(base), real)) {
    throw new HookpmError(
      'E_SYMLINK_ESCAPE',
      `${entryLabel(entry)}: ${shown} is a symlink to ${clip(real)}, outside ${names.base}`,
      { file: shown, plugin: entry.name },
    );
  }
  // A file, FIFO or device is never walked, nor opened (a FIFO would block).
  if (!(await stat(real)).isDirectory()) {
    throw new HookpmError(
      'E_NOT_FOUND',
      `${entryLabel(entry)}: the plugin directory ${shown} is not a directory`,
      { file: shown, plugin: entry.name },
    );
  }
  return real;
}

interface TreeStage {
  dir: string;
  entry: MarketplaceEntry;
  commit: string | undefined;
  source: string;
}

async function finishTree(stage: TreeStage): Promise<StagedMarketplacePlugin> {
  await writeEntryManifest(stage.dir, stage.entry);
  const integrity = await treeIntegrity(stage.dir);
  const fallback =
    stage.commit !== undefined
      ? `0.0.0-g${stage.commit.slice(0, 12)}`
      : `0.0.0-t${shortDigest(integrity)}`;
  const staged = await finishStage({
    dir: stage.dir,
    entry: stage.entry,
    version: null,
    fallback,
    integrity,
    source: stage.source,
  });
  return stage.commit === undefined ? staged : { ...staged, commit: stage.commit };
}

interface FinishInput {
  dir: string;
  entry: MarketplaceEntry;
  /** A version fixed by the source (npm); null to take the manifest's, the entry's or `fallback`. */
  version: string | null;
  fallback?: string;
  integrity: string;
  source: string;
}

async function finishStage(input: FinishInput): Promise<StagedMarketplacePlugin> {
  const plugin = await readPluginDir(input.dir, { fallbackName: input.entry.name });
  if (plugin.manifest !== null && plugin.name !== input.entry.name) {
    await rm(input.dir, { recursive: true, force: true }).catch(() => undefined);
    throw new HookpmError(
      'E_MANIFEST_MISMATCH',
      `${entryLabel(input.entry)}: the plugin's manifest names it ${JSON.stringify(plugin.name)}`,
      {
        plugin: input.entry.name,
        expected: input.entry.name,
        found: plugin.name,
        hint: 'The marketplace entry and the plugin manifest must use the same name.',
      },
    );
  }
  const version =
    input.version ?? plugin.version ?? input.entry.manifest.version ?? input.fallback ?? '0.0.0';
  return {
    dir: input.dir,
    plugin,
    name: input.entry.name,
    version,
    integrity: input.integrity,
    source: input.source,
  };
}

/**
 * Writes the entry's manifest fields as the plugin's manifest when the tree has none and needs one;
 * when it has one, a strict entry's `hooks` are merged into it (entry-hooks.ts, plugins.md G14).
 */
async function writeEntryManifest(dir: string, entry: MarketplaceEntry): Promise<void> {
  if (entry.manifest.hooks === undefined && entry.strict) return;
  const current = await readPluginDir(dir, { fallbackName: entry.name });
  if (current.manifestFile !== null) {
    await mergeEntryHooks(dir, entry, current);
    return;
  }
  const fields = Object.fromEntries(
    Object.entries(entry.manifest).filter(([key]) => MANIFEST_FIELDS.includes(key)),
  );
  await mkdir(join(dir, '.claude-plugin'), { recursive: true });
  await writeFile(
    join(dir, '.claude-plugin', 'plugin.json'),
    `${JSON.stringify(fields, null, 2)}\n`,
    { flag: 'wx' },
  );
}

/**
 * G14: a strict entry's hooks added to the tree's own manifest. A manifest with errors is left as
 * it is (the plugin is refused for it, P4); hooks that one field cannot hold together (an inline
 * object and paths) are E_REGISTRY_SCHEMA naming the entry, never dropped.
 */
async function mergeEntryHooks(
  dir: string,
  entry: MarketplaceEntry,
  current: LoadedPlugin,
): Promise<void> {
  const hooks = entry.manifest.hooks;
  if (hooks === undefined || !entry.strict || hasErrors(current)) return;
  const file = current.hooksManifestFile ?? null;
  if (file !== null && (await addManifestHooks(dir, file, hooks))) return;
  throw new HookpmError(
    'E_REGISTRY_SCHEMA',
    `${entryLabel(entry)}: its hooks cannot be added to those of the plugin's ${current.manifestFile ?? 'manifest'} (an inline hooks object and hooks paths, or no Claude Code manifest to hold them)`,
    {
      plugin: entry.name,
      hint: 'Declare the hooks in one place: in the plugin manifest, or in the marketplace entry with "strict": false.',
    },
  );
}

function entryLabel(entry: MarketplaceEntry): string {
  return `marketplace entry plugins[${entry.index}] (${entry.name})`;
}
