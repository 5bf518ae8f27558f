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
 * The command that restores a plugin's installed tree. A user-wide plugin is installed again from
 * its source; a project's (`project`: its root) follows hookpm.lock, which `hookpm ci` run in that
 * project installs again: `install --force` would add a user-wide copy and leave the project's
 * tree as it is.
 */
export function restoreCommand(source: string, project: string | null | undefined): string {
  return project === null || project === undefined ? reinstallCommand(source) : 'hookpm ci';
}

/** The command that stops using a plugin: a project's is disabled there with `--project`. */
export function disableCommand(id: string, project: string | null | undefined): string {
  return `hookpm disable ${shellWord(id)}${project === null || project === undefined ? '' : ' --project'}`;
}

/** restoreCommand as a sentence quotes it, with the project it is run in, if any. */
export function restoreWords(source: string, project: string | null | undefined): string {
  const where = project === null || project === undefined ? '' : ` in ${clip(project)}`;
  return `\`${restoreCommand(source, project)}\`${where}`;
}

/** The words of a message that restore a plugin's tree and that stop using it. */
export function restoreAdvice(
  plugin: { id: string; source: string },
  project: string | null | undefined,
): string {
  const there = project === null || project === undefined ? '' : ' there';
  return `run ${restoreWords(plugin.source, project)} to restore it, or \`${disableCommand(plugin.id, project)}\`${there} to stop using it`;
}
