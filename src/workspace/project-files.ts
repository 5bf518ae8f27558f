import { readRegularFile } from '../io/read-regular-file.js';
import { projectFileError } from '../project/project-file-error.js';
import { join } from 'node:path';
import { lstatSync, realpathSync, statSync, unlinkSync } from 'node:fs';
import { prepareFileDurable, type PreparedFile } from '../io/durable-write.js';
import { removeDeadTemps } from '../io/dead-temps.js';
import { errnoCode, quietly, toUserFileError } from '../io/fs-error.js';
import { assertReadInside, assertWriteInside } from './inside-root.js';
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
import { strictUtf8 } from '../text/strict-utf8.js';

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
  return {
    manifestText: readText(root, manifestPath(root)),
    lockText: readText(root, lockfilePath(root)),
  };
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
 * The project files whose bytes change, prepared before anything else of a change is written:
 * their new bytes are durable beside them (a failure here, such as a full disk, leaves both files
 * as they were), each with the permission bits of the file it replaces. `publish` puts them in
 * place, the lock first so that a crash between the two renames leaves a lock that still names
 * every plugin of the old manifest; when hookpm.json cannot be put in place, the lock's old bytes
 * are put back before the error is thrown, so a failure leaves both files as they were. `files`:
 * what `publish` writes (absolute paths). Without `manifest`, hookpm.json is left as it is. A
 * file or directory this user may not write is E_IO naming the file (the user's, not the store's).
 */
export interface PreparedProjectFiles {
  files: string[];
  publish(): void;
  discard(): void;
}

export function prepareProjectFiles(
  files: ProjectFiles,
  next: { manifest?: ProjectManifest; lock: Lockfile },
): PreparedProjectFiles {
  const writes = projectFileWrites(files, next);
  const targets = new Map(writes.map(([file]) => [file, writeTarget(file)]));
  removeDeadTemps([...targets.values()]);
  const prepared: PreparedFile[] = [];
  try {
    for (const [file, text] of writes) {
      const target = targets.get(file)!;
      prepared.push(prepareFileDurable(target, text, { mode: modeOf(target), owner: 'user' }));
    }
  } catch (error) {
    for (const file of prepared) file.discard();
    throw error;
  }
  const old = new Map([
    [lockfilePath(files.root), files.lockText],
    [manifestPath(files.root), files.manifestText],
  ]);
  return {
    files: writes.map(([file]) => file),
    publish() {
      const done: string[] = [];
      try {
        for (const [i, file] of prepared.entries()) {
          file.commit();
          done.push(writes[i]![0]);
        }
      } catch (error) {
        for (const file of prepared.slice(done.length + 1)) file.discard();
        for (const file of done) restore(targets.get(file)!, old.get(file) ?? null);
        throw error;
      }
    },
    discard: () => prepared.forEach((file) => file.discard()),
  };
}

/**
 * registry.md J2: where `file` is written. A symlink (one inside the project: projectFileWrites
 * checked it) is followed and kept, its target rewritten, as an agent's settings file is; any other
 * file is replaced in place.
 */
function writeTarget(file: string): string {
  try {
    return lstatSync(file).isSymbolicLink() ? realpathSync(file) : file;
  } catch {
    return file;
  }
}

/** The permission bits of `file` (through its symlinks), or undefined when there is none yet. */
function modeOf(file: string): number | undefined {
  try {
    return statSync(file).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/** Puts `text` back as `file` (null: no file), best effort: the error being thrown says more. */
function restore(file: string, text: string | null): void {
  quietly(() => {
    if (text === null) unlinkSync(file);
    else prepareFileDurable(file, text, { mode: modeOf(file), owner: 'user' }).commit();
  });
}

/**
 * The files prepareProjectFiles would write, in order, with their text; each checked to land inside
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
 * A project file's text, null when missing; E_SYMLINK_ESCAPE when a symlink leads it outside the
 * project `root` (J2: it is not read); E_IO when it is not a regular file (after its symlinks) of
 * at most PROJECT_FILE_MAX_BYTES: a FIFO or a device is refused, never waited on; E_IO naming it
 * when this user may not read it. Bytes that are not UTF-8 are E_PROJECT_FILE: decoded loosely
 * they would become U+FFFD, and a rewrite would lose them.
 */
function readText(root: string, file: string): string | null {
  assertReadInside(root, file, 'the project');
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file, { maxBytes: PROJECT_FILE_MAX_BYTES, followSymlink: true });
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw toUserFileError(error, file, 'read');
  }
  const text = strictUtf8(bytes, 'keep');
  if (text === null) throw projectFileError(file, 'the file is not valid UTF-8');
  return text;
}
