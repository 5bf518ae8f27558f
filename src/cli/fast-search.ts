/**
 * STYLE "Start-up cost": `hookpm search [words] [--event E] [--json]` with only the global options
 * that need no commander answers without loading commander or the other commands (measured by
 * bench/search.bench.mjs). Any other command line returns false and goes through the full CLI,
 * which gives the same output (both print with render-search.ts).
 */
import type { StorePaths } from '../store/paths.js';

interface SearchLine {
  words: string[];
  event?: string;
  json: boolean;
  offline: boolean;
  home?: string;
}

export async function runFastSearch(args: readonly string[]): Promise<boolean> {
  const line = parseSearch(args);
  if (line === null) return false;
  try {
    const [{ searchPlugins }, { createIndexProgress }, { printSearchResult }] = await Promise.all([
      import('../ops/search-plugins.js'),
      import('./index-progress.js'),
      import('./render-search.js'),
    ]);
    const progress = createIndexProgress();
    const ctx = {
      paths: await storePaths(line.home),
      offline: line.offline,
      ...(progress.onProgress ? { onProgress: progress.onProgress } : {}),
    };
    const query = {
      query: line.words.join(' '),
      ...(line.event === undefined ? {} : { event: line.event }),
    };
    const found = await searchPlugins(ctx, query).finally(progress.done);
    printSearchResult(found, line.json);
  } catch (error) {
    const { reportError } = await import('./report-error.js');
    process.exitCode = reportError(error, { json: line.json });
  }
  return true;
}

async function storePaths(home: string | undefined): Promise<StorePaths> {
  const root = home ?? process.env.HOOKPM_HOME;
  if (root !== undefined && root !== '')
    return (await import('../store/home-paths.js')).homeStorePaths(root);
  return (await import('../store/paths.js')).resolveStorePaths({});
}

/** `search` first, then words and known options; null for anything else (help, unknown options, `--`). */
function parseSearch(args: readonly string[]): SearchLine | null {
  if (args[0] !== 'search') return null;
  const line: SearchLine = { words: [], json: false, offline: false };
  for (let i = 1; i < args.length; i += 1) {
    const arg = args[i] as string;
    const next = args[i + 1];
    if (arg === '--json') line.json = true;
    else if (arg === '--offline') line.offline = true;
    else if (arg === '--yes' || arg === '-y') continue;
    else if (
      (arg === '--event' || arg === '--home') &&
      next !== undefined &&
      !next.startsWith('-')
    ) {
      if (arg === '--event') line.event = next;
      else line.home = next;
      i += 1;
    } else if (arg.startsWith('--event=')) line.event = arg.slice('--event='.length);
    else if (arg.startsWith('--home=')) line.home = arg.slice('--home='.length);
    else if (arg.startsWith('-')) return null;
    else line.words.push(arg);
  }
  return line;
}
