import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256Hex } from '../hooks/canonical-json.js';

/** The project hooks file as seen when trust is checked (engine.md T4, T6). */
export interface ProjectFileState {
  /** `<root>/.deepagents/hooks.json`. */
  path: string;
  status: 'missing' | 'present';
  /** S4: it is the user file after resolving symlinks (then it is read once, as the user file). */
  sameAsUserFile: boolean;
  /** SHA-256 hex of its bytes now; null when missing or unreadable (the loader then reports why). */
  sha256: string | null;
}

const MISSING = new Set(['ENOENT', 'ENOTDIR']);

/** Looks at `<root>/.deepagents/hooks.json` and hashes its bytes; never throws for file problems. */
export async function inspectProjectFile(root: string, home: string): Promise<ProjectFileState> {
  const path = join(root, '.deepagents', 'hooks.json');
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (MISSING.has(code)) return { path, status: 'missing', sameAsUserFile: false, sha256: null };
    return { path, status: 'present', sameAsUserFile: await sameFile(path, home), sha256: null };
  }
  return {
    path,
    status: 'present',
    sameAsUserFile: await sameFile(path, home),
    sha256: sha256Hex(bytes),
  };
}

async function sameFile(projectPath: string, home: string): Promise<boolean> {
  const userPath = join(home, '.deepagents', 'hooks.json');
  const [a, b] = await Promise.all([realOrNull(projectPath), realOrNull(userPath)]);
  return a !== null && a === b;
}

async function realOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch {
    return null;
  }
}
