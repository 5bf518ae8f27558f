/**
 * The path variables of docs/reference/rules/plugins.md#variables and engine.md X3, X5: each plugin
 * handler gets its plugin's root and data directory under two names each (Claude Code's and the
 * agent-neutral one), every handler gets the project root; argv substitutes `${NAME}` for all five
 * (V2). The one place their names are spelled: whoever sets, strips or substitutes them reads them
 * here.
 */
export const CLAUDE_PLUGIN_ROOT = 'CLAUDE_PLUGIN_ROOT';
export const PLUGIN_ROOT = 'PLUGIN_ROOT';
export const CLAUDE_PLUGIN_DATA = 'CLAUDE_PLUGIN_DATA';
export const PLUGIN_DATA = 'PLUGIN_DATA';
export const CLAUDE_PROJECT_DIR = 'CLAUDE_PROJECT_DIR';

/** A plugin's own variables: its root, then its data directory, each under both names. */
export const PLUGIN_VARIABLES = [CLAUDE_PLUGIN_ROOT, PLUGIN_ROOT, CLAUDE_PLUGIN_DATA, PLUGIN_DATA];

/** Every name `${NAME}` in argv may refer to (plugins.md V2, engine.md X3). */
export const PATH_VARIABLES = [...PLUGIN_VARIABLES, CLAUDE_PROJECT_DIR];

/** The plugin variables of a plugin installed at `root` with its data directory `data`. */
export function pluginVariables(root: string, data: string): Record<string, string> {
  return {
    [CLAUDE_PLUGIN_ROOT]: root,
    [PLUGIN_ROOT]: root,
    [CLAUDE_PLUGIN_DATA]: data,
    [PLUGIN_DATA]: data,
  };
}
