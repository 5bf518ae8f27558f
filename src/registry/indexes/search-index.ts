/**
 * `hookpm search` over index summaries (docs/reference/rules/cli.md#commands): a pure function of
 * the summaries. A plugin matches when every word of the query occurs (case-insensitively) in its
 * name, description or keywords, and, with `event`, when its latest version declares that event.
 * Results are ranked: exact name, name prefix, word in the name, exact keyword, keyword part,
 * description; then by name and registry. A plugin a registry lists twice is one hit.
 */
import { compareCodeUnits } from '../../json/compare.js';
import { readRow } from './summary-row.js';
import type { IndexSummary, PluginSummary } from './summary-row.js';

export interface SearchHit {
  id: string;
  name: string;
  registry: string;
  version: string;
  description: string;
  keywords: string[];
  events: string[];
  deprecated: string | null;
}

export interface SearchQuery {
  /** Words to look for; empty or absent lists every plugin. */
  query?: string;
  /** An event name the latest version must declare. */
  event?: string;
}

export function searchSummaries(
  summaries: ReadonlyArray<{ registry: string; summary: IndexSummary }>,
  request: SearchQuery,
): SearchHit[] {
  const words = (request.query ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '')
    .map(toWord);
  const scored: Array<{ hit: SearchHit; score: number }> = [];
  for (const { registry, summary } of summaries) {
    // A registry lists a plugin once (registry.md N8); one that lists it again (a hostile search
    // page, 60,000 times) has it shown once, as first listed. Only hits are remembered: a search
    // of a million rows keeps no set of every name.
    const shown = new Set<string>();
    // Indexed loops, no destructuring: this code runs cold, where iterators are slow.
    for (let i = 0; i < summary.length; i += 1) {
      const row = summary[i] as string;
      if (!mayMatch(row, words, request.event)) continue;
      const plugin = readRow(row);
      if (plugin === null) continue;
      if (request.event !== undefined && !plugin.events.includes(request.event)) continue;
      const score = scoreOf(plugin, words);
      if (score < 0 || shown.has(plugin.name)) continue;
      shown.add(plugin.name);
      scored.push({ hit: { id: `${plugin.name}@${registry}`, registry, ...plugin }, score });
    }
  }
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      compareCodeUnits(a.hit.name, b.hit.name) ||
      compareCodeUnits(a.hit.registry, b.hit.registry),
  );
  return scored.map((s) => s.hit);
}

interface Word {
  text: string;
  /** Case-insensitive "contains" and "equals": no lowercased copies of every description. */
  contains: Pattern;
  equals: Pattern;
}

interface Pattern {
  test: (text: string) => boolean;
}

/**
 * The longest word matched by a regular expression. V8 refuses to compile one much longer (about
 * 32,000 characters: "Regular expression too large"); a query word is any length, and a longer one
 * is compared on lowercased text instead, which only such a word pays for.
 */
const REGEX_WORD_MAX = 1_000;

function toWord(text: string): Word {
  if (text.length > REGEX_WORD_MAX)
    return {
      text,
      contains: { test: (other) => other.toLowerCase().includes(text) },
      equals: { test: (other) => other.toLowerCase() === text },
    };
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return { text, contains: new RegExp(escaped, 'i'), equals: new RegExp(`^${escaped}$`, 'i') };
}

/** A row can match only if every word and the event occur somewhere in it (a cheap first test). */
function mayMatch(row: string, words: readonly Word[], event: string | undefined): boolean {
  if (event !== undefined && !row.includes(event)) return false;
  for (let i = 0; i < words.length; i += 1)
    if (!(words[i] as Word).contains.test(row)) return false;
  return true;
}

/** -1 when some word is missing; otherwise higher is a better match. Names are lowercase (P3). */
function scoreOf(plugin: PluginSummary, words: readonly Word[]): number {
  const { name, keywords } = plugin;
  let score = 0;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as Word;
    if (name === word.text) score += 100;
    else if (name.startsWith(word.text)) score += 50;
    else if (name.includes(word.text)) score += 30;
    else if (someMatch(keywords, word.equals)) score += 20;
    else if (someMatch(keywords, word.contains)) score += 10;
    else if (word.contains.test(plugin.description)) score += 5;
    else return -1;
  }
  return score;
}

function someMatch(texts: readonly string[], pattern: Pattern): boolean {
  for (let i = 0; i < texts.length; i += 1) if (pattern.test(texts[i] as string)) return true;
  return false;
}
