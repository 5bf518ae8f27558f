import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Writes a Claude Code plugin at `root`: `.claude-plugin/plugin.json` naming it at 1.0.0 and one
 * hooks document `hooks/hooks.json` holding `hooks`. Answers `root`.
 */
export async function writeClaudePlugin(
  root: string,
  name: string,
  hooks: Record<string, unknown>,
  manifest: Record<string, unknown> = {},
): Promise<string> {
  await mkdir(join(root, '.claude-plugin'), { recursive: true });
  await mkdir(join(root, 'hooks'), { recursive: true });
  await writeFile(
    join(root, '.claude-plugin', 'plugin.json'),
    JSON.stringify({ name, version: '1.0.0', ...manifest }),
  );
  await writeFile(join(root, 'hooks', 'hooks.json'), JSON.stringify({ hooks }));
  return root;
}

/** A marketplace catalog (`.claude-plugin/marketplace.json`) named `name`, owned by "Me". */
export function marketplaceCatalog(
  name: string,
  plugins: Array<Record<string, unknown>>,
): Record<string, unknown> {
  return { name, owner: { name: 'Me' }, plugins };
}
