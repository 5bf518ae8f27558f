import { z } from '../../json/zod.js';
import { describeValue, isPlainObject } from '../../json/describe-value.js';
import { childPath } from '../../hooks/json-path.js';
import { expectedOfField, ManifestSchema, type Manifest } from '../../plugin/manifest.js';
import { isValidPluginName } from '../../plugin/name.js';
import { checkHooksPath } from '../../plugin/resolve-hooks.js';
import { parseEntrySource, type EntrySource } from './marketplace-source-schema.js';
import { formatIssue } from '../indexes/schema-issue.js';
import type { CatalogLayout } from './catalog-files.js';
import { parseAgentsEntry } from './agents-entry.js';
import { checkSourceOrigin, type CatalogOrigin } from './source-origin.js';

/*
 * One entry of a marketplace catalog's `plugins` (marketplace-schema.ts reads the catalog): its
 * manifest fields (P2), its source, and what its catalog's origin allows it to name (J14).
 */

/** An entry's fields: the manifest's (P2), checked the same way, plus the catalog's own. */
const EntrySchema = z.extend(ManifestSchema, {
  category: z.optional(z.string()),
  tags: z.optional(z.array(z.string())),
  strict: z.optional(z.boolean()),
});

export interface MarketplaceEntry {
  /** The entry's position in `plugins`. */
  index: number;
  name: string;
  source: EntrySource;
  /** The entry's manifest fields (name, version, description, author, keywords, hooks, ...). */
  manifest: Manifest;
  category?: string;
  tags: string[];
  /** Claude Code's `strict` (default true); `false` means the entry is the whole manifest. */
  strict: boolean;
}

/** `refused`: the code and hint of an entry left out for its catalog's origin (J14). */
export type EntryResult =
  | MarketplaceEntry
  | {
      problems: { path: string; message: string }[];
      refused?: { code: 'E_INSECURE_URL'; hint: string };
    };

export interface EntryContext {
  index: number;
  pluginRoot: string | undefined;
  at: string;
  layout: CatalogLayout;
  origin: CatalogOrigin;
}

/**
 * One entry of `plugins` checked: the entry, or the problems that leave it out, each naming it
 * (`marketplace.json:plugins[3] ("foo"): ...`); `refused` when its catalog's origin may not name
 * its source (J14).
 */
export function parseEntry(raw: unknown, ctx: EntryContext): EntryResult {
  const { index, pluginRoot, at, layout } = ctx;
  if (!isPlainObject(raw))
    return {
      problems: [
        {
          path: at,
          message: `${at}: a plugin entry must be an object, found ${describeValue(raw)}`,
        },
      ],
    };
  const rawName = raw['name'];
  const label = `${at} (${typeof rawName === 'string' ? JSON.stringify(rawName.slice(0, 80)) : 'no name'})`;
  const problems: { path: string; message: string }[] = [];
  if (!isValidPluginName(rawName)) {
    problems.push({
      path: childPath(at, 'name'),
      message: `${label}: name ${describeValue(rawName)} is not a valid plugin name: expected 1-64 characters of a-z, 0-9, ".", "_" or "-", starting with a letter or digit`,
    });
  }
  const fields = EntrySchema.safeParse(raw);
  for (const issue of fields.success ? [] : fields.error.issues) {
    if (issue.path[0] === 'name') continue;
    const field = issue.path.map(String).join('.');
    // A field of several shapes (hooks, author, repository) is told as a manifest's is (P2).
    const expected = issue.code === 'invalid_union' ? expectedOfField(field) : undefined;
    const words =
      expected === undefined
        ? formatIssue(issue, raw)
        : `must be ${expected}, found ${describeValue(raw[field])}`;
    problems.push({
      path: childPath(at, String(issue.path[0] ?? '')),
      message: `${label}: ${field} ${words}`,
    });
  }
  if (fields.success) problems.push(...hooksPathProblems(fields.data.hooks, at, label));
  const agents = layout === 'agents' ? parseAgentsEntry(raw) : { source: null };
  const source =
    'problem' in agents ? agents : (agents.source ?? parseEntrySource(raw['source'], pluginRoot));
  if ('problem' in source)
    problems.push({
      path: childPath(at, source.at.split('.')[0] ?? 'source'),
      message: `${label}: ${source.at} ${source.problem}`,
    });
  if (problems.length > 0 || !fields.success || 'problem' in source) return { problems };
  const refused = checkSourceOrigin(source, ctx.origin);
  if (refused !== null) {
    const path = childPath(at, 'source');
    const message = `${label}: ${refused.at} ${refused.problem}`;
    return { problems: [{ path, message }], refused: { code: refused.code, hint: refused.hint } };
  }
  const data = fields.data;
  const entry: MarketplaceEntry = {
    index,
    name: data.name,
    source,
    manifest: data,
    tags: data.tags ?? [],
    strict: data.strict !== false,
  };
  if (data.category !== undefined) entry.category = data.category;
  return entry;
}

/**
 * H2 for an entry's hooks paths, read against the plugin's root as a manifest's are: a path
 * breaking the rules leaves the entry out now, named, rather than at its install.
 */
function hooksPathProblems(
  hooks: Manifest['hooks'],
  at: string,
  label: string,
): { path: string; message: string }[] {
  if (hooks === undefined || (typeof hooks === 'object' && !Array.isArray(hooks))) return [];
  const paths = typeof hooks === 'string' ? [hooks] : hooks;
  return paths.flatMap((declared, index) => {
    const checked = checkHooksPath(declared);
    if (checked.ok) return [];
    const field = typeof hooks === 'string' ? 'hooks' : `hooks[${index}]`;
    const message = `${label}: ${field} ${describeValue(declared)} ${checked.reason}`;
    return [{ path: childPath(at, 'hooks'), message }];
  });
}
