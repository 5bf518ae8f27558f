import { stat } from 'node:fs/promises';
import { readFailureReason, readRegularText } from '../../io/read-regular-file.js';
import { INDEX_MAX_BYTES } from '../../registry/http/fetch-options.js';
import { join } from 'node:path';
import { diagnostic, type Diagnostic } from '../../hooks/diagnostic.js';
import type { EventName } from '../../hooks/events.js';
import { childPath, documentPath } from '../../hooks/json-path.js';
import {
  resolveEntryPath,
  shownTreePath,
  type MarketplaceRoots,
} from '../../registry/marketplace/entry-path.js';
import { findRepositoryRoot } from '../../registry/git/git-fetch.js';
import {
  parseMarketplaceText,
  type MarketplaceEntry,
} from '../../registry/marketplace/marketplace-schema.js';
import { LOCAL_REGISTRY } from '../../registry/registry-name.js';
import { MARKETPLACE_FILE } from '../steps/catalogs/read-marketplace.js';
import {
  catalogLayoutOf,
  catalogRootOf,
  isCatalogFileName,
  shownCatalogFile,
} from '../../registry/marketplace/catalog-files.js';
import { findCatalogFile } from '../../registry/marketplace/read-catalog-file.js';
import { inspectPluginDir } from '../steps/staging/inspect.js';
import { measureTree } from '../../store/tree-size.js';
import { isHookpmError } from '../../errors.js';
import { describeValue } from '../../json/describe-value.js';
import { clip } from '../../text/clip.js';
import type { KindFindings } from './findings.js';

/**
 * `hookpm validate` takes a directory holding a catalog file (catalog-files.ts: the first found in
 * CATALOG_FILES order is the catalog), or such a file itself.
 */
export function isMarketplacePath(path: string, pathKind: string): boolean {
  if (pathKind === 'file') return isCatalogFileName(path);
  return pathKind === 'directory' && findCatalogFile(path) !== null;
}

/**
 * `hookpm validate <marketplace>` (kind "marketplace"): the catalog (marketplace-schema.ts), each
 * entry's source, and every `./` source that exists here, validated as a plugin directory (its
 * diagnostics prefixed with the source path). A `./` source leaving the repository (or, outside any
 * git work tree, the marketplace root) is an error naming the entry; one that is missing here is a
 * warning (a marketplace may be validated without its plugins); one over the tree limits
 * (tree-size.ts) is an error with the message `registry add` and `install` give
 * (docs/design/decisions.md#plugins-and-marketplaces). `plugins` lists the valid entries.
 */
export async function validateMarketplace(path: string): Promise<KindFindings> {
  const file = (await stat(path)).isFile()
    ? path
    : (findCatalogFile(path) ?? join(path, MARKETPLACE_FILE));
  const shown = shownCatalogFile(file);
  let text: string;
  try {
    // A FIFO or a device given as the catalog is refused at once (registry.md D7).
    text = readRegularText(file, { maxBytes: INDEX_MAX_BYTES, followSymlink: true });
  } catch (error) {
    const message = `${file}: cannot read the marketplace: ${readFailureReason(error)}`;
    return {
      events: [],
      diagnostics: [diagnostic('invalid_marketplace', 'error', message, { path: file })],
      plugins: [],
    };
  }
  const parsed = parseMarketplaceText(text, shown, {
    layout: catalogLayoutOf(file),
    origin: 'local',
  });
  if (parsed.marketplace === null)
    return { events: [], diagnostics: parsed.diagnostics, plugins: [] };
  const root = catalogRootOf(file);
  const roots: MarketplaceRoots = { root, boundary: (await findRepositoryRoot(root)) ?? root };
  const diagnostics = [...parsed.diagnostics];
  const events: EventName[] = [];
  const plugins: string[] = [];
  for (const entry of parsed.marketplace.plugins) {
    const ok =
      entry.source.kind !== 'path' ||
      (await checkLocal(entry, roots, shown, { diagnostics, events }));
    if (ok) plugins.push(entry.name);
  }
  return { events, diagnostics, plugins };
}

interface Sink {
  diagnostics: Diagnostic[];
  events: EventName[];
}

async function checkLocal(
  entry: MarketplaceEntry,
  roots: MarketplaceRoots,
  file: string,
  sink: Sink,
): Promise<boolean> {
  if (entry.source.kind !== 'path') return true;
  const at = childPath(childPath(childPath(documentPath(file), 'plugins'), entry.index), 'source');
  const label = `${file}:plugins[${entry.index}] (${JSON.stringify(entry.name)})`;
  const target = resolveEntryPath(roots, entry.source.path);
  if (target === null) {
    const message = `${label}: source ${describeValue(entry.source.path)} resolves outside ${roots.boundary === roots.root ? 'the marketplace root' : 'the repository'} (relative sources resolve against the directory holding .claude-plugin/ and must stay inside the repository)`;
    sink.diagnostics.push(diagnostic('invalid_marketplace_entry', 'error', message, { path: at }));
    return false;
  }
  const kind = await stat(target).then(
    (s) => (s.isDirectory() ? 'directory' : 'other'),
    () => 'missing',
  );
  if (kind !== 'directory') {
    const message = `${label}: source ${describeValue(entry.source.path)} is not a directory here (${clip(target)}); its plugin is not checked`;
    sink.diagnostics.push(
      diagnostic('marketplace_source_missing', 'warning', message, { path: at }),
    );
    return true;
  }
  const oversize = await measureTree(target, shownTreePath(entry.source.path)).then(
    () => null,
    (error: unknown) => {
      if (isHookpmError(error, 'E_ARCHIVE_TOO_LARGE')) return error.message;
      throw error;
    },
  );
  if (oversize !== null) {
    const message = `${label}: ${oversize}`;
    sink.diagnostics.push(diagnostic('invalid_marketplace_entry', 'error', message, { path: at }));
    return false;
  }
  const inspected = await inspectPluginDir(target, {
    fallbackName: entry.name,
    registry: LOCAL_REGISTRY,
  });
  const findings = { events: inspected.surface.events, diagnostics: inspected.plugin.diagnostics };
  for (const d of findings.diagnostics) {
    sink.diagnostics.push({
      ...d,
      path: `${entry.source.path}/${d.path ?? ''}`.replace(/^\.\//, ''),
    });
  }
  for (const event of findings.events) if (!sink.events.includes(event)) sink.events.push(event);
  return !findings.diagnostics.some((d) => d.severity === 'error');
}
