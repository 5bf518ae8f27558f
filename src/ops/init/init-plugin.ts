import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { HookpmError } from '../../errors.js';
import type { EventName } from '../../hooks/events.js';
import { toUserFileError } from '../../io/fs-error.js';
import { isValidPluginName } from '../../plugin/name.js';
import { assertWriteInside } from '../../workspace/inside-root.js';
import { pluginTemplate } from './plugin-template.js';
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
 * directory that is not empty is refused unless `existing`, and then any file of the template
 * that exists already refuses the whole (E_TARGET_EXISTS, nothing written); each file is created
 * exclusively, so one made meanwhile is not overwritten either; a file that a symlinked folder
 * would put outside `dir` refuses the whole (E_SYMLINK_ESCAPE). E_NAME_INVALID for a name that
 * breaks P3 (the directory's, when no name is given).
 */
export function initPlugin(options: InitOptions): InitResult {
  const dir = resolve(options.dir);
  const name = options.name ?? basename(dir);
  if (!isValidPluginName(name)) throw badName(name, options.name === undefined);
  const files = pluginTemplate(name, options.event);
  const present = entriesOf(dir);
  if (present !== null && present.length > 0) {
    const clashes = files.map((f) => f.path).filter((path) => exists(join(dir, path)));
    if (options.existing !== true || clashes.length > 0)
      throw notEmpty(dir, options.existing === true ? clashes : present);
    // J2: a symlinked folder (`hooks/` -> elsewhere) is refused before anything is written.
    for (const file of files)
      assertWriteInside(dir, join(dir, ...file.path.split('/')), 'the plugin directory');
  }
  const written: string[] = [];
  for (const file of files) {
    const target = join(dir, ...file.path.split('/'));
    try {
      mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
      const fd = openSync(target, CREATE_NEW, file.mode);
      try {
        writeSync(fd, file.text);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw notEmpty(dir, [file.path]);
      throw toUserFileError(error, target, 'write the new plugin');
    }
    written.push(file.path);
  }
  return { dir, name, event: options.event, files: written };
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

function badName(name: string, fromDir: boolean): HookpmError {
  return new HookpmError(
    'E_NAME_INVALID',
    `invalid plugin name ${JSON.stringify(clip(name))}${fromDir ? ' (the directory name)' : ''}: expected 1-64 characters of a-z, 0-9, ".", "_" or "-", starting with a letter or digit`,
    { name, hint: 'Pass --name <name> with a lower-case ASCII name such as "my-plugin".' },
  );
}
