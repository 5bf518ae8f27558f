import { canonicalJson } from '../json/canonical-json.js';
import { OPTIONAL_CONSENTED_FIELDS, type SurfaceEntry } from './surface.js';

/**
 * Q5: what an update changes in what the user consented to.
 *
 * An entry's identity is what it runs and where: event, source, matcher, command and argv.
 * Entries with the same identity are paired in order (the first consented with the first new,
 * ...). A paired entry whose type, `if`, timeout, statusMessage, `args`, `shell`, `onFailure` or
 * background fields (`async`, `asyncRewake`, `rewakeMessage`, `rewakeSummary`) differ is
 * `changed`; an unpaired new entry is `added`; an unpaired consented entry is `removed`. Identity ignores position, so moving entries (or adding an unrelated document) never
 * shows as a change.
 * Reordering alone yields an empty diff: consent carries over, as for removals.
 */
export interface SurfaceDiff {
  added: SurfaceEntry[];
  removed: SurfaceEntry[];
  changed: Array<{ before: SurfaceEntry; after: SurfaceEntry }>;
}

const IDENTITY = ['event', 'source', 'matcher', 'command', 'argv'] as const;
const DETAILS = ['type', 'if', 'timeout', 'statusMessage', ...OPTIONAL_CONSENTED_FIELDS] as const;

export function diffSurfaces(
  consented: readonly SurfaceEntry[],
  next: readonly SurfaceEntry[],
): SurfaceDiff {
  const pending = new Map<string, SurfaceEntry[]>();
  for (const entry of consented) {
    const key = identityOf(entry);
    const list = pending.get(key);
    if (list === undefined) pending.set(key, [entry]);
    else list.push(entry);
  }
  const diff: SurfaceDiff = { added: [], removed: [], changed: [] };
  for (const entry of next) {
    const before = pending.get(identityOf(entry))?.shift();
    if (before === undefined) diff.added.push(entry);
    else if (detailsOf(before) !== detailsOf(entry)) diff.changed.push({ before, after: entry });
  }
  const leftover = new Set([...pending.values()].flat());
  diff.removed = consented.filter((entry) => leftover.has(entry));
  return diff;
}

/** Q5: true when the new surface asks for anything not consented to (added or changed entries). */
export function widens(diff: SurfaceDiff): boolean {
  return diff.added.length > 0 || diff.changed.length > 0;
}

function identityOf(entry: SurfaceEntry): string {
  return canonicalJson(IDENTITY.map((field) => entry[field]));
}

function detailsOf(entry: SurfaceEntry): string {
  return canonicalJson(DETAILS.map((field) => entry[field]));
}
