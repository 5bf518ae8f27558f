import { clip } from '../text/clip.js';
import { shellWord } from '../text/shell-word.js';

/**
 * The command that reinstalls a plugin from `source` (a record's), as a message quotes it: the
 * source quoted for the shell, and bounded (a hand-edited state may hold any length).
 */
export function reinstallCommand(source: string): string {
  return `hookpm install --force ${shellWord(clip(source))}`;
}

/**
 * The words of a message that restore a plugin's tree and that stop using it. A user-wide plugin
 * is installed again from its source; a project's (`project`: its root) is restored by `hookpm ci`
 * in that project, which installs the locked bytes, and disabled there with `--project`:
 * `install --force` would add a user-wide copy and leave the project's tree as it is.
 */
export function restoreAdvice(
  plugin: { id: string; source: string },
  project: string | null | undefined,
): string {
  const id = shellWord(plugin.id);
  if (project === null || project === undefined)
    return `run \`${reinstallCommand(plugin.source)}\` to restore it, or \`hookpm disable ${id}\` to stop using it`;
  return `run \`hookpm ci\` in ${clip(project)} to restore it, or \`hookpm disable ${id} --project\` there to stop using it`;
}
