import { join } from 'node:path';
import { diagnostic, type Diagnostic } from '../hooks/diagnostic.js';
import { parseHooksDocument } from '../hooks/parse-document.js';
import { parseJson } from '../json/parse-json.js';
import type { PluginDocument } from '../plugin/loaded-plugin.js';
import type { ManifestHooksField } from '../plugin/manifest.js';
import {
  DEFAULT_SOURCE,
  INLINE_SOURCE,
  planHookDocuments,
  type DocumentRequest,
} from '../plugin/resolve-hooks.js';
import {
  locateInside,
  MAX_DOCUMENTS_BYTES,
  readTextNoFollow,
  throughSymlink,
  type Located,
} from './plugin-files.js';

export interface DocumentsWhere {
  plugin: string;
  manifestFile: string;
  hooks: ManifestHooksField | undefined;
}

export interface LoadedDocuments {
  documents: PluginDocument[];
  diagnostics: Diagnostic[];
}

/**
 * A file to load: its source label, the manifest field that named it (H2), its path below the root
 * and where it is.
 */
interface Target {
  source: string;
  at: string | null;
  relative: string;
  located: Located;
}

/**
 * Carries out the H1-H4 plan: documents in order, each file loaded once, a broken document
 * reported with the plugin and file and skipped while the others load (H4), symlinks resolving
 * outside the root never followed (H5). A file is the same as another when its real path is, unless
 * a symlink leads to it: an installed copy holds a file of its own there (documentKey).
 */
export async function loadDocuments(
  realRoot: string,
  where: DocumentsWhere,
): Promise<LoadedDocuments> {
  const plan = planHookDocuments(where.hooks, where);
  const out: LoadedDocuments = { documents: [], diagnostics: [...plan.diagnostics] };
  const seen = new Map<string, string>();
  let bytes = 0;
  for (const request of plan.requests) {
    if (request.kind === 'inline') {
      out.documents.push(parseDocument(request.document, INLINE_SOURCE, out.diagnostics));
      continue;
    }
    const target = await locateRequest(realRoot, request);
    if (target === null) continue;
    const problem = targetProblem(target);
    if (problem !== null) {
      fail(out, where.plugin, target, problem);
      continue;
    }
    const key = documentKey(realRoot, target);
    const first = seen.get(key);
    if (first !== undefined) {
      const message = `plugin ${where.plugin}: ${target.at ?? target.source} names ${first} again; it is loaded once`;
      out.diagnostics.push(
        diagnostic('duplicate_document', 'warning', message, { path: target.at ?? target.source }),
      );
      continue;
    }
    seen.set(key, target.source);
    const { real, size } = target.located as { real: string; size: number };
    if (bytes + size > MAX_DOCUMENTS_BYTES) {
      fail(out, where.plugin, target, TOO_MUCH);
      continue;
    }
    bytes += size;
    out.documents.push(await loadFile(real, target.source, where.plugin, out.diagnostics));
  }
  return out;
}

const TOO_MUCH = `would bring the plugin's hooks documents past ${MAX_DOCUMENTS_BYTES} bytes in all, the most a plugin tree holds`;

/**
 * What makes two requests one document: the file's real path, which also folds the case on a file
 * system that ignores it; for a path through a symlink, the path itself, since the copy that is
 * installed (and the tarball `pack` makes) holds a file of its own where the link was, so the
 * directory and its copy load the same documents and show one surface.
 */
function documentKey(realRoot: string, target: Target): string {
  if (throughSymlink(realRoot, target.relative))
    return join(realRoot, ...target.relative.split('/'));
  return (target.located as { real: string }).real;
}

/** null: the default document is absent, which is not a problem (H1). */
async function locateRequest(
  realRoot: string,
  request: Exclude<DocumentRequest, { kind: 'inline' }>,
): Promise<Target | null> {
  if (request.kind === 'default') {
    const hooks = await locateInside(realRoot, 'hooks');
    if (hooks.status === 'missing') return null;
    if (hooks.status !== 'directory')
      return { source: 'hooks', at: null, relative: 'hooks', located: hooks };
    const located = await locateInside(realRoot, DEFAULT_SOURCE);
    if (located.status === 'missing') return null;
    return { source: DEFAULT_SOURCE, at: null, relative: DEFAULT_SOURCE, located };
  }
  const { relative, at } = request;
  const located = await locateInside(realRoot, relative);
  if (located.status !== 'directory') return { source: `./${relative}`, at, relative, located };
  const inner = `${relative}/hooks.json`;
  return {
    source: `./${inner}`,
    at,
    relative: inner,
    located: await locateInside(realRoot, inner),
  };
}

function targetProblem(target: Target): string | null {
  const { located } = target;
  switch (located.status) {
    case 'file':
      return null;
    case 'missing':
      return 'does not exist';
    case 'outside':
      return 'resolves outside the plugin root (through a symlink); it is not followed';
    case 'error':
      return located.reason;
    default:
      return 'is not a regular file';
  }
}

function fail(out: LoadedDocuments, plugin: string, target: Target, why: string): void {
  const named = target.at === null ? target.source : `${target.source} (named by ${target.at})`;
  const message = `plugin ${plugin}: hooks document ${named} ${why}; it is not loaded`;
  out.diagnostics.push(
    diagnostic('plugin_hooks_failed', 'error', message, { path: target.at ?? target.source }),
  );
}

async function loadFile(
  real: string,
  source: string,
  plugin: string,
  diagnostics: Diagnostic[],
): Promise<PluginDocument> {
  const broken = (message: string): PluginDocument => {
    diagnostics.push(
      diagnostic('plugin_hooks_failed', 'error', `plugin ${plugin}: ${message}; it is not loaded`, {
        path: source,
      }),
    );
    return { source, config: null, declared: [] };
  };
  const read = await readTextNoFollow(real);
  if (!read.ok) return broken(`hooks document ${source}: ${read.reason}`);
  const json = parseJson(read.text, source);
  if (!json.ok)
    return broken(`${source}:${json.line}:${json.column}: invalid JSON: ${json.message}`);
  if (json.bom) diagnostics.push(bomWarning(source));
  return parseDocument(json.value, source, diagnostics);
}

/**
 * P4: problems inside a document of the hooks shape (an unknown event, an invalid handler) do not
 * block installing: they are warnings here and their entries stay inert. A document that is not
 * of the hooks shape at all (C2, config null) stays an error.
 */
function parseDocument(value: unknown, source: string, diagnostics: Diagnostic[]): PluginDocument {
  const parsed = parseHooksDocument(value, { file: source, legacy: false });
  for (const d of parsed.diagnostics) {
    diagnostics.push(
      parsed.config !== null && d.severity === 'error' ? { ...d, severity: 'warning' } : d,
    );
  }
  return { source, config: parsed.config, declared: parsed.declared };
}

export function bomWarning(file: string): Diagnostic {
  const message = `${file} starts with a byte-order mark; it is accepted and ignored`;
  return diagnostic('byte_order_mark', 'warning', message, { path: file });
}
