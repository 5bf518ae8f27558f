import { updateState } from '../../store/state/state.js';
import { findInstalled } from '../steps/installed/installed.js';
import { lockOptions, type PluginContext } from '../steps/context/plugin-context.js';

export interface DisableResult {
  id: string;
  enabled: false;
  /** false when it was already disabled. */
  changed: boolean;
}

/** `hookpm disable <name>`: its hooks stop contributing; consent and the data directory stay (V3). */
export function disablePlugin(ctx: PluginContext, opts: { name: string }): Promise<DisableResult> {
  return updateState(
    ctx.paths,
    (draft) => {
      const record = findInstalled(draft, opts.name);
      const changed = record.enabled;
      record.enabled = false;
      return { id: record.id, enabled: false as const, changed };
    },
    lockOptions(ctx),
  );
}
