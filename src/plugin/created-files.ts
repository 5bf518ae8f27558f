import type { HooksConfig } from '../hooks/types.js';

/**
 * files a plugin creates in its folder (docs/design/decisions.md#plugins-and-marketplaces): which
 * files created in an installed plugin's folder after install would change what runs without
 * consent, and so still count as tampering (plugins.md Q6). A created file may be anything the
 * plugin's scripts write (state, logs, caches, dependencies they fetch), except:
 * - a file hookpm itself would read as the plugin's manifest or hooks (`plugin.json`,
 *   `.claude-plugin/plugin.json`, `hooks/hooks.json`, a file named `hooks`, or any document the
 *   manifest names): it would change the consented surface;
 * - a file a handler names (its path, its path without a runnable extension such as `.js`, or a
 *   folder holding it, as a word of a command, argv or args): it would run in place of, or as,
 *   the consented script.
 */
export interface CreatedFilesInput {
  /** Paths created after install, relative, `/`-separated. */
  created: readonly string[];
  /** What the plugin's documents were read from: manifest files and document sources. */
  read: readonly (string | null | undefined)[];
  /** Every command, argv element and args element of the plugin's handlers. */
  handlerText: readonly string[];
}

const ALWAYS_READ = ['plugin.json', '.claude-plugin/plugin.json', 'hooks/hooks.json', 'hooks'];

/** The first created file that changes what runs, with why; null when none does. */
export function createdFileProblem(input: CreatedFilesInput): string | null {
  const read = new Set(ALWAYS_READ);
  for (const source of input.read)
    if (typeof source === 'string' && !source.includes('#')) read.add(source.replace(/^\.\//, ''));
  for (const path of input.created) {
    if (read.has(path))
      return `${path} was created after install and is read as its manifest or hooks`;
    const named = namedForms(path).find((form) => input.handlerText.some((t) => names(t, form)));
    if (named !== undefined)
      return `${path} was created after install and a handler names ${named}`;
  }
  return null;
}

/** Extensions a command may leave out (`node x` runs `x.js`, a PATH lookup finds `x.cmd`). */
const RUNNABLE = /\.(c?js|mjs|ts|py|sh|rb|pl|cmd|bat|ps1|exe)$/;

/** The path, the path without a runnable extension, and every folder above it. */
function namedForms(path: string): string[] {
  const forms = [path];
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (RUNNABLE.test(base) && !base.startsWith('.')) forms.push(path.replace(RUNNABLE, ''));
  for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1))
    forms.push(path.slice(0, at));
  return forms;
}

/** Whether `text` holds `path` as a whole word: after a start, `/`, space, quote or `=`, before an end. */
function names(text: string, path: string): boolean {
  for (let at = text.indexOf(path); at !== -1; at = text.indexOf(path, at + 1)) {
    const before = at === 0 ? '' : text[at - 1]!;
    const after = text[at + path.length] ?? '';
    if (/^[\s"'/=]?$/.test(before) && /^[\s"';|&)]?$/.test(after)) return true;
  }
  return false;
}

/** Every command and argv string of the valid handlers of `configs` (a pinned session's). */
export function handlerTextOfConfigs(configs: readonly HooksConfig[]): string[] {
  const text: string[] = [];
  for (const config of configs)
    for (const groups of Object.values(config))
      for (const group of groups ?? [])
        for (const handler of group?.hooks ?? []) {
          if (handler === null) continue;
          // A parsed handler's argv holds Claude Code's `args` already (`[command, ...args]`).
          for (const value of [handler.command, ...(handler.argv ?? [])])
            if (typeof value === 'string') text.push(value);
        }
  return text;
}
