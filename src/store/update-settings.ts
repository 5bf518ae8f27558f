import {
  accessSync,
  constants,
  lstatSync,
  mkdirSync,
  realpathSync,
  rmdirSync,
  statSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { writeFileDurable } from '../io/durable-write.js';
import { errnoCode, quietly, toStoreError } from '../io/fs-error.js';
import { readRegularFile } from '../io/read-regular-file.js';
import { isReadOnlyMode, readOnlyRefusal } from '../io/read-only-file.js';
import { isPlainObject } from '../json/describe-value.js';
import { parseJson } from '../json/parse-json.js';
import { HookpmError } from '../errors.js';
import { strictUtf8 } from '../text/strict-utf8.js';
import type { StorePaths } from './store-paths.js';
import { settingsFile } from './user-settings.js';

/** The settings of settings.json's `updates` key (docs/reference/rules/policy.md#a15). */
export interface UpdateSettings {
  /** The user's release-age cooldown in days; the policy's, when higher, wins. */
  minimumReleaseAgeDays?: number;
  /**
   * `daily`: a linked agent's SessionStart starts `hookpm update --check` in the background when
   * the last check is a day old or more (ops/wire/background-check.ts); `never` (the default): not.
   */
  check?: 'daily' | 'never';
}

/** The keys `hookpm config set` writes, each with its check. */
export const UPDATE_KEYS = {
  'updates.minimumReleaseAgeDays': (value: string): number | null => {
    const days = Number(value);
    return value.trim() !== '' && Number.isFinite(days) && days >= 0 ? days : null;
  },
  'updates.check': (value: string): string | null =>
    value === 'daily' || value === 'never' ? value : null,
} as const;

export type UpdateKey = keyof typeof UPDATE_KEYS;

const MAX_BYTES = 1024 * 1024;

/**
 * settings.json's `updates`: a value of the wrong type, or a file that cannot be read or parsed, is
 * left out (the policy's cooldown still applies; the settings' other readers report the file).
 */
export function readUpdateSettings(paths: StorePaths): UpdateSettings {
  const document = readSettingsDocument(paths);
  const updates = document?.['updates'];
  if (!isPlainObject(updates)) return {};
  const days = updates['minimumReleaseAgeDays'];
  const check = updates['check'];
  return {
    ...(typeof days === 'number' && Number.isFinite(days) && days >= 0
      ? { minimumReleaseAgeDays: days }
      : {}),
    ...(check === 'daily' || check === 'never' ? { check } : {}),
  };
}

/**
 * `hookpm config set <key> <value>`: writes one key of settings.json's `updates`, keeping every
 * other key of the file; E_USAGE for a value the key does not take, E_IO for a file that is not a
 * JSON object, or not UTF-8 (it is left untouched: rewritten, its other bytes would be lost), and
 * for a file the user made read-only (no write bit: the rename that replaces it would not ask).
 * The file's permission bits are kept.
 */
export async function writeUpdateSetting(
  paths: StorePaths,
  key: UpdateKey,
  value: string,
): Promise<number | string> {
  const parsed = UPDATE_KEYS[key](value);
  if (parsed === null)
    throw new HookpmError('E_USAGE', `${key} does not take ${value}`, {
      hint: `Give ${key === 'updates.check' ? '`daily` or `never`' : 'a number of days (0 or more)'}, as in \`hookpm config set ${key} ${key === 'updates.check' ? 'daily' : '3'}\`.`,
    });
  const file = settingsFile(paths);
  const document = readSettingsDocument(paths, true) ?? {};
  const target = writtenFile(file);
  const mode = modeOf(file);
  if (mode !== null && isReadOnlyMode(mode)) throw readOnlyRefusal('E_IO', file, mode);
  const updates = isPlainObject(document['updates']) ? { ...document['updates'] } : {};
  updates[key.slice('updates.'.length)] = parsed;
  // A config directory made here goes again when the write fails (a full disk): nothing changes.
  const made = lstatSync(paths.config, { throwIfNoEntry: false }) === undefined;
  try {
    mkdirSync(paths.config, { recursive: true });
  } catch (error) {
    throw configDirError(error, paths.config);
  }
  try {
    await writeFileDurable(
      target,
      `${JSON.stringify({ ...document, updates }, null, 2)}\n`,
      mode === null ? {} : { mode },
    );
  } catch (error) {
    if (made) quietly(() => rmdirSync(paths.config));
    throw error;
  }
  return parsed;
}

/**
 * The file a write of settings.json replaces: the end of its symlinks (a settings file linked from
 * a dotfiles repository stays a link, and the repository's file is the one changed, as `hookpm
 * link` does with an agent's settings), the file itself when it is none or not there. E_IO for a
 * symlink that leads to nothing: where the settings would land is not known.
 */
function writtenFile(file: string): string {
  try {
    return realpathSync(file);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw toStoreError(error, file, 'write');
    if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() !== true) return file;
    throw new HookpmError('E_IO', `${file} is a symlink that leads to nothing`, {
      file,
      hint: `Create the file it leads to, or remove the symlink, then run the command again.`,
    });
  }
}

/** The permission bits of `file` (after its symlinks); null when it is not there. */
function modeOf(file: string): number | null {
  try {
    return statSync(file).mode & 0o7777;
  } catch {
    return null;
  }
}

function readSettingsDocument(paths: StorePaths, strict = false): Record<string, unknown> | null {
  const file = settingsFile(paths);
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(file, { maxBytes: MAX_BYTES, followSymlink: true });
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    if (strict) throw configDirError(error, paths.config);
    return null;
  }
  // Strict: a byte that is not UTF-8 would be read, and written back, as U+FFFD.
  const text = strictUtf8(bytes, 'keep');
  const json = text === null ? null : parseJson(text, file);
  if (json?.ok === true && isPlainObject(json.value)) return json.value;
  if (!strict) return null;
  const what =
    text === null
      ? 'valid UTF-8'
      : json?.ok === false
        ? `valid JSON (line ${json.line}, column ${json.column}: ${json.message})`
        : 'a JSON object';
  throw new HookpmError('E_IO', `${file} is not ${what}, so it was not changed`, {
    file,
    hint: `Fix ${file} by hand, then run the command again.`,
  });
}

/**
 * A failure to read or make settings.json's directory: E_IO naming it when it is not a directory
 * (a file, or a symlink to nothing), otherwise as toStoreError (a read-only store, a full disk).
 */
function configDirError(error: unknown, dir: string): HookpmError {
  const code = errnoCode(error);
  const cause = code === 'ENOENT' ? ancestorError(dir) : null;
  if (cause !== null) return toStoreError(cause, dir, 'write settings.json in');
  if (code !== 'ENOTDIR' && code !== 'ENOENT' && code !== 'EEXIST')
    return toStoreError(error, dir, 'write settings.json in');
  return new HookpmError(
    'E_IO',
    `${dir} is not a directory (${code}), so settings.json cannot be written there`,
    {
      file: dir,
      errno: code,
      hint: `Move ${dir} aside (or make it a directory), then run the command again.`,
    },
  );
}

/**
 * Why `dir` could not be made when nothing stands in its way: Node's recursive mkdir says ENOENT
 * for a parent on a read-only mount or one it may not write, so the nearest existing directory
 * above `dir` is asked (access(2), as assertStoreWritable asks). Null when `dir` is there, or that
 * directory is writable or is not a directory (then `dir` is not one either).
 */
function ancestorError(dir: string): unknown {
  if (lstatSync(dir, { throwIfNoEntry: false }) !== undefined) return null;
  for (let at = dirname(dir); ; at = dirname(at)) {
    const stats = statSync(at, { throwIfNoEntry: false });
    if (stats !== undefined) {
      if (!stats.isDirectory()) return null;
      try {
        accessSync(at, constants.W_OK);
        return null;
      } catch (error) {
        return error;
      }
    }
    if (dirname(at) === at) return null;
  }
}
