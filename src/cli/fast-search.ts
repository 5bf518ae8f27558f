import type { FastLine } from './fast-line.js';
import type { StorePaths } from '../store/paths.js';

/**
 * STYLE "Start-up cost": `hookpm search [words] [--event E]` from cli/fast-path.ts, without
 * commander (measured by bench/search.bench.mjs); prints what the full CLI prints (both use
 * render-search.ts).
 */
export async function runFastSearch(line: FastLine): Promise<void> {
  const [{ searchPlugins }, { createIndexProgress }, { printSearchResult }] = await Promise.all([
    import('../ops/search-plugins.js'),
    import('./index-progress.js'),
    import('./render-search.js'),
  ]);
  const progress = createIndexProgress();
  const ctx = {
    paths: await storePaths(line.values.get('--home')),
    offline: line.switches.has('--offline'),
    ...(progress.onProgress ? { onProgress: progress.onProgress } : {}),
  };
  const event = line.values.get('--event');
  const query = { query: line.operands.join(' '), ...(event === undefined ? {} : { event }) };
  const found = await searchPlugins(ctx, query).finally(progress.done);
  printSearchResult(found, line.switches.has('--json'));
}

async function storePaths(home: string | undefined): Promise<StorePaths> {
  const root = home ?? process.env.HOOKPM_HOME;
  if (root !== undefined && root !== '')
    return (await import('../store/home-paths.js')).homeStorePaths(root);
  return (await import('../store/paths.js')).resolveStorePaths({});
}
