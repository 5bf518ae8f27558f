import { stat } from 'node:fs/promises';
import { isHookpmError } from '../../errors.js';
import { collectGarbage } from '../../store/collect.js';
import type { StorePaths } from '../../store/store-paths.js';
import { withStoreLock } from '../../store/state/state.js';
import { okCheck, plural, problem, type DoctorCheck } from './check.js';
import { readStateForDoctor } from './state.js';

/** How long `--fix` waits for a running command's lock by default. */
const FIX_LOCK_WAIT_MS = 10_000;

/**
 * `hookpm doctor --fix`: the one safe repair, collecting leftovers (registry.md D4) under the store
 * lock exactly as the next install would (store/collect.ts); taking the lock also recovers a stale
 * one (D3). Nothing else is changed: not the state (a corrupt one means nothing is collected, as
 * the trees in use cannot be told), not a tampered tree, not consent. Never throws a HookpmError:
 * a failure (E_LOCKED, E_STORE_READONLY, ...) is an error check.
 */
export async function collectLeftovers(
  paths: StorePaths,
  opts: { lockWaitMs?: number } = {},
): Promise<DoctorCheck> {
  const exists = await stat(paths.data).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!exists) return okCheck('fix', `nothing to collect: ${paths.data} does not exist yet`);
  try {
    return await withStoreLock(
      paths,
      async () => {
        const read = await readStateForDoctor(paths);
        if (read.status !== 'valid') {
          return problem(
            'fix',
            'warning',
            'leftovers were not collected: the state cannot be read, so the installed trees in use cannot be told apart (see the state check)',
            {
              code: 'fix_skipped',
              fix: 'Recover the state first (see the state check), then run `hookpm doctor --fix` again.',
            },
          );
        }
        const removed = await collectGarbage(paths, read.state);
        const what =
          removed.length === 0
            ? 'nothing to collect'
            : `collected ${plural(removed.length, 'leftover')}`;
        return { ...okCheck('fix', what), paths: removed };
      },
      { waitMs: opts.lockWaitMs ?? FIX_LOCK_WAIT_MS },
    );
  } catch (error) {
    if (!isHookpmError(error)) throw error;
    return problem('fix', 'error', `leftovers were not collected: ${error.message}`, {
      code: 'fix_failed',
      ...(error.hint === undefined ? {} : { fix: error.hint }),
    });
  }
}
