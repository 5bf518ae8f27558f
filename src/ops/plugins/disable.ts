import { updateState } from '../../store/state/state.js';
import { findInstalled } from '../steps/installed/installed.js';
import {
  assertProjectHasRecords,
  stateIn,
  USER_RECORDS,
  type RecordScope,
} from '../steps/installed/project-records.js';
import { requireNotRequired } from '../steps/policy/enforce-policy.js';
import { lockOptions, type OperationContext } from '../steps/context/operation-context.js';

export interface DisableResult {
  id: string;
  enabled: false;
  /** false when it was already disabled. */
  changed: boolean;
}

/**
 * `hookpm disable <name>`: its hooks stop contributing; consent and the data directory stay (V3).
 * `scope`: the records of a project (`disable --project`): the plugin stops in that project only.
 */
export function disablePlugin(
  ctx: OperationContext,
  opts: { name: string; scope?: RecordScope },
): Promise<DisableResult> {
  const scope = opts.scope ?? USER_RECORDS;
  return updateState(
    ctx.paths,
    (draft) => {
      assertProjectHasRecords(draft, scope);
      const record = findInstalled(stateIn(draft, scope), opts.name);
      // docs/reference/rules/policy.md#a14: a plugin the policy requires stays enabled.
      if (record.enabled) requireNotRequired(ctx, 'disabling', record);
      // registry.md D13: a project's plugin without consent (never enabled, or its consent dropped
      // by a wider version) is marked keptOff, so `ci --yes` and `install` leave it off too.
      const marks = scope.kind === 'project' && record.consent === null && record.keptOff !== true;
      const changed = record.enabled || marks;
      record.enabled = false;
      if (marks) record.keptOff = true;
      return { id: record.id, enabled: false as const, changed };
    },
    lockOptions(ctx),
  );
}
