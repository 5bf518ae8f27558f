import { clip } from '../text/clip.js';
import { shellWord } from '../text/shell-word.js';

/**
 * The command that reinstalls a plugin from `source` (a record's), as a message quotes it: the
 * source quoted for the shell, and bounded (a hand-edited state may hold any length).
 */
export function reinstallCommand(source: string): string {
  return `hookpm install --force ${shellWord(clip(source))}`;
}
