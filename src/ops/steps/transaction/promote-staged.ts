import { listTree } from '../../../store/fingerprint.js';
import { writeInstalledFiles } from '../../../store/installed-files.js';
import { installDir, promoteTree } from '../../../store/layout.js';
import type { OperationContext } from '../context/operation-context.js';
import type { StagedPlugin } from '../staging/types.js';

/**
 * Step 5 for one plugin, under the store lock: moves its staging tree into its versioned directory
 * of the shared store (D4) and records the files that tree held (Q6: files its plugin creates
 * later are told apart from them). Returns the installed directory.
 */
export async function promoteStaged(ctx: OperationContext, staged: StagedPlugin): Promise<string> {
  const { id, version } = staged.inspected;
  const path = await promoteTree(
    staged.dir,
    installDir(ctx.paths, { id, version, integrity: staged.integrity }),
  );
  await writeInstalledFiles(ctx.paths, staged.fingerprint, staged.files ?? (await listTree(path)));
  return path;
}
