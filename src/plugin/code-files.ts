import { compareCodeUnits } from '../json/compare.js';
import { byteView, scanForNames } from './file-names-in-text.js';

/**
 * The files part of what a user consents to (docs/guides/installing-plugins.md#consent): every file
 * of the plugin's tree, as the Q6 fingerprint lists it, has a role.
 * - `hooks`: the manifest and the hooks documents the surface is read from. They are compared
 *   through the surface (plugins.md Q5), so a new version number, a new description or hooks
 *   that are only removed keep today's rules - unless a code file names one (a script reading a
 *   setting of `plugin.json`): then it is code (ops/steps/review/docs-named-by-code.ts).
 * - `docs`: documentation, which no hook runs: Markdown, reStructuredText and AsciiDoc files,
 *   images, and README, LICENSE, COPYING, NOTICE, AUTHORS, CONTRIBUTORS, CHANGELOG, CHANGES and
 *   HISTORY (bare, with a `-suffix`, or with a text extension) - unless the file is executable
 *   or a handler names it (its path appears in a command, argv or args, or its name does as
 *   plugin/file-names-in-text.ts reads names: `cd "$CLAUDE_PLUGIN_ROOT/docs" && sh run.md`):
 *   then it is code. So is one a code file names, which the caller decides from the files'
 *   contents (ops/steps/review/docs-named-by-code.ts).
 * - `code`: every other file. A script, and any data it may read, decides what a hook does, so
 *   a change to any of them - content, mode, a file added or removed - waits for consent.
 */
export interface PluginFile {
  /** Relative, `/`-separated. */
  path: string;
  kind: 'file' | 'symlink' | 'other';
  /** SHA-256 hex of the content (of the link text for a symlink). */
  sha256: string;
  mode: number;
}

export type FileRole = 'code' | 'hooks' | 'docs';

export interface RoledFile extends PluginFile {
  role: FileRole;
}

export interface RoleInput {
  /** The manifest used (`.claude-plugin/plugin.json`), or null. */
  manifestFile: string | null;
  /** The manifest whose `hooks` is read, when it is another (`.claude-plugin/plugin.json`). */
  hooksManifestFile?: string | null;
  /** The plugin's documents' `source` labels (`hooks/hooks.json`, `./extra.json`, `plugin.json#hooks`). */
  documentSources: readonly string[];
  /** Every command, argv element and args element the plugin's handlers declare. */
  handlerText: readonly string[];
}

const DOC_EXTENSIONS = /\.(md|markdown|rst|adoc|png|jpe?g|gif|webp|svg|ico)$/;
const DOC_NAMES =
  /^(readme|license|licence|copying|notice|authors|contributors|changelog|changes|history)(-[a-z0-9]+)?(\.(txt|md|markdown|rst|adoc))?$/;

export function assignRoles(files: readonly PluginFile[], input: RoleInput): RoledFile[] {
  const hooks = new Set(
    [input.manifestFile, input.hooksManifestFile ?? null, ...input.documentSources]
      .filter((s): s is string => s !== null && !s.includes('#'))
      .map((s) => s.replace(/^\.\//, '')),
  );
  const named = namesInHandlers(files, input.handlerText);
  return files.map((file) => ({ ...file, role: roleOf(file, hooks, input.handlerText, named) }));
}

/** The base names (byteView) of `files` that the handlers' text names. */
function namesInHandlers(
  files: readonly PluginFile[],
  text: readonly string[],
): ReadonlySet<string> {
  const scanner = scanForNames(new Set(files.map((file) => byteView(baseName(file.path)))));
  for (const piece of text) {
    // Latin1 bytes, as the scanner compares; a space keeps two pieces from making one word.
    scanner.feed(`${Buffer.from(piece, 'utf8').toString('latin1')} `);
  }
  scanner.end();
  return scanner.found;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function roleOf(
  file: PluginFile,
  hooks: ReadonlySet<string>,
  text: readonly string[],
  named: ReadonlySet<string>,
): FileRole {
  if (text.some((t) => t.includes(file.path))) return 'code';
  if (named.has(byteView(baseName(file.path)))) return 'code';
  if (file.kind !== 'file' || (file.mode & 0o111) !== 0) return 'code';
  if (hooks.has(file.path)) return 'hooks';
  const base = baseName(file.path).toLowerCase();
  return DOC_EXTENSIONS.test(base) || DOC_NAMES.test(base) ? 'docs' : 'code';
}

/** What an update does to one compared file. */
export interface FileChange {
  path: string;
  status: 'added' | 'removed' | 'changed';
  before: RoledFile | null;
  after: RoledFile | null;
}

/**
 * The files compared between the consented tree and a new one: those that are code in either;
 * each one added, removed, or changed in kind, content or mode. Sorted by path.
 */
export function changedCodeFiles(
  before: readonly RoledFile[],
  after: readonly RoledFile[],
): FileChange[] {
  const old = new Map(before.map((f) => [f.path, f]));
  const next = new Map(after.map((f) => [f.path, f]));
  const paths = [...new Set([...old.keys(), ...next.keys()])].sort(compareCodeUnits);
  const changes: FileChange[] = [];
  for (const path of paths) {
    const a = old.get(path) ?? null;
    const b = next.get(path) ?? null;
    if (a?.role !== 'code' && b?.role !== 'code') continue;
    if (a === null) changes.push({ path, status: 'added', before: null, after: b });
    else if (b === null) changes.push({ path, status: 'removed', before: a, after: null });
    else if (a.kind !== b.kind || a.sha256 !== b.sha256 || a.mode !== b.mode)
      changes.push({ path, status: 'changed', before: a, after: b });
  }
  return changes;
}
