import { realpathSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { HookpmError } from '../errors.js';
import { diagnostic, type Diagnostic } from '../hooks/diagnostic.js';
import { parseJson } from '../json/parse-json.js';
import type { LoadedPlugin, PluginDocument } from '../plugin/loaded-plugin.js';
import { parseManifest, type Manifest } from '../plugin/manifest.js';
import { isValidPluginName } from '../plugin/name.js';
import { bomWarning, loadDocuments } from './read-plugin-documents.js';
import { errorCode, locateInside, readTextNoFollow } from './plugin-files.js';

export type { LoadedPlugin, PluginDocument } from '../plugin/loaded-plugin.js';

export interface ReadPluginOptions {
  /** The name to use without a manifest (a marketplace entry's name); else the directory's. */
  fallbackName?: string;
  /** The plugin id (`name@registry`) put in every diagnostic's `plugin`; else the name. */
  id?: string;
}

/** P1: the manifest is the first of these found in the plugin root. */
const MANIFEST_FILES = ['plugin.json', '.claude-plugin/plugin.json'] as const;
/**
 * Not a manifest location (P1) but seen in real plugins (corpus fixture-custom-paths): reported
 * with a warning so its author knows why its name and hooks paths are not used.
 */
const NO_DOT_MANIFEST = 'claude-plugin/plugin.json';

/**
 * Reads a plugin directory: its manifest (P1, P2), every hooks document (H1-H5, each validated
 * like a user file with legacy off) and all their diagnostics. Never throws for what the plugin
 * contains; throws HookpmError E_NOT_FOUND when `root` is not a directory, E_IO when unreadable.
 */
export async function readPluginDir(
  root: string,
  opts: ReadPluginOptions = {},
): Promise<LoadedPlugin> {
  const realRoot = await realDirectory(root);
  const found = await readManifest(realRoot);
  const name = found.manifest?.name ?? opts.fallbackName ?? basename(resolve(root));
  const diagnostics = [...found.diagnostics];
  // An unusable manifest is already an error; the fallback name is then not worth a second one.
  const manifestBroken = found.file !== null && found.manifest === null;
  if (!isValidPluginName(name) && !manifestBroken) diagnostics.push(nameProblem(name, found));
  const loaded = await loadDocuments(realRoot, {
    // Messages quote a name that is not valid, so no plugin-supplied text reaches them raw.
    plugin: isValidPluginName(name) ? name : JSON.stringify(name),
    manifestFile: found.file ?? 'plugin.json',
    hooks: found.manifest?.hooks,
  });
  diagnostics.push(...loaded.diagnostics);
  const plugin = opts.id ?? name;
  return {
    root,
    manifestFile: found.file,
    manifest: found.manifest,
    name,
    version: found.manifest?.version ?? null,
    description: found.manifest?.description ?? null,
    documents: loaded.documents satisfies PluginDocument[],
    diagnostics: diagnostics.map((d) => ({ ...d, origin: 'plugin', plugin })),
  };
}

async function realDirectory(root: string): Promise<string> {
  try {
    const real = realpathSync.native(root);
    if (statSync(real).isDirectory()) return real;
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      throw new HookpmError('E_IO', `cannot read the plugin directory ${root}: ${code}`, {
        file: root,
      });
    }
  }
  throw new HookpmError(
    'E_NOT_FOUND',
    `plugin directory ${root} does not exist or is not a directory`,
    {
      hint: 'Give the path of a directory holding plugin.json, .claude-plugin/plugin.json or hooks/hooks.json.',
      file: root,
    },
  );
}

interface FoundManifest {
  file: string | null;
  manifest: Manifest | null;
  diagnostics: Diagnostic[];
}

async function readManifest(realRoot: string): Promise<FoundManifest> {
  const result: FoundManifest = { file: null, manifest: null, diagnostics: [] };
  for (const file of MANIFEST_FILES) {
    const located = await locateInside(realRoot, file);
    if (located.status === 'missing') continue;
    if (result.file !== null) {
      const message = `${file} is ignored: ${result.file} is found first and is the manifest (P1)`;
      result.diagnostics.push(diagnostic('ignored_manifest', 'warning', message, { path: file }));
      continue;
    }
    result.file = file;
    const read = await readManifestFile(file, located);
    result.manifest = read.manifest;
    result.diagnostics.push(...read.diagnostics);
  }
  if ((await locateInside(realRoot, NO_DOT_MANIFEST)).status !== 'missing') {
    const message = `${NO_DOT_MANIFEST} is not read: a manifest is plugin.json or .claude-plugin/plugin.json (P1); rename claude-plugin/ to .claude-plugin/ to use it`;
    result.diagnostics.push(
      diagnostic('ignored_manifest', 'warning', message, { path: NO_DOT_MANIFEST }),
    );
  }
  return result;
}

type LocatedManifest = Awaited<ReturnType<typeof locateInside>>;

async function readManifestFile(
  file: string,
  located: LocatedManifest,
): Promise<Omit<FoundManifest, 'file'>> {
  const fail = (why: string): Omit<FoundManifest, 'file'> => ({
    manifest: null,
    diagnostics: [diagnostic('invalid_manifest', 'error', `${file}: ${why}`, { path: file })],
  });
  if (located.status === 'outside')
    return fail('is a symlink that resolves outside the plugin root; it is not followed');
  if (located.status === 'error') return fail(located.reason);
  if (located.status !== 'file') return fail('is not a regular file');
  const read = await readTextNoFollow(located.real);
  if (!read.ok) return fail(read.reason);
  const json = parseJson(read.text, file);
  if (!json.ok) {
    return {
      manifest: null,
      diagnostics: [
        diagnostic(
          'invalid_manifest',
          'error',
          `${file}:${json.line}:${json.column}: invalid JSON: ${json.message}`,
          {
            path: file,
          },
        ),
      ],
    };
  }
  const parsed = parseManifest(json.value, file);
  if (json.bom) parsed.diagnostics.unshift(bomWarning(file));
  return parsed;
}

function nameProblem(name: string, found: FoundManifest): Diagnostic {
  const from =
    found.manifest !== null
      ? `the "name" of ${found.file}`
      : 'the directory name (no manifest name)';
  const message = `plugin name ${JSON.stringify(name)} (from ${from}) is invalid: expected 1-64 characters of a-z, 0-9, ".", "_" or "-", starting with a letter or digit`;
  const path = found.manifest !== null && found.file !== null ? `${found.file}:name` : undefined;
  return diagnostic('invalid_plugin_name', 'error', message, path === undefined ? {} : { path });
}
