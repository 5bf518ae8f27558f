import { z } from '../../json/zod.js';
import { describeValue, isPlainObject } from '../../json/describe-value.js';
import { diagnostic, type Diagnostic } from '../../hooks/diagnostic.js';
import { childPath, documentPath } from '../../hooks/json-path.js';
import { parseJson } from '../../json/parse-json.js';
import { normalizeRelativePath } from './marketplace-source-schema.js';
import { formatIssue } from '../indexes/schema-issue.js';
import { catalogLayoutOf, type CatalogLayout } from './catalog-files.js';
import type { CatalogOrigin } from './source-origin.js';
import { parseEntry, type MarketplaceEntry } from './marketplace-entry.js';

export type { EntrySource } from './marketplace-source-schema.js';
export type { MarketplaceEntry } from './marketplace-entry.js';
export type { CatalogOrigin } from './source-origin.js';

/**
 * The Claude Code marketplace catalog, `.claude-plugin/marketplace.json`
 * (docs/reference/rules/registry.md#registry-kinds, kind marketplace). The marketplace's own `name`
 * is a label for people: hookpm names a registry by `hookpm registry add <name>`, so any non-empty
 * string is accepted (the corpus has `Mixedbread-Grep`). Entry names are plugin names and follow
 * P3.
 */
const Owner = z.looseObject({
  name: z.string(),
  email: z.optional(z.string()),
  url: z.optional(z.string()),
});
const Metadata = z.looseObject({
  description: z.optional(z.string()),
  version: z.optional(z.string()),
  pluginRoot: z.optional(z.string()),
});
const DocumentSchema = z.looseObject({
  name: z.string().check(z.minLength(1)),
  owner: Owner,
  description: z.optional(z.string()),
  metadata: z.optional(Metadata),
  plugins: z.array(z.unknown()),
});
/** Codex's `.agents/plugins/marketplace.json` (G10): no `owner`; `interface.displayName` instead. */
const AgentsDocumentSchema = z.extend(DocumentSchema, {
  owner: z.optional(Owner),
  interface: z.optional(z.looseObject({ displayName: z.optional(z.string()) })),
});
/** Cursor's `.cursor-plugin/marketplace.json` (G13): Claude Code's document, `owner` optional. */
const CursorDocumentSchema = z.extend(DocumentSchema, { owner: z.optional(Owner) });
const DOCUMENT_SCHEMAS = {
  claude: DocumentSchema,
  agents: AgentsDocumentSchema,
  cursor: CursorDocumentSchema,
} as const;

export interface Marketplace {
  name: string;
  owner: z.infer<typeof Owner>;
  description?: string;
  version?: string;
  /** `metadata.pluginRoot`, normalised: prepended to bare relative sources. */
  pluginRoot?: string;
  /** The valid entries; an invalid one is left out with an error diagnostic naming it. */
  plugins: MarketplaceEntry[];
}

/**
 * An entry the marketplace lists but hookpm leaves out: the name it gives (null when it gives no
 * string) and why, in words that name the entry (`marketplace.json:plugins[3] ("foo"): ...`).
 */
export interface ExcludedEntry {
  name: string | null;
  message: string;
  /** The error code of why it was left out (e.g. E_ARCHIVE_TOO_LARGE); E_REGISTRY_SCHEMA if absent. */
  code?: string;
  /** The hint of that error, shown again when it is installed. */
  hint?: string;
}

/** How many left-out entries a registry keeps of a catalog, with why; `registry add` warns of each. */
export const MAX_EXCLUDED = 100;

export interface ParsedMarketplace {
  /** null when the document itself is unusable (not an object, no name/owner/plugins). */
  marketplace: Marketplace | null;
  /** `invalid_marketplace` (the document) and `invalid_marketplace_entry` (one entry) errors. */
  diagnostics: Diagnostic[];
  /** The entries left out of `marketplace.plugins`, in document order. */
  excluded: ExcludedEntry[];
  /**
   * How many more entries are left out past `maxExcluded` (ParseMarketplaceOptions), counted only:
   * no diagnostic and no ExcludedEntry is made of them.
   */
  excludedMore: number;
}

export interface ParseMarketplaceOptions {
  /** The catalog file's format; by default told from `file`'s name (catalog-files.ts). */
  layout?: CatalogLayout;
  /**
   * Where the catalog was read from (source-origin.ts): from a `remote` one, an entry whose
   * source is a location on this machine is left out with E_INSECURE_URL (registry.md J14).
   * `local` by default: `hookpm validate` reads files on this machine only.
   */
  origin?: CatalogOrigin;
  /**
   * At most this many left-out entries get a diagnostic and an ExcludedEntry; the rest are counted
   * (`excludedMore`). Unbounded by default: `hookpm validate` lists every one. A registry's reading
   * bounds it, so that a catalog of millions of invalid entries holds bounded memory.
   */
  maxExcluded?: number;
}

/**
 * Checks a decoded marketplace.json. An invalid entry is rejected with an error naming its index
 * and name (`marketplace.json:plugins[3] ("foo"): source.url ...`) while the valid entries stay;
 * two entries with one name keep the first. `file` names the document in paths and messages.
 */
export function parseMarketplace(
  value: unknown,
  file: string,
  opts: ParseMarketplaceOptions = {},
): ParsedMarketplace {
  const layout = opts.layout ?? catalogLayoutOf(file);
  const origin = opts.origin ?? 'local';
  const root = documentPath(file);
  const parsed = DOCUMENT_SCHEMAS[layout].safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue === undefined ? '' : issue.path.map(String).join('.');
    const what = isPlainObject(value)
      ? `${field === '' ? 'the document' : field} ${issue === undefined ? 'is invalid' : formatIssue(issue, value)}`
      : `must be a JSON object, found ${describeValue(value)}`;
    const needs =
      layout !== 'claude'
        ? '"name" and a "plugins" array'
        : '"name", "owner" {name} and a "plugins" array';
    const message = `${file}: not a marketplace catalog: ${what} (a marketplace has ${needs})`;
    return {
      marketplace: null,
      diagnostics: [
        diagnostic('invalid_marketplace', 'error', message, {
          path: field === '' ? file : `${root}${field}`,
        }),
      ],
      excluded: [],
      excludedMore: 0,
    };
  }
  const doc = parsed.data;
  const diagnostics: Diagnostic[] = [];
  const pluginRoot = readPluginRoot(doc.metadata?.pluginRoot, file, diagnostics);
  const plugins: MarketplaceEntry[] = [];
  const excluded: ExcludedEntry[] = [];
  const seen = new Set<string>();
  const maxExcluded = opts.maxExcluded ?? Infinity;
  let excludedMore = 0;
  doc.plugins.forEach((raw, index) => {
    const at = childPath(childPath(root, 'plugins'), index);
    const entry = parseEntry(raw, { index, pluginRoot, at, layout, origin });
    const counted = excluded.length >= maxExcluded;
    if (counted && ('problems' in entry || seen.has(entry.name))) {
      excludedMore += 1;
      return;
    }
    if ('problems' in entry) {
      for (const p of entry.problems)
        diagnostics.push(
          diagnostic('invalid_marketplace_entry', 'error', p.message, { path: p.path }),
        );
      const name = isPlainObject(raw) && typeof raw['name'] === 'string' ? raw['name'] : null;
      const message = entry.problems.map((p) => p.message).join('; ');
      excluded.push({ name, message, ...entry.refused });
      return;
    }
    if (seen.has(entry.name)) {
      const message = `${at} (${JSON.stringify(entry.name)}): a plugin of this name is listed earlier; this entry is ignored`;
      diagnostics.push(
        diagnostic('invalid_marketplace_entry', 'error', message, { path: childPath(at, 'name') }),
      );
      excluded.push({ name: entry.name, message });
      return;
    }
    seen.add(entry.name);
    plugins.push(entry);
  });
  const owner = doc.owner ?? { name: agentsDisplayName(doc) ?? doc.name };
  const marketplace: Marketplace = { name: doc.name, owner, plugins };
  const description = doc.description ?? doc.metadata?.description;
  if (description !== undefined) marketplace.description = description;
  if (doc.metadata?.version !== undefined) marketplace.version = doc.metadata.version;
  if (pluginRoot !== undefined) marketplace.pluginRoot = pluginRoot;
  return { marketplace, diagnostics, excluded, excludedMore };
}

/** Parses marketplace.json text strictly (P4: position of invalid JSON, duplicate keys), then checks it. */
export function parseMarketplaceText(
  text: string,
  file: string,
  opts: ParseMarketplaceOptions,
): ParsedMarketplace {
  const json = parseJson(text, file);
  if (!json.ok) {
    const message = `${file}:${json.line}:${json.column}: invalid JSON: ${json.message}`;
    return {
      marketplace: null,
      diagnostics: [diagnostic('invalid_marketplace', 'error', message, { path: file })],
      excluded: [],
      excludedMore: 0,
    };
  }
  const parsed = parseMarketplace(json.value, file, opts);
  if (json.bom) {
    const message = `${file}: starts with a byte-order mark; it is accepted, but remove it`;
    parsed.diagnostics.unshift(diagnostic('byte_order_mark', 'warning', message, { path: file }));
  }
  return parsed;
}

function agentsDisplayName(doc: Record<string, unknown>): string | undefined {
  const face = doc['interface'];
  const name = isPlainObject(face) ? face['displayName'] : undefined;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

function readPluginRoot(
  value: string | undefined,
  file: string,
  diagnostics: Diagnostic[],
): string | undefined {
  if (value === undefined) return undefined;
  const normal = normalizeRelativePath(value);
  if ('path' in normal && normal.climbs === 0)
    return normal.path === '.' ? undefined : `./${normal.path}`;
  const message = `${file}:metadata.pluginRoot ${describeValue(value)} must be a relative path inside the marketplace; it is ignored`;
  diagnostics.push(
    diagnostic('invalid_marketplace', 'error', message, { path: `${file}:metadata.pluginRoot` }),
  );
  return undefined;
}
