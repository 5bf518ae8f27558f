import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { HookpmError } from '../../errors.js';
import type { EventName } from '../../hooks/events.js';
import { quietly, toUserFileError } from '../../io/fs-error.js';
import { isValidPluginName } from '../../plugin/name.js';
import { MANIFEST_FILES } from '../../store/read-plugin.js';
import { assertWriteInside } from '../../workspace/inside-root.js';
import { pluginTemplate, type TemplateFile } from './plugin-template.js';
import { clip } from '../../text/clip.js';

export interface InitOptions {
  /** The plugin directory; made when missing. */
  dir: string;
  event: EventName;
  /** The plugin name; default the directory's name. */
  name?: string;
  /** Write into a directory that already holds files (none of the new ones may exist). */
  existing?: boolean;
}

export interface InitResult {
  dir: string;
  name: string;
  event: EventName;
  /** Relative to `dir`, in the order written. */
  files: string[];
}

const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * `hookpm init [dir]`: writes a new plugin (plugin-template.ts) into `dir`. Never overwrites: a
 * directory that is not empty is refused unless `existing`, and then any file of the template or
 * any other manifest (plugin.json, Codex's, Cursor's: P1, G5, which would name the plugin instead)
 * that exists already refuses the whole (E_TARGET_EXISTS, nothing written); each file is created
 * exclusively, so one made meanwhile is not overwritten either; a file that a symlinked folder
 * would put outside `dir` refuses the whole (E_SYMLINK_ESCAPE). E_NAME_INVALID for a name that
 * breaks P3 (the directory's, when no name is given). A file that cannot be written (a full disk,
 * a read-only one: E_NOSPC, E_IO) fails the whole, the files and folders made so far removed.
 */
export function initPlugin(options: InitOptions): InitResult {
  const dir = resolve(options.dir);
  const name = options.name ?? basename(dir);
  if (!isValidPluginName(name)) throw badName(name, options.name === undefined);
  const files = pluginTemplate(name, options.event);
  const present = entriesOf(dir);
  if (present !== null && present.length > 0) {
    // P1, G5: a manifest already there would name the plugin (or disagree with the new one).
    const paths = new Set<string>([...MANIFEST_FILES, ...files.map((f) => f.path)]);
    const clashes = [...paths].filter((path) => exists(join(dir, path)));
    if (options.existing !== true || clashes.length > 0)
      throw options.existing === true ? clash(dir, clashes) : notEmpty(dir, present);
    // J2: a symlinked folder (`hooks/` -> elsewhere) is refused before anything is written.
    for (const file of files)
      assertWriteInside(dir, join(dir, ...file.path.split('/')), 'the plugin directory');
  }
  const written: string[] = [];
  const made = { dirs: [] as string[], files: [] as string[] };
  try {
    for (const file of files) {
      writeNewFile(dir, join(dir, ...file.path.split('/')), file, made);
      written.push(file.path);
    }
  } catch (error) {
    undo(made);
    throw error;
  }
  return { dir, name, event: options.event, files: written };
}

/**
 * Creates `target` (exclusively, never through a link) holding `file`'s text, with the folders it
 * needs, and records in `made` each folder and file it made. Every byte is written or it throws: a
 * write that stops short (a full disk) is a failure, never a torn file left as if whole.
 */
function writeNewFile(
  dir: string,
  target: string,
  file: TemplateFile,
  made: { dirs: string[]; files: string[] },
): void {
  try {
    const folder = dirname(target);
    const first = mkdirSync(folder, { recursive: true, mode: 0o755 });
    if (first !== undefined) made.dirs.push(...foldersFrom(first, folder));
    const fd = openSync(target, CREATE_NEW, file.mode);
    made.files.push(target);
    try {
      writeFileSync(fd, file.text); // every byte, or it throws (ENOSPC)
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw notEmpty(dir, [file.path]);
    throw toUserFileError(error, target, 'write the new plugin');
  }
}

/** `first` and each folder below it down to `last` (which is inside it), outermost first. */
function foldersFrom(first: string, last: string): string[] {
  const folders = [first];
  const parts = relative(first, last).split(sep);
  for (const part of parts) if (part !== '') folders.push(join(folders.at(-1) as string, part));
  return folders;
}

/**
 * A failed init takes back what it made, so the directory is as it was: the files it created,
 * then the folders it created, innermost first (rmdir: only while empty, so nothing another
 * process put there meanwhile is removed).
 */
function undo(made: { dirs: string[]; files: string[] }): void {
  for (const file of made.files.reverse()) quietly(() => unlinkSync(file));
  for (const folder of made.dirs.reverse()) quietly(() => rmdirSync(folder));
}

/** The names in `dir`, or null when it does not exist; E_USAGE when it is not a directory. */
function entriesOf(dir: string): string[] | null {
  try {
    return readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ENOTDIR')
      throw new HookpmError('E_USAGE', `${dir} is not a directory`, {
        file: dir,
        hint: 'Name a new or an empty directory for the plugin.',
      });
    throw toUserFileError(error, dir, 'read the directory');
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function notEmpty(dir: string, found: readonly string[]): HookpmError {
  const shown = found.slice(0, 5).join(', ') + (found.length > 5 ? ', ...' : '');
  return new HookpmError(
    'E_TARGET_EXISTS',
    `${dir} is not empty (found ${shown}); nothing was written`,
    {
      file: dir,
      found,
      hint: 'Name a new or an empty directory, or pass --existing to add the plugin files beside what is there (no file is ever overwritten).',
    },
  );
}

/** --existing where a file init would write, or another manifest, is there already. */
function clash(dir: string, found: readonly string[]): HookpmError {
  const error = notEmpty(dir, found);
  return new HookpmError(error.code, error.message, {
    ...error.details,
    hint: 'Move the files it names aside, or name a new or an empty directory (no file is ever overwritten).',
  });
}

function badName(name: string, fromDir: boolean): HookpmError {
  return new HookpmError(
    'E_NAME_INVALID',
    `invalid plugin name ${JSON.stringify(clip(name))}${fromDir ? ' (the directory name)' : ''}: expected 1-64 characters of a-z, 0-9, ".", "_" or "-", starting with a letter or digit`,
    { name, hint: 'Pass --name <name> with a lower-case ASCII name such as "my-plugin".' },
  );
}
