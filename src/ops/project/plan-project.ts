import { rm } from 'node:fs/promises';
import { serializeLockfile, type LockEntry, type Lockfile } from '../../project/lockfile.js';
import { serializeProjectManifest, type ProjectManifest } from '../../project/project-manifest.js';
import { readState } from '../../store/state/state.js';
import { lockfilePath, manifestPath } from '../../workspace/project-files.js';
import { planTransaction } from '../steps/transaction/plan.js';
import type { StagedPlugin } from '../steps/staging/types.js';
import type { EnableMode } from '../steps/consent/consent.js';
import type { ProjectInstallResult } from './project-result.js';
import type { ProjectScope } from '../steps/transaction/project-scope.js';

/**
 * `install --project --dry-run` and `install --dry-run` in a project: the plan of each staged
 * plugin against this project's records (the versions, the Q5 diff, whether consent would carry:
 * as the user-wide dry run reports it), the lock entries that would be added or changed and the
 * project files that would be written. The staging trees are removed; the state, the installed
 * trees, hookpm.json and hookpm.lock are left as they are (only the download cache, D5, may gain
 * files, as for any dry run).
 */
export async function planProject(
  scope: ProjectScope,
  staged: readonly StagedPlugin[],
  opts: {
    enable: EnableMode;
    /** With `enable: 'yes'`: the plugins the `--yes` answers for (CommitOptions.yesFor). */
    yesFor?: ReadonlySet<string>;
    /** What the command would write; undefined: neither file. */
    next: { manifest?: ProjectManifest; lock: Lockfile } | undefined;
    notes: readonly string[];
  },
): Promise<ProjectInstallResult> {
  try {
    const state = await readState(scope.ctx.paths);
    const installed = await planTransaction(
      scope.ctx,
      staged,
      { kind: 'project', key: scope.key },
      { enable: opts.enable, ...(opts.yesFor === undefined ? {} : { yesFor: opts.yesFor }), state },
    );
    const { files } = scope;
    const wouldLock: Record<string, LockEntry> = {};
    const wouldWrite: string[] = [];
    if (opts.next !== undefined) {
      const before = files.lock?.plugins ?? {};
      for (const [id, entry] of Object.entries(opts.next.lock.plugins))
        if (!Object.hasOwn(before, id) || JSON.stringify(before[id]) !== JSON.stringify(entry))
          wouldLock[id] = entry;
      // The order prepareProjectFiles publishes in: the lock, then hookpm.json.
      if (serializeLockfile(opts.next.lock) !== files.lockText)
        wouldWrite.push(lockfilePath(files.root));
      const manifest = opts.next.manifest;
      if (manifest !== undefined && serializeProjectManifest(manifest) !== files.manifestText)
        wouldWrite.push(manifestPath(files.root));
    }
    return {
      project: scope.root,
      installed,
      wrote: [],
      notes: [...opts.notes, 'dry run: nothing was changed'],
      dryRun: true,
      wouldLock,
      wouldWrite,
    };
  } finally {
    await Promise.all(staged.map((s) => rm(s.dir, { recursive: true, force: true })));
  }
}
