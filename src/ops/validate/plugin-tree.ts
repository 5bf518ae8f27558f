import { isHookpmError } from '../../errors.js';
import { diagnostic, type Diagnostic } from '../../hooks/diagnostic.js';
import { collectPackFiles } from '../../publish/pack-files.js';
import { TREE_LIMITS } from '../../store/tar/tarball-rules.js';

/**
 * What installing the plugin directory `dir` refuses of its tree rather than of its documents
 * (those are P4's): a symlink that leaves the plugin, dangles or forms a cycle (plugins.md H5,
 * E_SYMLINK_ESCAPE, as copy-tree.ts and pack-files.ts refuse it), or a tree over the limits of a
 * plugin that comes as a tree (tarball-rules.ts TREE_LIMITS, E_ARCHIVE_TOO_LARGE), or a file or
 * folder that cannot be read (E_IO: permission denied). Walked as `hookpm pack` walks it; the
 * first refusal is one `plugin_tree_invalid` error with its message, at the link's path when it
 * names one. So a plugin `validate` passes is one `install` takes.
 */
export async function treeRefusals(dir: string): Promise<Diagnostic[]> {
  try {
    await collectPackFiles(dir, TREE_LIMITS);
    return [];
  } catch (error) {
    const refused =
      isHookpmError(error, 'E_SYMLINK_ESCAPE') ||
      isHookpmError(error, 'E_ARCHIVE_TOO_LARGE') ||
      isHookpmError(error, 'E_IO');
    if (!refused) throw error;
    const file = error.details['file'];
    const at = error.code === 'E_SYMLINK_ESCAPE' && typeof file === 'string' ? { path: file } : {};
    const message = `${error.message} (${error.code}): install and pack refuse the plugin`;
    return [diagnostic('plugin_tree_invalid', 'error', message, at)];
  }
}
