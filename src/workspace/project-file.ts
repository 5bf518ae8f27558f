import { sha256Hex } from '../json/canonical-json.js';
import { errnoCode } from '../io/fs-error.js';
import { readFailureReason, readRegularFile } from '../io/read-regular-file.js';
import { HOOKS_FILE_MAX_BYTES } from './read-hooks-file.js';
import { hooksFileIn, realPathOrNull } from './hooks-file-path.js';

/** The project hooks file as seen when trust is checked (engine.md T4, T6). */
export interface ProjectFileState {
  /** `<root>/.deepagents/hooks.json`. */
  path: string;
  status: 'missing' | 'present';
  /** S4: it is the user file after resolving symlinks (then it is read once, as the user file). */
  sameAsUserFile: boolean;
  /** SHA-256 hex of its bytes now; null when missing or unreadable (the loader then reports why). */
  sha256: string | null;
  /** The bytes hashed, which the trust question shows (null with `sha256`). */
  bytes: Uint8Array | null;
  /** Why a present file could not be read (a FIFO, too large, no permission). */
  unreadable?: string;
}

const MISSING = new Set(['ENOENT', 'ENOTDIR']);

/** Looks at `<root>/.deepagents/hooks.json` and hashes its bytes; never throws for file problems. */
export async function inspectProjectFile(root: string, home: string): Promise<ProjectFileState> {
  const path = hooksFileIn(root);
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(path, { maxBytes: HOOKS_FILE_MAX_BYTES, followSymlink: true });
  } catch (error) {
    const code = errnoCode(error) ?? '';
    const none = { sha256: null, bytes: null };
    if (MISSING.has(code)) return { path, status: 'missing', sameAsUserFile: false, ...none };
    const unreadable = `cannot read ${path}: ${readFailureReason(error)}`;
    return {
      path,
      status: 'present',
      sameAsUserFile: await sameFile(path, home),
      ...none,
      unreadable,
    };
  }
  return {
    path,
    status: 'present',
    sameAsUserFile: await sameFile(path, home),
    sha256: sha256Hex(bytes),
    bytes,
  };
}

async function sameFile(projectPath: string, home: string): Promise<boolean> {
  const [a, b] = await Promise.all([
    realPathOrNull(projectPath),
    realPathOrNull(hooksFileIn(home)),
  ]);
  return a !== null && a === b;
}
