import type { HooksConfig } from '../hooks/types.js';
import { parseLinkCommand } from './link-command.js';

/**
 * A user or project hooks document less the handlers `hookpm link deepagents` wrote into it: those
 * run hookpm's plugins for Deep Agents Code, and hookpm's engine, which runs the plugins itself,
 * must never run them (no recursion, each plugin once). A removed handler becomes null and a group
 * left with none becomes null, so positions, and with them handler ids (R2), do not shift.
 */
export function withoutLinkHandlers(config: HooksConfig): HooksConfig {
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [event, groups] of Object.entries(config)) {
    out[event] = (groups ?? []).map((group) => {
      if (group === null) return null;
      const hooks = group.hooks.map((h) =>
        h !== null && parseLinkCommand(h.command) !== null ? null : h,
      );
      if (hooks.every((h, i) => h === group.hooks[i])) return group;
      changed = true;
      return hooks.every((h) => h === null) ? null : { ...group, hooks };
    });
  }
  return changed ? (out as HooksConfig) : config;
}
