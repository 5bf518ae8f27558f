import { linkSync, lstatSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { z } from '../json/zod.js';
import { errnoCode, quietly } from './fs-error.js';
import { isProcessAlive } from './process-alive.js';
import { isRefusedFile, readRegularText } from './read-regular-file.js';

/**
 * What a lock file holds: who took the lock, when, with which command, the token that proves
 * ownership, and when the holder's process started (processStartOf; absent where the host does not tell, and in records
 * of older hookpm versions). Built on first use: an uncontended command never reads another's
 * record (releasing needs only the token, lockTokenOf).
 */
function buildHolderSchema() {
  return z.object({
    pid: z.number().check(z.int(), z.positive()),
    hostname: z.string(),
    startedAt: z.string(),
    token: z.string().check(z.regex(/^[0-9a-f]{8,64}$/)),
    processStart: z.optional(z.string()),
    /** The holder's command line, for a waiting command to show (absent in older records). */
    command: z.optional(z.string()),
  });
}
let holderSchema: ReturnType<typeof buildHolderSchema> | undefined;
export type LockHolder = z.infer<ReturnType<typeof buildHolderSchema>>;

/** One observed instance of a lock (or takeover marker) file. */
export interface LockSighting {
  /** null when the file is unreadable as a lock record (it is then judged by age only). */
  holder: LockHolder | null;
  /** Names this instance: the holder's token, or the inode for an unreadable record. */
  identity: string;
  mtimeMs: number;
  /**
   * When the file was created or its content last changed (its ctime, which no program can set
   * to the past or the future): how long an unreadable record has been as it is.
   */
  changedMs: number;
}

/**
 * The lock's files are tiny and each step needs the one before it, so their calls are synchronous:
 * a thread-pool round trip per call costs more than the call (bench/install.bench.mjs).
 *
 * Creates `file` holding `holder` only if it does not exist. The record is written to a private
 * temporary file first and hard-linked into place, so the file never exists half-written; the
 * temporary file is gone however this ends. Returns false when the file already exists.
 */
export async function createExclusive(file: string, holder: LockHolder): Promise<boolean> {
  const temp = lockTempFile(file, holder);
  try {
    // Inside the try: a write that fails after creating the file (a full disk) leaves none.
    writeFileSync(temp, JSON.stringify(holder), { mode: 0o644 });
    linkSync(temp, file);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    quietly(() => unlinkSync(temp));
  }
}

/**
 * Whether a directory stands where the lock file goes: none hookpm made (its lock is a file), and
 * never removed by it, however stale it looks (registry.md D3).
 */
export function isLockDirectory(file: string): boolean {
  return lstatSync(file, { throwIfNoEntry: false })?.isDirectory() === true;
}

/**
 * The private temporary file a lock record is written to before it is linked or renamed into
 * place. It names the writer's pid so that one killed mid-write is known to be debris even when its
 * content is incomplete (store/collect.ts).
 */
export function lockTempFile(file: string, holder: LockHolder): string {
  return `${file}.${holder.pid}-${holder.token}.tmp`;
}

/** A lock record is under a kilobyte; a larger file is not one. */
const LOCK_MAX_BYTES = 64 * 1024;

/**
 * Reads a lock file; undefined when it does not exist (any more). A file there that is not a
 * regular file (a symlink, a FIFO, a device: never followed, waited on or read) is no lock hookpm
 * made, as hookpm links a regular file into place: it is an unreadable record of age "always", so
 * isStale judges it stale at once and it is replaced. A regular file over LOCK_MAX_BYTES is an
 * unreadable record of its own age.
 */
export async function readLockFile(file: string): Promise<LockSighting | undefined> {
  try {
    const stats = lstatSync(file);
    if (!stats.isFile()) {
      return { holder: null, identity: `ino${stats.ino}`, mtimeMs: 0, changedMs: 0 };
    }
    const text = readLockText(file);
    const parsed = (holderSchema ??= buildHolderSchema()).safeParse(safeJson(text));
    const holder = parsed.success ? parsed.data : null;
    const identity = holder?.token ?? `ino${stats.ino}`;
    return { holder, identity, mtimeMs: stats.mtimeMs, changedMs: stats.ctimeMs };
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** The record's text; '' (no record) for a file that is not a regular file of a lock's size. */
function readLockText(file: string): string {
  try {
    return readRegularText(file, { maxBytes: LOCK_MAX_BYTES });
  } catch (error) {
    if (isRefusedFile(error)) return '';
    throw error;
  }
}

/** The token in the lock record at `file`; undefined when it is missing or has none. */
export function lockTokenOf(file: string): string | undefined {
  try {
    const text = readRegularText(file, { maxBytes: LOCK_MAX_BYTES });
    const token = (safeJson(text) as { token?: unknown } | null)?.token;
    return typeof token === 'string' ? token : undefined;
  } catch {
    return undefined;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A lock is stale when its holder ran on this host and is gone (`kill(pid, 0)` says ESRCH), or when
 * its pid now names another process: one whose start time (processStartOf) is not the one the
 * record holds, as after the holder was killed and its pid reused by any program. A holder on this
 * host that is alive and is the process that wrote the record is never stale, however long ago it
 * last refreshed the lock (a process starved of CPU must not lose its lock mid-transaction); one
 * whose start time cannot be compared is stale after UNTOLD_STALE_FACTOR times `staleMs` without a
 * refresh. A lock of another host is judged by age: stale when not refreshed for `staleMs` (holders
 * refresh its mtime while they hold it). An unreadable record is no live holder's, as hookpm links
 * a whole record into place (createExclusive) and renames one over it (never writes it in place):
 * it is stale once it has stood unchanged for UNREADABLE_GRACE_MS (or `staleMs`, if shorter), the
 * grace left to a writer that is not hookpm's and fills the file after creating it.
 */
export function isStale(sighting: LockSighting, staleMs: number): boolean {
  const { holder } = sighting;
  const now = Date.now();
  const age = now - sighting.mtimeMs;
  if (holder === null) {
    return now - sighting.changedMs > Math.min(UNREADABLE_GRACE_MS, staleMs) || age > staleMs;
  }
  if (holder.hostname === hostname()) {
    if (!isProcessAlive(holder.pid)) return true;
    const start = holder.processStart === undefined ? null : processStartOf(holder.pid);
    if (start === null) return age > staleMs * UNTOLD_STALE_FACTOR;
    return start !== holder.processStart;
  }
  return age > staleMs;
}

/**
 * How long an unreadable lock record stands unchanged before it is replaced (isStale): far shorter
 * than a command's wait for the lock, far longer than any writer takes between creating a file and
 * writing into it.
 */
const UNREADABLE_GRACE_MS = 1000;

/**
 * Where a live holder's start time cannot be compared (a record without one, from an older hookpm
 * or a host where processStartOf tells nothing, such as macOS and Windows), a pid reused by another
 * program would hold the lock forever: such a lock is stale once nobody refreshed it for this many
 * times `staleMs` (ten minutes by default; a holder refreshes it every quarter of `staleMs`).
 */
const UNTOLD_STALE_FACTOR = 10;

let bootId: string | undefined;

/**
 * When process `pid` started, as the host tells it, or null where it does not (not Linux, the
 * process gone, /proc hidden): on Linux field 22 of /proc/<pid>/stat, the start time in clock
 * ticks since boot (proc(5)), after the boot id, so a pid reused after a reboot differs too.
 */
export function processStartOf(pid: number): string | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Field 2, the command name, is in parentheses and may hold spaces and ")": fields 3.. follow
  // the last ")", so field 22 is the 20th of them.
  const ticks = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .at(19);
  if (ticks === undefined || !/^\d+$/.test(ticks)) return null;
  bootId ??= readBootId();
  return `${bootId}:${ticks}`;
}

function readBootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}
