import { realpathSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { HookpmError } from '../errors.js';
import { diagnostic, type Diagnostic } from '../hooks/diagnostic.js';
import { canonicalJson } from '../json/canonical-json.js';
import { parseJson } from '../json/parse-json.js';
import type { LoadedPlugin, PluginDocument } from '../plugin/loaded-plugin.js';
import { parseManifest, type Manifest } from '../plugin/manifest.js';
import { isValidPluginName } from '../plugin/name.js';
import { DEFAULT_SOURCE, planHookDocuments } from '../plugin/resolve-hooks.js';
import { clip } from '../text/clip.js';
import { bomWarning, loadDocuments } from './read-plugin-documents.js';
import { errorCode, locateInside, readTextNoFollow } from './plugin-files.js';

export type { LoadedPlugin, PluginDocument } from '../plugin/loaded-plugin.js';

export interface ReadPluginOptions {
  /** The name to use without a manifest (a marketplace entry's name); else the directory's. */
  fallbackName?: string;
  /** The plugin id (`name@registry`) put in every diagnostic's `plugin`; else the name. */
  id?: string;
}

/**
 * P1 and G5: the manifest is the first of these found in the plugin root: the cross-agent root
 * one, Claude Code's, Codex's, Cursor's.
 */
export const MANIFEST_FILES = [
  'plugin.json',
  '.claude-plugin/plugin.json',
  '.codex-plugin/plugin.json',
  '.cursor-plugin/plugin.json',
] as const;
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
    manifestFile: found.hooksFile ?? 'plugin.json',
    hooks: found.hooks,
  });
  for (const d of loaded.diagnostics) diagnostics.push(d);
  const plugin = opts.id ?? name;
  return {
    root,
    manifestFile: found.file,
    hooksManifestFile: found.hooksFile,
    manifest: found.manifest,
    name,
    version: found.manifest?.version ?? null,
    description: found.manifest?.description ?? null,
    documents: loaded.documents satisfies PluginDocument[],
    diagnostics: diagnostics.map((d) => ({ ...d, origin: 'plugin', plugin })),
  };
}

/**
 * H1-H3: the files below the plugin directory `root` that hooks documents are read from, by their
 * `/`-separated path, each with the manifest field that names it (null: the default, `hooks` or
 * `hooks/hooks.json`); a named path also as `<path>/hooks.json`, read when it is a directory.
 */
export async function documentFiles(root: string): Promise<Map<string, string | null>> {
  const found = await readManifest(await realDirectory(root));
  const files = new Map<string, string | null>([
    ['hooks', null],
    [DEFAULT_SOURCE, null],
  ]);
  const where = { manifestFile: found.hooksFile ?? 'plugin.json', plugin: '' };
  for (const request of planHookDocuments(found.hooks, where).requests) {
    if (request.kind !== 'path') continue;
    if (!files.has(request.relative)) files.set(request.relative, request.at);
    if (!files.has(`${request.relative}/hooks.json`))
      files.set(`${request.relative}/hooks.json`, request.at);
  }
  return files;
}

async function realDirectory(root: string): Promise<string> {
  try {
    const real = realpathSync.native(root);
    if (statSync(real).isDirectory()) return real;
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      throw new HookpmError('E_IO', `cannot read the plugin directory ${clip(root)}: ${code}`, {
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
  /** The manifest whose `hooks` field declares the plugin's hooks (see readManifest). */
  hooksFile: string | null;
  hooks: Manifest['hooks'];
  diagnostics: Diagnostic[];
}

const CLAUDE_MANIFEST = MANIFEST_FILES[1];
/** Cursor's manifest names Cursor-format hooks files: its `hooks` is never read (G5). */
const CURSOR_MANIFEST = MANIFEST_FILES[3];

/**
 * P1, and several manifests side by side (docs/design/decisions.md#plugins-and-marketplaces,
 * plugins.md G5): the first found gives the name, version and other fields (P1); every one found
 * is read and held to the same rules (an error in one is an error of the plugin, P4). The hooks
 * come from `.claude-plugin/plugin.json` when there is one, as in Claude Code, which reads no other
 * manifest; else from the first found that is not Cursor's (whose `hooks` names Cursor-format
 * files). A `hooks` field of another manifest, a different name or a different version is
 * reported with an `ignored_manifest` warning naming both files, so no declaration is dropped
 * without a word.
 */
async function readManifest(realRoot: string): Promise<FoundManifest> {
  const found: Array<{ file: string; read: ReadManifest }> = [];
  for (const file of MANIFEST_FILES) {
    const located = await locateInside(realRoot, file);
    if (located.status !== 'missing')
      found.push({ file, read: await readManifestFile(file, located) });
  }
  const diagnostics = found.flatMap((f) => f.read.diagnostics);
  if ((await locateInside(realRoot, NO_DOT_MANIFEST)).status !== 'missing') {
    const message = `${NO_DOT_MANIFEST} is not read: a manifest is plugin.json or .claude-plugin/plugin.json; rename claude-plugin/ to .claude-plugin/ to use it`;
    diagnostics.push(diagnostic('ignored_manifest', 'warning', message, { path: NO_DOT_MANIFEST }));
  }
  const first = found[0];
  if (first === undefined)
    return { file: null, manifest: null, hooksFile: null, hooks: undefined, diagnostics };
  const hooksFrom =
    found.find((f) => f.file === CLAUDE_MANIFEST) ??
    found.find((f) => f.file !== CURSOR_MANIFEST) ??
    null;
  const manifest = first.read.manifest;
  if (found.length === 1 && hooksFrom !== null) {
    const hooks = manifest?.hooks;
    return { file: first.file, manifest, hooksFile: first.file, hooks, diagnostics };
  }
  for (const other of found) {
    if (other !== hooksFrom) diagnostics.push(...ignoredHooks(other, hooksFrom));
    if (other !== first) diagnostics.push(...disagreements(first, other));
  }
  const { hooks: _firstHooks, ...identity } = manifest ?? {};
  const kept = manifest === null ? null : (identity as Manifest);
  return {
    file: first.file,
    manifest: kept,
    hooksFile: hooksFrom?.file ?? null,
    hooks: hooksFrom?.read.manifest?.hooks,
    diagnostics,
  };
}

interface FoundFile {
  file: string;
  read: ReadManifest;
}

/** The `ignored_manifest` warning for a `hooks` field of a manifest that does not declare them. */
function ignoredHooks(other: FoundFile, hooksFrom: FoundFile | null): Diagnostic[] {
  const mine = other.read.manifest?.hooks;
  if (mine === undefined) return [];
  const theirs = hooksFrom?.read.manifest?.hooks;
  if (hooksFrom !== null && canonicalJson(mine) === canonicalJson(theirs ?? null)) return [];
  const declares =
    hooksFrom === null
      ? 'no manifest declares them here (hooks/hooks.json alone)'
      : `${hooksFrom.file} ${hooksFrom.file === CLAUDE_MANIFEST ? 'is the Claude Code manifest and declares' : 'declares'} the hooks (${theirs === undefined ? 'none besides hooks/hooks.json' : `${hooksFrom.file}:hooks`})`;
  const message = `${other.file}:hooks is not loaded: ${declares}; move the declaration there to use it`;
  return [diagnostic('ignored_manifest', 'warning', message, { path: `${other.file}:hooks` })];
}

/** The `ignored_manifest` warnings for a name or version that differs from the first manifest's. */
function disagreements(first: FoundFile, other: FoundFile): Diagnostic[] {
  const out: Diagnostic[] = [];
  const [root, them] = [first.read.manifest, other.read.manifest];
  if (root === null || them === null) return out;
  for (const field of ['name', 'version'] as const) {
    const [mine, theirs] = [root[field], them[field]];
    if (theirs === undefined || mine === theirs) continue;
    const message = `${other.file}:${field} ${JSON.stringify(theirs)} differs from ${first.file}:${field} ${JSON.stringify(mine ?? null)}; hookpm uses ${first.file}'s, the first manifest found`;
    out.push(
      diagnostic('ignored_manifest', 'warning', message, { path: `${other.file}:${field}` }),
    );
  }
  return out;
}

type LocatedManifest = Awaited<ReturnType<typeof locateInside>>;
type ReadManifest = Pick<FoundManifest, 'manifest' | 'diagnostics'>;

async function readManifestFile(file: string, located: LocatedManifest): Promise<ReadManifest> {
  const fail = (why: string): ReadManifest => ({
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
  const message = `plugin name ${JSON.stringify(clip(name))} (from ${from}) is invalid: expected 1-64 characters of a-z, 0-9, ".", "_" or "-", starting with a letter or digit`;
  const path = found.manifest !== null && found.file !== null ? `${found.file}:name` : undefined;
  return diagnostic('invalid_plugin_name', 'error', message, path === undefined ? {} : { path });
}
