import type { EventName } from '../hooks/events.js';
import type { GroupConfig, HandlerConfig, HooksConfig } from '../hooks/types.js';
import { hookKey } from './hook-key.js';

/**
 * Per-hook opt-outs (`hookpm disable <plugin> --hook <key>`): a plugin's documents as they become
 * snapshot sources, with every handler whose key (plugin/hook-key.ts) the plugin's record lists in
 * `disabledHooks` replaced by null in place, so no other handler's position, and with it no
 * handler id, moves (engine.md R2). Documents are copied where a handler goes, never changed.
 * No opt-outs: the same documents.
 */
export function withoutOptedOutHooks<D extends { config: HooksConfig | null }>(
  documents: readonly D[],
  disabledHooks: readonly string[] | undefined,
): D[] {
  if (disabledHooks === undefined || disabledHooks.length === 0) return [...documents];
  const off = new Set(disabledHooks);
  return documents.map((document) =>
    document.config === null ? document : { ...document, config: filtered(document.config, off) },
  );
}

function filtered(config: HooksConfig, off: ReadonlySet<string>): HooksConfig {
  const out: HooksConfig = {};
  for (const [event, groups] of Object.entries(config) as [EventName, (GroupConfig | null)[]][])
    out[event] = groups.map((group) => (group === null ? null : filteredGroup(event, group, off)));
  return out;
}

function filteredGroup(
  event: EventName,
  group: GroupConfig,
  off: ReadonlySet<string>,
): GroupConfig {
  const keyOf = (handler: HandlerConfig): string =>
    hookKey({
      event,
      matcher: group.matcher,
      if: handler.if ?? null,
      command: handler.command,
      argv: handler.argv ?? null,
      shell: handler.shell,
    });
  return {
    ...group,
    hooks: group.hooks.map((handler) =>
      handler !== null && off.has(keyOf(handler)) ? null : handler,
    ),
  };
}
