import { storePathsOf, type GlobalOptions } from './global-options.js';
import { escapeControl, printErrorLine } from './render/render.js';

/**
 * After a command that changes which plugins run (install, enable, disable, update, uninstall):
 * each Claude Code link of this hookpm is made again when the Claude Code events its plugins hook
 * changed (plugins.md G1, ops/link/relink-claude.ts), with one line on stderr per file rewritten.
 * Loads the settings reader only where a Claude Code settings file exists, and the link step only
 * where one holds a link of this hookpm (ops/link/relink-claude.ts).
 */
export async function relinkClaudeAfter(globals: GlobalOptions): Promise<void> {
  const { relinkClaude } = await import('../ops/link/relink-claude.js');
  const { currentHookpm } = await import('../ops/steps/links/hookpm-command.js');
  const { relinked, failed } = await relinkClaude({
    home: globals.userHome,
    cwd: globals.cwd,
    store: storePathsOf(globals),
    hookpm: currentHookpm(globals.hookpmHome ?? null),
  });
  if (globals.json) return;
  for (const link of relinked)
    printErrorLine(
      escapeControl(
        `relinked ${link.name} (${link.scope}): ${link.file}; ${link.events.length} events run hookpm's enabled plugins`,
      ),
    );
  for (const link of failed)
    printErrorLine(
      `hookpm: warning: cannot relink Claude Code (${link.scope}): ${escapeControl(link.file)}, so it may not run the events the enabled plugins now hook: ${escapeControl(link.message)}; fix it, then run \`hookpm link claude\``,
    );
}
