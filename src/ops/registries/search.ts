import { HookpmError } from '../../errors.js';
import { closestNames, didYouMean, withSuggestion } from '../../text/did-you-mean.js';
import { EVENT_NAMES, isEventName } from '../../hooks/events.js';
import { searchSummaries, type SearchHit } from '../../registry/indexes/search-index.js';
import { loadSummaries, type RegistryWarning } from '../steps/catalogs/load-catalogs.js';
import type { OperationContext } from '../steps/context/operation-context.js';
import { clip } from '../../text/clip.js';

export interface SearchOptions {
  query?: string;
  event?: string;
}

export interface SearchResult {
  results: SearchHit[];
  /** Registries that could not be read; the search used the others. */
  warnings: RegistryWarning[];
  /** Registries searched in their cached copy only, because the network is off (D5). */
  cacheOnly: string[];
  /** What was not searched and why (npm registries: docs/reference/rules/registry.md#registry-kinds). */
  notes: string[];
}

/**
 * `hookpm search [query] [--event E]` across all registries (docs/reference/rules/cli.md#commands):
 * by name, description and keyword; with `event`, only plugins whose latest version declares it.
 * E_USAGE for an unknown event name.
 */
export async function searchPlugins(
  ctx: OperationContext,
  opts: SearchOptions,
): Promise<SearchResult> {
  if (opts.event !== undefined && !isEventName(opts.event)) {
    throw new HookpmError(
      'E_USAGE',
      `--event ${JSON.stringify(clip(opts.event))} is not an event name`,
      {
        event: opts.event,
        suggestions: closestNames(opts.event, EVENT_NAMES),
        hint: withSuggestion(
          didYouMean(opts.event, EVENT_NAMES),
          `Events: ${EVENT_NAMES.join(', ')} (case-sensitive).`,
        ),
      },
    );
  }
  const loaded = await loadSummaries(ctx);
  const results = searchSummaries(loaded.catalogs, opts);
  const notes = loaded.entries
    .filter((e) => e.record.kind === 'npm')
    .map(
      (e) =>
        `registry ${e.name} (npm) is not searched: the npm registry does not list hook plugins; install one by package name (\`hookpm install <package>@${e.name}\`)`,
    );
  return { results, warnings: loaded.warnings, cacheOnly: loaded.cacheOnly, notes };
}
