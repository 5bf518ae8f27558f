import { realpath } from 'node:fs/promises';
import { join } from 'node:path';

/** engine.md S1: the hooks file of a project root or of the user's home directory. */
export function hooksFileIn(dir: string): string {
  return join(dir, '.deepagents', 'hooks.json');
}

/** The real path of `path` (S4 compares files by it), or null when it does not resolve. */
export async function realPathOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch {
    return null;
  }
}
