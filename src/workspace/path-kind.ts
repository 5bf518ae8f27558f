import { stat } from 'node:fs/promises';

export type PathKind = 'file' | 'directory' | 'missing' | 'other';

/** What a user-given path names, following symlinks; unreadable parents count as missing. */
export async function statPathKind(path: string): Promise<PathKind> {
  try {
    const entry = await stat(path);
    if (entry.isFile()) return 'file';
    return entry.isDirectory() ? 'directory' : 'other';
  } catch {
    return 'missing';
  }
}
