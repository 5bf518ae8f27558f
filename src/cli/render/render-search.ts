import type { SearchResult } from '../../ops/registries/search.js';
import { boldHeader, colourEnabled } from './colour.js';
import { printRegistryNotes } from '../registry-options.js';
import { terminalWidth } from '../stdio.js';
import { withFlagNames } from './json-field-names.js';
import { escapeControl, printErrorLine, printJson, printLine, renderTable } from './render.js';

/** `hookpm search` output (docs/reference/rules/cli.md#json-shapes): the JSON document, or a table; notes on stderr. */
export function printSearchResult(found: SearchResult, json: boolean): void {
  printRegistryNotes(found);
  for (const note of found.notes) printErrorLine(`hookpm: note: ${escapeControl(note)}`);
  if (json) return printJson(withFlagNames(found));
  if (found.results.length === 0) return printLine('no plugins match');
  printLine(boldHeader(formatSearchTable(found.results, terminalWidth(1)), colourEnabled()));
}

/**
 * The result table: on a terminal (`width`) fitted to it, the description cut with `…` where the
 * row ends; off one (null) each description cut at 80 characters, as ever, and so are a version
 * and an events list (a registry's search page may give any text there: every row is padded to
 * the widest cell, so one long cell would be printed once per result).
 */
export function formatSearchTable(results: SearchResult['results'], width: number | null): string {
  const cut = width === null;
  const rows = results.map((hit) => [
    hit.id,
    oneLine(hit.deprecated === null ? hit.version : `${hit.version} (deprecated)`, cut),
    oneLine(hit.events.join(','), cut),
    oneLine(hit.description, cut),
  ]);
  return renderTable(['ID', 'VERSION', 'EVENTS', 'DESCRIPTION'], rows, { width, keep: [0, 1] });
}

function oneLine(text: string, cut: boolean): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return cut && flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}
