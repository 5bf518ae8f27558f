import { readRegularText } from '../io/read-regular-file.js';
import { join } from 'node:path';
import { writeFileDurable } from '../io/durable-write.js';
import { errnoCode, toStoreError } from '../io/fs-error.js';
import { assertWriteInside } from './inside-root.js';
import {
  LOCKFILE_FILE,
  parseLockfile,
  serializeLockfile,
  type Lockfile,
} from '../project/lockfile.js';
import {
  PROJECT_MANIFEST_FILE,
  parseProjectManifest,
  serializeProjectManifest,
  type ProjectManifest,
} from '../project/project-manifest.js';

/**
 * A project's two files as read: each parsed value with the exact bytes it came from (null when
 * the file does not exist). Reading never writes; a file that cannot be parsed is E_PROJECT_FILE.
 */
export interface ProjectFiles {
  root: string;
  manifest: ProjectManifest | null;
  manifestText: string | null;
  lock: Lockfile | null;
  lockText: string | null;
}

export function manifestPath(root: string): string {
  return join(root, PROJECT_MANIFEST_FILE);
}

export function lockfilePath(root: string): string {
  return join(root, LOCKFILE_FILE);
}

/** The bytes of `<root>/hookpm.json` and `<root>/hookpm.lock` as text (null: no such file). */
export function readProjectTexts(root: string): {
  manifestText: string | null;
  lockText: string | null;
} {
  return { manifestText: readText(manifestPath(root)), lockText: readText(lockfilePath(root)) };
}

/** Reads `<root>/hookpm.json` and `<root>/hookpm.lock` (docs/guides/projects.md). */
export function readProjectFiles(root: string): ProjectFiles {
  const { manifestText, lockText } = readProjectTexts(root);
  return {
    root,
    manifestText,
    manifest: manifestText === null ? null : parseProjectManifest(manifestText, manifestPath(root)),
    lockText,
    lock: lockText === null ? null : parseLockfile(lockText, lockfilePath(root)),
  };
}

/**
 * Writes the files whose bytes change (durably: the old bytes or the new ones, never a mix), the
 * lock first so that a crash between the two leaves a lock that still names every plugin of the
 * old manifest. Without `manifest`, hookpm.json is left as it is. Returns the files written.
 */
export async function writeProjectFiles(
  files: ProjectFiles,
  next: { manifest?: ProjectManifest; lock: Lockfile },
): Promise<string[]> {
  const writes = projectFileWrites(files, next);
  for (const [file, text] of writes) await writeFileDurable(file, text);
  return writes.map(([file]) => file);
}

/**
 * The files writeProjectFiles would write, in order, with their text; each checked to land inside
 * the project (J2: E_SYMLINK_ESCAPE before any is written), so a caller can check before it
 * writes anything else.
 */
export function projectFileWrites(
  files: ProjectFiles,
  next: { manifest?: ProjectManifest; lock: Lockfile },
): Array<[file: string, text: string]> {
  const lockText = serializeLockfile(next.lock);
  const manifestText =
    next.manifest === undefined ? files.manifestText : serializeProjectManifest(next.manifest);
  const writes: Array<[string, string]> = [];
  if (lockText !== files.lockText) writes.push([lockfilePath(files.root), lockText]);
  if (manifestText !== null && manifestText !== files.manifestText)
    writes.push([manifestPath(files.root), manifestText]);
  for (const [file] of writes) assertWriteInside(files.root, file, 'the project');
  return writes;
}

/** hookpm.json or hookpm.lock larger than this is refused unread (E_IO). */
const PROJECT_FILE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A project file's text, null when missing; E_IO when it is not a regular file (after its
 * symlinks) of at most PROJECT_FILE_MAX_BYTES: a FIFO or a device is refused, never waited on.
 */
function readText(file: string): string | null {
  try {
    return readRegularText(file, { maxBytes: PROJECT_FILE_MAX_BYTES, followSymlink: true });
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw toStoreError(error, file, 'read');
  }
}
