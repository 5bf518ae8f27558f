import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A file's text or bytes, or a JSON value written with JSON.stringify, or a symlink. */
export type TreeFile = string | Buffer | { json: unknown } | { link: string };

/** Creates a fresh temporary directory; `cleanup` removes it. */
export async function tempDir(
  prefix = 'hookpm-plugin-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes files (paths with `/`) below `root`, creating directories as needed. */
export async function writeTree(root: string, files: Record<string, TreeFile>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, ...path.split('/'));
    await mkdir(dirname(full), { recursive: true });
    if (typeof content === 'string' || Buffer.isBuffer(content)) await writeFile(full, content);
    else if ('json' in content) await writeFile(full, JSON.stringify(content.json, null, 2));
    else await symlink(content.link, full);
  }
}

/** A valid hooks document with one handler per event given. */
export function hooksDoc(...events: string[]): { json: unknown } {
  const hooks: Record<string, unknown> = {};
  for (const event of events)
    hooks[event] = [{ hooks: [{ type: 'command', command: `echo ${event}` }] }];
  return { json: { hooks } };
}
