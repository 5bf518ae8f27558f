import { existsSync, rmSync } from 'node:fs';
import { quietly } from '../../../io/fs-error.js';
import { withStoreLock } from '../../../store/state/state.js';
import { lockOptions, type OperationContext } from '../context/operation-context.js';
import type { StagedPlugin } from '../staging/types.js';

/**
 * Runs `commit` under the store lock (D2), then removes what is left of `staged`'s staging trees,
 * whether it succeeded or not: a promoted tree is no longer there, and only what is there is
 * removed, since rmSync loads Node's recursive removal first even for a path that is gone
 * (~0.3 ms). Returns what `commit` returns.
 */
export async function commitLocked<T>(
  ctx: OperationContext,
  staged: readonly StagedPlugin[],
  commit: () => Promise<T>,
): Promise<T> {
  try {
    return await withStoreLock(ctx.paths, commit, lockOptions(ctx));
  } finally {
    for (const s of staged)
      if (existsSync(s.dir)) quietly(() => rmSync(s.dir, { recursive: true, force: true }));
  }
}
