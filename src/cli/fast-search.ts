import { globalsOf, type FastLine } from './fast-line.js';
import { storePathsOf } from './plugin-context.js';

/**
 * STYLE "Start-up cost": `hookpm search [words] [--event E]` from cli/fast-path.ts, without
 * commander (measured by bench/search.bench.mjs); prints what the full CLI prints (both use
 * render-search.ts).
 */
export async function runFastSearch(line: FastLine): Promise<void> {
  const [{ searchPlugins }, { createIndexProgress }, { printSearchResult }] = await Promise.all([
    import('../ops/registries/search.js'),
    import('./progress/index-progress.js'),
    import('./render/render-search.js'),
  ]);
  const globals = globalsOf(line);
  const progress = createIndexProgress();
  const ctx = {
    paths: storePathsOf(globals),
    offline: globals.offline,
    ...(progress.onProgress ? { onProgress: progress.onProgress } : {}),
  };
  const event = line.values.get('--event');
  const query = { query: line.operands.join(' '), ...(event === undefined ? {} : { event }) };
  const found = await searchPlugins(ctx, query).finally(progress.done);
  printSearchResult(found, globals.json);
}
