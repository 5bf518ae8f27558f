import type { RegistryContext } from '../ops/steps/context/registry-context.js';
import type { RegistryWarning } from '../ops/steps/catalogs/load-catalogs.js';
import { storePathsOf, type GlobalOptions } from './global-options.js';
import { createIndexProgress, type IndexProgress } from './progress/index-progress.js';
import { escapeControl, printErrorLine } from './render/render.js';

/** The context of the registry commands, and the progress display to clear when they end. */
export function registryContextFromGlobals(globals: GlobalOptions): {
  ctx: RegistryContext;
  progress: IndexProgress;
} {
  const progress = createIndexProgress();
  const ctx: RegistryContext = {
    paths: storePathsOf(globals),
    offline: globals.offline,
    env: process.env,
    cwd: globals.cwd,
    ...(progress.onProgress ? { onProgress: progress.onProgress } : {}),
  };
  return { ctx, progress };
}

/** Registries that could not be read, and --offline use of cached indexes, said on stderr. */
export function printRegistryNotes(notes: {
  warnings: RegistryWarning[];
  offline: string[];
}): void {
  for (const w of notes.warnings) {
    printErrorLine(
      `hookpm: warning[${w.code}]: registry ${w.registry} skipped: ${escapeControl(w.message)}`,
    );
    if (w.hint !== null) printErrorLine(`  ${escapeControl(w.hint)}`);
  }
  if (notes.offline.length > 0) {
    printErrorLine(`hookpm: --offline: using the cached indexes of ${notes.offline.join(', ')}`);
  }
}
