import { diagnostic, type Diagnostic } from '../hooks/diagnostic.js';
import { childPath, documentPath } from '../hooks/json-path.js';
import type { ManifestHooksField } from './manifest.js';

/**
 * Where a plugin's hooks come from (plugins.md H1-H4), as a plan the reader carries out: the
 * default document first, then the manifest's paths in their order, or its inline object.
 * Checking the path rules here is lexical; the reader adds what needs the file system
 * (symlinks resolving inside the root, H5; a directory meaning its hooks.json; loading a file
 * named twice only once).
 */
export type DocumentRequest =
  /** H1: `hooks/hooks.json`, or a file named `hooks`, when present. */
  | { kind: 'default' }
  /** H2: `relative` is the normalized path below the root (`extra.json`, `dir`). */
  | { kind: 'path'; declared: string; relative: string; at: string }
  /** H3: `document` is the whole hooks document the inline object stands for. */
  | { kind: 'inline'; document: unknown };

export const DEFAULT_SOURCE = 'hooks/hooks.json';
export const INLINE_SOURCE = 'plugin.json#hooks';

export interface HooksPlan {
  requests: DocumentRequest[];
  /** `plugin_hooks_failed` errors for paths that break the H2 rules, naming each path. */
  diagnostics: Diagnostic[];
}

/**
 * Plans the documents of a plugin from its manifest's `hooks` field (already type-checked by
 * the manifest schema). `manifestFile` (e.g. `.claude-plugin/plugin.json`) names the field in
 * diagnostics; `plugin` is the plugin's name, for messages.
 */
export function planHookDocuments(
  hooks: ManifestHooksField | undefined,
  where: { manifestFile: string; plugin: string },
): HooksPlan {
  const requests: DocumentRequest[] = [{ kind: 'default' }];
  const diagnostics: Diagnostic[] = [];
  if (hooks === undefined) return { requests, diagnostics };
  if (typeof hooks === 'object' && !Array.isArray(hooks)) {
    requests.push({ kind: 'inline', document: inlineDocument(hooks) });
    return { requests, diagnostics };
  }
  const field = childPath(documentPath(where.manifestFile), 'hooks');
  const paths = typeof hooks === 'string' ? [hooks] : hooks;
  paths.forEach((declared, index) => {
    const at = typeof hooks === 'string' ? field : childPath(field, index);
    const checked = checkHooksPath(declared);
    if (checked.ok) {
      requests.push({ kind: 'path', declared, relative: checked.relative, at });
      return;
    }
    const message = `plugin ${where.plugin}: ${at} ${JSON.stringify(declared)} ${checked.reason}; this path is not loaded`;
    diagnostics.push(diagnostic('plugin_hooks_failed', 'error', message, { path: at }));
  });
  return { requests, diagnostics };
}

/**
 * H3: an inline object that itself holds a `hooks` object is a whole document (it may carry a
 * `description`); anything else is the bare event map of one.
 */
export function inlineDocument(hooks: Readonly<Record<string, unknown>>): unknown {
  const inner = hooks.hooks;
  const whole = typeof inner === 'object' && inner !== null && !Array.isArray(inner);
  return whole ? hooks : { hooks };
}

export type PathCheck = { ok: true; relative: string } | { ok: false; reason: string };

/**
 * H2: a manifest hooks path starts with `./`, is not `./` itself, has no `..` segment and is not
 * absolute. Backslashes count as separators too, so `.\..\x` cannot slip through on any system.
 */
export function checkHooksPath(path: string): PathCheck {
  if (path.includes('\0')) return { ok: false, reason: 'contains a NUL character' };
  if (/^([\\/]|[A-Za-z]:)/.test(path))
    return { ok: false, reason: 'is absolute; it must start with "./"' };
  const segments = path.split(/[\\/]/);
  if (segments.includes('..'))
    return { ok: false, reason: 'contains a ".." segment; it must stay inside the plugin root' };
  if (!path.startsWith('./'))
    return { ok: false, reason: 'must start with "./" (relative to the plugin root)' };
  const kept = segments.filter((segment) => segment !== '' && segment !== '.');
  if (kept.length === 0)
    return { ok: false, reason: 'names the plugin root itself, not a hooks document' };
  return { ok: true, relative: kept.join('/') };
}
