import type { SearchResult } from '../../ops/registries/search.js';
import { boldHeader, colourEnabled } from './colour.js';
import { printRegistryNotes } from '../registry-options.js';
import { escapeControl, printErrorLine, printJson, printLine, renderTable } from './render.js';

/** `hookpm search` output (cli.md section 3): the JSON document, or a table; notes on stderr. */
export function printSearchResult(found: SearchResult, json: boolean): void {
  printRegistryNotes(found);
  for (const note of found.notes) printErrorLine(`hookpm: note: ${escapeControl(note)}`);
  if (json) return printJson(found);
  if (found.results.length === 0) return printLine('no plugins match');
  const rows = found.results.map((hit) => [
    hit.id,
    hit.deprecated === null ? hit.version : `${hit.version} (deprecated)`,
    hit.events.join(','),
    oneLine(hit.description),
  ]);
  printLine(
    boldHeader(renderTable(['ID', 'VERSION', 'EVENTS', 'DESCRIPTION'], rows), colourEnabled()),
  );
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}
