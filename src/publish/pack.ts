import { mkdir, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { HookpmError, isHookpmError, type ErrorCode } from '../errors.js';
import type { Diagnostic } from '../hooks/diagnostic.js';
import type { EventName } from '../hooks/events.js';
import { writeFileDurable } from '../io/durable-write.js';
import { errnoCode } from '../io/fs-error.js';
import type { LoadedPlugin } from '../plugin/loaded-plugin.js';
import { aboutOf, type PluginAbout } from '../plugin/manifest.js';
import { buildSurface, type SurfaceEntry } from '../plugin/surface.js';
import { isVersionKey, type IndexVersion } from '../registry/indexes/index-schema.js';
import { integrityOf } from '../registry/integrity.js';
import semver from '../registry/versions/semver.js';
import { collectPackFiles } from './pack-files.js';
import { readPluginDir } from '../store/read-plugin.js';
import { createTarGz } from '../store/tar/tar-write.js';
import { TARBALL_LIMITS } from '../store/tar/tarball-rules.js';
import { scanTarball, tarballInput } from '../store/tar/tarball-scan.js';
import { firstOf } from '../text/first-of.js';
import { shellWord } from '../text/shell-word.js';

export interface PackOptions {
  /** Where the tarball is written (resolved to an absolute path); created when missing. */
  outDir: string;
  /** The index entry's `publishedAt`; left out of the entry when not given. */
  publishedAt?: string;
  /** Put before the file name in the entry's `tarball` (`tarballs/` in a registry). */
  tarballPrefix?: string;
}

/** A packed plugin: its tarball and what an index says about it (docs/reference/rules/registry.md#index-format). */
export interface PackResult {
  /** The tarball's absolute path, `<outDir>/<name>-<version>.tgz`. */
  file: string;
  integrity: string;
  size: number;
  name: string;
  version: string;
  description: string | null;
  keywords: string[];
  /** The manifest's author, license, homepage and repository, as declared (for the marketplace page). */
  about: PluginAbout;
  events: EventName[];
  surfaceHash: string;
  /** The consent surface (docs/reference/rules/plugins.md#consent-surface), for a marketplace page or a review. */
  surface: SurfaceEntry[];
  /** The index version entry. */
  entry: IndexVersion;
}

/**
 * Packs the plugin directory `dir` into a tarball that hookpm installs from a registry
 * (registry.md A1-A2): every entry under `package/`, files only, sorted, with fixed times, owners
 * and modes (tar-write.ts), so packing the same files twice gives the same bytes and integrity.
 * Refuses a plugin with an error diagnostic (plugins.md P4: E_MANIFEST_INVALID, E_HOOKS_INVALID,
 * E_NAME_INVALID), without a manifest or a `version` in semver's own form (P1, P2: required to
 * publish, registry.md I1: E_MANIFEST_INVALID), or with a symlink leaving the tree
 * (E_SYMLINK_ESCAPE). The tarball is scanned with the installer's own checks before it is written;
 * one that fails them is never written (a tarball of the same name in `outDir` stays as it was)
 * and the scan's error thrown. An `outDir` inside the plugin (`hookpm pack .`, the default) does
 * not put the plugin's tarballs there into the next one (ownTarballs).
 */
export async function packPlugin(dir: string, opts: PackOptions): Promise<PackResult> {
  const plugin = await readPluginDir(dir);
  const { name, version } = publishable(plugin, dir);
  const outDir = resolve(opts.outDir);
  const files = await collectPackFiles(dir, TARBALL_LIMITS, await ownTarballs(outDir, name));
  const bytes = createTarGz(
    files.map((f) => ({ path: `package/${f.path}`, mode: f.mode, data: f.data })),
  );
  const fileName = `${name}-${version}.tgz`;
  const file = join(outDir, fileName);
  // Scanned in memory before it is written, so a refused tarball never replaces one packed earlier.
  await scanTarball(tarballInput(file, bytes)).catch((error: unknown) => {
    throw isHookpmError(error, 'E_ARCHIVE_UNSAFE') ? refusedFile(error, dir) : error;
  });
  await mkdir(outDir, { recursive: true }).catch((error: unknown) => {
    throw outDirError(outDir, error);
  });
  // The output directory is the user's: a tarball that cannot be written is E_IO naming it.
  await writeFileDurable(file, bytes, { owner: 'user' });
  const surface = buildSurface({
    documents: plugin.documents,
    diagnostics: plugin.diagnostics,
    manifest: plugin.manifest,
  });
  const integrity = integrityOf(bytes);
  const entry: IndexVersion = {
    tarball: `${opts.tarballPrefix ?? ''}${fileName}`,
    integrity,
    size: bytes.length,
    ...(opts.publishedAt === undefined ? {} : { publishedAt: opts.publishedAt }),
    events: surface.events,
    surfaceHash: surface.surfaceHash,
  };
  return {
    file,
    integrity,
    size: bytes.length,
    name,
    version,
    description: plugin.description,
    keywords: plugin.manifest?.keywords ?? [],
    about: aboutOf(plugin.manifest),
    events: surface.events,
    surfaceHash: surface.surfaceHash,
    surface: surface.entries,
    entry,
  };
}

/**
 * registry.md A1 (the same files, the same bytes): the files `pack` writes, `<name>-<version>.tgz`
 * in `outDir` (by real path), for this version or another. Left out of the tarball, so packing
 * where an earlier tarball lies, as `hookpm pack .` in the plugin's own directory does, never
 * packs that tarball into the next one.
 */
async function ownTarballs(outDir: string, name: string): Promise<(path: string) => boolean> {
  const realOut = await realpath(outDir).catch(() => null);
  if (realOut === null) return () => false;
  const prefix = `${name}-`;
  return (path) => {
    const file = basename(path);
    if (dirname(path) !== realOut || !file.startsWith(prefix) || !file.endsWith('.tgz'))
      return false;
    return isVersionKey(file.slice(prefix.length, -'.tgz'.length));
  };
}

const MANIFEST_CODES: ReadonlySet<string> = new Set(['invalid_manifest']);

function publishable(plugin: LoadedPlugin, dir: string): { name: string; version: string } {
  const errors = plugin.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw refusal(errors, dir);
  if (plugin.manifest === null) {
    throw new HookpmError(
      'E_MANIFEST_INVALID',
      `cannot pack ${dir}: it has no manifest (plugin.json or .claude-plugin/plugin.json); a registry plugin needs one with a name and a version`,
      {
        file: dir,
        hint: 'Add .claude-plugin/plugin.json with {"name": "...", "version": "1.0.0"}.',
      },
    );
  }
  if (plugin.version === null) {
    throw new HookpmError(
      'E_MANIFEST_INVALID',
      `cannot pack ${plugin.name}: ${plugin.manifestFile ?? 'the manifest'} has no "version"; a semver version is required to publish`,
      {
        file: plugin.manifestFile,
        plugin: plugin.name,
        hint: 'Add "version": "1.0.0" to the manifest.',
      },
    );
  }
  // I1: an index names a version only as semver writes it; `v1.0.0` or `1.0.0+build` would make an
  // entry every registry refuses.
  if (!isVersionKey(plugin.version)) {
    const canonical = semver.valid(plugin.version);
    throw new HookpmError(
      'E_MANIFEST_INVALID',
      `cannot pack ${plugin.name}: ${plugin.manifestFile ?? 'the manifest'} has "version" ${JSON.stringify(plugin.version)}, which is not written as a registry version; expected ${JSON.stringify(canonical)}`,
      {
        file: plugin.manifestFile,
        plugin: plugin.name,
        hint: `Write the version as semver does, "${canonical ?? '1.0.0'}": no "v", spaces or "+build" part.`,
      },
    );
  }
  return { name: plugin.name, version: plugin.version };
}

/**
 * The installer's refusal of a tarball `pack` made, with a hint for the author: the file it names
 * is in the plugin directory (the installer's own hint tells a user to rebuild a tarball).
 */
function refusedFile(error: HookpmError, dir: string): HookpmError {
  return new HookpmError(error.code, error.message, {
    ...error.details,
    hint: `Rename or remove the file it names in ${dir} (a plugin's files need plain, distinct names), and pack again.`,
  });
}

function refusal(errors: readonly Diagnostic[], dir: string): HookpmError {
  const code: ErrorCode = errors.some((d) => d.code === 'invalid_plugin_name')
    ? 'E_NAME_INVALID'
    : errors.some((d) => MANIFEST_CODES.has(d.code))
      ? 'E_MANIFEST_INVALID'
      : 'E_HOOKS_INVALID';
  // One line: an error message is printed with its control characters escaped.
  const listed = firstOf(
    errors.map((d) => `${d.path ?? dir}: ${d.message}`),
    5,
    '; ',
  );
  return new HookpmError(code, `cannot pack ${dir}: ${errors.length} error(s): ${listed}`, {
    file: dir,
    hint: `Run \`hookpm validate ${shellWord(dir)}\` for every diagnostic, fix the errors, and pack again.`,
  });
}

/**
 * `--out` that cannot be made a directory: E_USAGE when a file is in its way, else E_IO; naming it.
 */
function outDirError(outDir: string, error: unknown): HookpmError {
  const code = errnoCode(error) ?? String(error);
  const notDir = code === 'EEXIST' || code === 'ENOTDIR';
  return new HookpmError(
    notDir ? 'E_USAGE' : 'E_IO',
    `cannot pack into ${outDir}: ${notDir ? 'it is not a directory' : 'it cannot be made'} (${code})`,
    {
      file: outDir,
      hint: 'Give --out a directory (it is made when missing), or move the file aside.',
    },
  );
}
