import { mkdir, readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFileDurable } from '../io/durable-write.js';
import { toStoreError } from '../io/fs-error.js';
import { readRegularText } from '../io/read-regular-file.js';
import { sha256Hex } from '../json/canonical-json.js';
import { z } from '../json/zod.js';
import type { StorePaths } from './store-paths.js';

/**
 * What `hookpm link` remembers of each settings file it edited, `<data>/links/<key>.json`, so that
 * `unlink` can give the file back byte for byte: the bytes the file had before the link (a backup
 * under `<data>/links/backups/`, or null when there was no file) and the SHA-256 of what link
 * wrote. When the file still hashes as written, nothing else changed it, and unlink restores the
 * backup; otherwise unlink takes out only hookpm's handlers.
 */
const linkRecordSchema = z.object({
  version: z.literal(1),
  agent: z.string(),
  file: z.string(),
  /** The backup of the file as it was before the link; null: there was no file. */
  before: z.nullable(z.string()),
  /** False when the file held a link already that hookpm has no record of: no restore. */
  restorable: z.boolean(),
  /**
   * With `before` null: the highest directory link made for the file (none of it existed), which
   * unlink removes again with the file, when empty; absent: link made none.
   */
  madeDir: z.optional(z.string()),
  writtenSha256: z.string(),
});

export type LinkRecord = z.infer<typeof linkRecordSchema>;

/** Backups kept per settings file; older ones are removed (the record's own is always kept). */
const BACKUPS_KEPT = 10;

function linksDir(paths: StorePaths): string {
  return join(paths.data, 'links');
}

function backupsDir(paths: StorePaths): string {
  return join(linksDir(paths), 'backups');
}

/** The record key of one agent's settings file. */
export function linkKey(agent: string, file: string): string {
  return `${agent}-${sha256Hex(file).slice(0, 16)}`;
}

/** A link record larger than this is no record (it is a few hundred bytes). */
const RECORD_MAX_BYTES = 1024 * 1024;

/** The record of `key`; null when there is none or it is not a regular file holding a record. */
export async function readLinkRecord(paths: StorePaths, key: string): Promise<LinkRecord | null> {
  try {
    const parsed = linkRecordSchema.safeParse(
      JSON.parse(
        readRegularText(join(linksDir(paths), `${key}.json`), { maxBytes: RECORD_MAX_BYTES }),
      ),
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function writeLinkRecord(
  paths: StorePaths,
  key: string,
  record: LinkRecord,
): Promise<void> {
  await makeStoreDir(linksDir(paths));
  await writeFileDurable(
    join(linksDir(paths), `${key}.json`),
    `${JSON.stringify(record, null, 2)}\n`,
  );
}

/**
 * Puts `earlier` (null: no record) back as the record of `key`, after a link that wrote its record
 * could not write the settings file. Never throws: a record left naming bytes the file does not
 * hold only makes unlink take hookpm's handlers out instead of restoring a backup.
 */
export async function putBackLinkRecord(
  paths: StorePaths,
  key: string,
  earlier: LinkRecord | null,
): Promise<void> {
  if (earlier === null) await removeLinkRecord(paths, key);
  else await writeLinkRecord(paths, key, earlier).catch(() => undefined);
}

export async function removeLinkRecord(paths: StorePaths, key: string): Promise<void> {
  await unlink(join(linksDir(paths), `${key}.json`)).catch(() => undefined);
}

/**
 * Writes a settings file's bytes as read (`bytes`, with its permission bits `mode`) to
 * `<data>/links/backups/<key>-<time>.json` before hookpm replaces them, durably (registry.md D2:
 * a crash never leaves a torn backup for unlink to restore). Returns the backup's path. The caller
 * discards it (discardBackup) when the settings file is not replaced after all, and prunes the
 * older ones (pruneBackups) once it is, so a failed command leaves the backups as they were.
 * Errors: E_NOSPC, E_STORE_READONLY, E_IO, before the settings file is touched.
 */
export async function backupSettings(
  paths: StorePaths,
  key: string,
  bytes: Uint8Array,
  mode: number | null,
  now = new Date(),
): Promise<string> {
  await makeStoreDir(backupsDir(paths));
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const backup = join(backupsDir(paths), `${key}-${stamp}.json`);
  await writeFileDurable(backup, bytes, mode === null ? {} : { mode });
  return backup;
}

/** Removes a backup backupSettings made for a write that did not happen. Never throws. */
export async function discardBackup(backup: string): Promise<void> {
  await unlink(backup).catch(() => undefined);
}

/**
 * Keeps the newest BACKUPS_KEPT backups of `key` and `keep` (the one a link record names), after
 * the settings file was replaced. Never throws: a backup left over is only one too many.
 */
export async function pruneBackups(
  paths: StorePaths,
  key: string,
  keep: string | null,
): Promise<void> {
  const names = await readdir(backupsDir(paths)).catch(() => []);
  const mine = names
    .filter((name) => name.startsWith(`${key}-`))
    .sort()
    .reverse();
  for (const name of mine.slice(BACKUPS_KEPT)) {
    const old = join(backupsDir(paths), name);
    if (old !== keep) await unlink(old).catch(() => undefined);
  }
}

/**
 * Whether `file` is one of the backups backupSettings made of `key`'s settings file: a record
 * naming any other path (damaged, or written by hand) is no backup, and nothing is restored from it.
 */
export function isBackupOf(paths: StorePaths, key: string, file: string): boolean {
  return dirname(file) === backupsDir(paths) && basename(file).startsWith(`${key}-`);
}

/** mkdir -p of one of the store's directories; E_NOSPC, E_STORE_READONLY or E_IO when it fails. */
async function makeStoreDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true }).catch((error: unknown) => {
    throw toStoreError(error, dir, 'create');
  });
}
