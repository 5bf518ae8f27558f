import { HookpmError } from '../../errors.js';
import { describeMismatches, findLockMismatches } from '../../project/lock-agreement.js';
import { assertStoreWritable } from '../../store/check-writable.js';
import { lockfilePath } from '../../workspace/project-files.js';
import { withRequired, type ProjectInstallResult } from './project-result.js';
import { bringInRequired } from '../steps/transaction/bring-in-required.js';
import type { OperationContext } from '../steps/context/operation-context.js';
import type { EnableMode } from '../steps/consent/consent.js';
import { commitTransaction } from '../steps/transaction/transaction.js';
import { installScopeOf, noManifest, openProject } from '../steps/transaction/project-scope.js';
import { stageLocked } from '../steps/transaction/stage-locked.js';

/**
 * `hookpm ci` (docs/guides/projects.md): installs exactly what hookpm.lock pins, for this project,
 * into the user's store. Fails before touching anything with E_LOCK_MISMATCH when hookpm.json and
 * hookpm.lock disagree (or the lock is missing), and with E_INTEGRITY when bytes differ from the
 * lock. Never writes either file. Offline (D5): from the tarball cache only (no index is read).
 */
export async function ciProject(
  ctx: OperationContext,
  opts: { cwd: string; enable: EnableMode },
): Promise<ProjectInstallResult> {
  const scope = await openProject(ctx, opts.cwd);
  const { manifest, lock } = scope.files;
  if (manifest === null) throw noManifest(scope.root);
  if (lock === null)
    throw new HookpmError('E_LOCK_MISMATCH', `there is no hookpm.lock at ${scope.root}`, {
      file: lockfilePath(scope.root),
      hint: 'Run `hookpm install` in the project to write hookpm.lock, and commit it.',
    });
  const mismatches = findLockMismatches(manifest, lock);
  if (mismatches.length > 0)
    throw new HookpmError(
      'E_LOCK_MISMATCH',
      `hookpm.json and hookpm.lock disagree on ${mismatches.length} plugin(s): ${describeMismatches(mismatches)}`,
      {
        file: lockfilePath(scope.root),
        mismatches,
        hint: 'Run `hookpm install` in the project to update hookpm.lock, and commit it.',
      },
    );
  await assertStoreWritable(ctx.paths);
  const staged = await stageLocked(scope, manifest, lock);
  const { entries: installed } = await commitTransaction(
    scope.ctx,
    staged,
    installScopeOf(scope, { ranges: manifest.plugins, exact: true }),
    { enable: opts.enable },
  );
  return withRequired(
    { project: scope.root, installed, wrote: [], notes: [] },
    await bringInRequired(ctx, { cwd: opts.cwd }),
  );
}
