import { updateState } from '../../store/state/state.js';
import { findInstalled } from '../steps/installed/installed.js';
import { lockOptions, type OperationContext } from '../steps/context/operation-context.js';

export interface DisableResult {
  id: string;
  enabled: false;
  /** false when it was already disabled. */
  changed: boolean;
}

/** `hookpm disable <name>`: its hooks stop contributing; consent and the data directory stay (V3). */
export function disablePlugin(
  ctx: OperationContext,
  opts: { name: string },
): Promise<DisableResult> {
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
