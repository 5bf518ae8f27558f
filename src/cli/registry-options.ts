import { cachedIndexesNote } from '../registry/network-refused.js';
import type { RegistryWarning } from '../ops/steps/catalogs/load-catalogs.js';
import { escapeControl, printErrorLine } from './render/render.js';

/** Registries that could not be read, and cached indexes used without the network (D5), said on stderr. */
export function printRegistryNotes(notes: {
  warnings: RegistryWarning[];
  cacheOnly: string[];
}): void {
  for (const w of notes.warnings) {
    printErrorLine(
      `hookpm: warning[${w.code}]: registry ${w.registry} skipped: ${escapeControl(w.message)}`,
    );
    if (w.hint !== null) printErrorLine(`  ${escapeControl(w.hint)}`);
  }
  if (notes.cacheOnly.length > 0) printErrorLine(`hookpm: ${cachedIndexesNote(notes.cacheOnly)}`);
}
