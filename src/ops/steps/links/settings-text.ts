import { isBlankSettings, readSettingsDocument } from '../../../agents/settings-document.js';
import { HookpmError } from '../../../errors.js';
import { readRegularFile } from '../../../io/read-regular-file.js';
import { readOnlyRefusal } from '../../../io/read-only-file.js';
import { isBackupOf, type LinkRecord } from '../../../store/link-records.js';
import type { StorePaths } from '../../../store/store-paths.js';
import {
  isReadOnly,
  readSettingsFile,
  SETTINGS_FILE_MAX_BYTES,
  type SettingsFile,
} from '../../../workspace/agent-settings-file.js';
import { strictUtf8 } from '../../../text/strict-utf8.js';

/** A settings file read and checked for editing: its text without a byte-order mark. */
export interface SettingsText {
  file: SettingsFile;
  /** null when there is no file. */
  text: string | null;
  settings: Record<string, unknown>;
  bom: boolean;
}

const BOM = '\ufeff';

/**
 * Reads an agent's settings file and checks it can be edited without loss (settings-document.ts);
 * an empty one is read as `{}`. Errors: E_AGENT_SETTINGS for a file that is not valid UTF-8,
 * strict JSON or of the settings shape (nothing is written then); E_IO and kin when it cannot be
 * read. `configKeys`: the agent's `hooksConfigKeys`.
 */
export async function readSettingsText(
  path: string,
  configKeys: readonly string[] = [],
): Promise<SettingsText> {
  const file = await readSettingsFile(path);
  if (file.bytes === null) return { file, text: null, settings: {}, bom: false };
  const decoded = strictUtf8(file.bytes, 'keep');
  if (decoded === null) throw refused(path, `${path}: the file is not valid UTF-8`);
  const checked = readSettingsDocument(decoded, path, configKeys);
  if (!checked.ok) throw refused(path, checked.problem);
  // An empty file is edited as `{}` is; its bytes are backed up, but never restored (readBackup).
  const text = isBlankSettings(decoded) ? '{}' : checked.bom ? decoded.slice(BOM.length) : decoded;
  return { file, text, settings: checked.value, bom: checked.bom };
}

/** A backup of a settings file from before the agent's first link, read and checked. */
export interface SettingsBackup {
  bytes: Buffer;
  settings: Record<string, unknown>;
}

/**
 * The backup a link record names for `key` (link-records.ts), when it is one of the store's backups
 * of that file and still holds a settings document: null otherwise (no record, a record that
 * cannot restore or names no backup, a backup gone, unreadable, torn or not strict JSON of the
 * settings shape), so unlink never writes bytes it cannot parse into the user's file.
 */
export function readBackup(
  store: StorePaths,
  key: string,
  record: LinkRecord | null,
  configKeys: readonly string[] = [],
): SettingsBackup | null {
  if (record === null || !record.restorable || record.before === null) return null;
  if (!isBackupOf(store, key, record.before)) return null;
  try {
    // The backup hookpm made: a regular file, never read through a symlink.
    const bytes = readRegularFile(record.before, { maxBytes: SETTINGS_FILE_MAX_BYTES });
    const text = strictUtf8(bytes, 'keep');
    // An empty backup may be a torn one: never restored, though an empty settings file reads as
    // `{}` (unlink then takes hookpm's handlers out of the file instead).
    if (text === null || isBlankSettings(text)) return null;
    const checked = readSettingsDocument(text, record.before, configKeys);
    return checked.ok ? { bytes, settings: checked.value } : null;
  } catch {
    return null;
  }
}

/**
 * The settings document the file held before the agent's first link, from the link record's backup
 * (readBackup), for link-edit.ts to keep what the user had: `{}` when there was no file; null
 * when it is not known.
 */
export function settingsBefore(
  store: StorePaths,
  key: string,
  record: LinkRecord | null,
  configKeys: readonly string[] = [],
): Record<string, unknown> | null {
  if (record === null || !record.restorable) return null;
  if (record.before === null) return {};
  return readBackup(store, key, record, configKeys)?.settings ?? null;
}

/** The bytes of edited text, with the byte-order mark the file had. */
export function settingsBytes(text: string, bom: boolean): Buffer {
  return Buffer.from(bom ? `${BOM}${text}` : text, 'utf8');
}

/** Whether the file still has the bytes it had when read (nothing else wrote it meanwhile). */
export async function unchangedSince(read: SettingsText): Promise<boolean> {
  const now = await readSettingsFile(read.file.path);
  if (now.bytes === null || read.file.bytes === null) return now.bytes === read.file.bytes;
  return now.bytes.equals(read.file.bytes);
}

/**
 * Refuses to edit a settings file the user made read-only (isReadOnly): E_AGENT_SETTINGS, before
 * any backup or write, so the file is left byte-identical.
 */
export function assertWritable(read: SettingsText): void {
  const { path, target, mode } = read.file;
  if (isReadOnly(read.file)) throw readOnlyRefusal('E_AGENT_SETTINGS', path, mode ?? 0, target);
}

export function changedMeanwhile(path: string): HookpmError {
  return new HookpmError(
    'E_AGENT_SETTINGS',
    `${path} changed while hookpm was editing it; nothing was written`,
    {
      file: path,
      hint: 'Run the command again.',
    },
  );
}

function refused(path: string, problem: string): HookpmError {
  return new HookpmError('E_AGENT_SETTINGS', `cannot edit ${problem}; the file was left as it is`, {
    file: path,
    hint: `Fix the file by hand (or move it away), then run the command again.`,
  });
}
