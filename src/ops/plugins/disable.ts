import { updateState } from '../../store/state/state.js';
import { findInstalled } from '../steps/installed/installed.js';
import { requireNotRequired } from '../steps/policy/enforce-policy.js';
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
      // docs/reference/rules/policy.md#a14: a plugin the policy requires stays enabled.
      if (record.enabled) requireNotRequired(ctx, 'disabling', record);
      const changed = record.enabled;
      record.enabled = false;
      return { id: record.id, enabled: false as const, changed };
    },
    lockOptions(ctx),
  );
}
