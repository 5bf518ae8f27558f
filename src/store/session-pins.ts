import { closeSync, existsSync, fstatSync, futimesSync } from 'node:fs';
import { mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { openRegularFile, readOpenedFile, readRegularText } from '../io/read-regular-file.js';
import { join } from 'node:path';
import { writeFileDurableHeld } from '../io/durable-write.js';
import { isOpenFileAt } from '../io/file-identity.js';
import { sha256Hex } from '../json/canonical-json.js';
import { markPinReleased } from './collect-marker.js';
import { parsePin, type SessionPin } from './session-pin-schema.js';
import type { StorePaths } from './store-paths.js';
import {
  pinNameOfTable,
  removePinTables,
  tablesUsedAt,
  tableStopCount,
  writePinTables,
  writeTableStopCount,
} from './session-pin-tables.js';

/**
 * engine.md R1 for linked agents: one pin per agent session, `<data>/sessions/<key>.json`, the key
 * the session id when it is a plain word (a UUID), else a hash of it (ids are the agent's). A pin holds
 * the plugin documents the session runs until it ends or is reloaded.
 */
export function sessionsDir(paths: StorePaths): string {
  return join(paths.data, 'sessions');
}

export function pinFile(paths: StorePaths, sessionId: string): string {
  // A UUID, as the agents' ids are, names its file as it is: no hash to load node:crypto for.
  const key = SAFE_ID.test(sessionId)
    ? `id-${sessionId}`
    : `sha-${sha256Hex(sessionId).slice(0, 32)}`;
  return join(sessionsDir(paths), `${key}.json`);
}

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** A pin unused this long belongs to a session that ended without SessionEnd: it is collected. */
export const PIN_STALE_MS = 7 * 24 * 60 * 60_000;

/**
 * A pin larger than this is not read (it is a few kilobytes). Like every file of the store, a pin
 * is read only when it is a regular file and not a symlink (io/read-regular-file.ts); anything else
 * is no pin, and the session is pinned afresh.
 */
const PIN_MAX_BYTES = 16 * 1024 * 1024;

/** A pin in use is touched at most this often, so staleness needs no write per event. */
const TOUCH_EVERY_MS = 60 * 60_000;

/**
 * The pin of a session, or null when there is none, it cannot be read, or it is not a pin this
 * hookpm wrote (the caller pins afresh). Reading a pin marks it used (see PIN_STALE_MS).
 * Synchronous: one small file on the path of every linked event.
 */
export function readPin(paths: StorePaths, sessionId: string, now = Date.now()): SessionPin | null {
  const read = readHeldPin(paths, sessionId, now);
  if (read === null) return null;
  closeSync(read.fd);
  return read.pin;
}

/** A pin with the descriptor of the file it was read from, still open (see writeTables). */
export interface HeldPin {
  pin: SessionPin;
  fd: number;
}

/** readPin that leaves the pin's file open: the caller closes `fd`. */
export function readHeldPin(
  paths: StorePaths,
  sessionId: string,
  now = Date.now(),
): HeldPin | null {
  let fd: number;
  try {
    fd = openRegularFile(pinFile(paths, sessionId), { maxBytes: PIN_MAX_BYTES });
  } catch {
    return null;
  }
  let pin: SessionPin | null = null;
  try {
    const text = readOpenedFile(fd, pinFile(paths, sessionId), PIN_MAX_BYTES).toString('utf8');
    if (now - fstatSync(fd).mtimeMs > TOUCH_EVERY_MS) futimesSync(fd, now / 1000, now / 1000);
    pin = parsePin(JSON.parse(text));
  } catch {
    pin = null;
  }
  if (pin !== null && pin.sessionId === sessionId) return { pin, fd };
  closeSync(fd);
  return null;
}

/**
 * Writes a session's pin durably (D2), replacing any earlier one, then its tables by event and
 * matcher (session-pin-tables.ts; a table that cannot be written is rebuilt from the pin later).
 * An earlier pin replaced is marked released (registry.md S41): trees only it ran are collected.
 */
export async function writePin(paths: StorePaths, pin: SessionPin): Promise<void> {
  await mkdir(sessionsDir(paths), { recursive: true });
  const file = pinFile(paths, pin.sessionId);
  const replaced = existsSync(file);
  removePinTables(file);
  const held = writeFileDurableHeld(file, `${JSON.stringify(pin)}\n`, { mode: 0o600 });
  try {
    if (replaced) markPinReleased(paths);
    writeTables(file, pin, held);
  } finally {
    closeSync(held);
  }
}

/**
 * Writes the tables of a pin already written; false when they could not be (ignored). `held`: a
 * descriptor of the file `pin` was written to or read from, open until this returns. Only a whole
 * pin has tables (nothing in it fails closed, and it was made from a readable state): any other
 * is made afresh at each event (ops/wire/session-pin.ts), which the tables would skip.
 *
 * Two events of one session may pin at once (parallel tool calls at its start, across an update):
 * when the pin file is no longer that file once its tables are written, they may have replaced
 * the stored pin's, and would run trees no stored pin keeps from collection (registry.md S41), or
 * carry a Stop count the stored pin no longer has: they are removed, and written again from the
 * stored pin at a later event. A pin is only ever replaced by a rename, so "no longer that file"
 * is one stat of `file` compared with the open descriptor (device and inode), not a read of the
 * pin again.
 */
export function writeTables(file: string, pin: SessionPin, held: number): boolean {
  if (!isWholePin(pin)) return false;
  try {
    writePinTables(file, pin);
  } catch {
    return false;
  }
  if (isOpenFileAt(held, file)) return true;
  removePinTables(file);
  return false;
}

/**
 * Sets a stored pin's Stop continuation count (engine.md O3): in the head of its tables, which is
 * where the count is read from while they exist, else in the pin itself.
 */
export async function writeStopCount(
  paths: StorePaths,
  pin: SessionPin,
  count: number,
): Promise<void> {
  const file = pinFile(paths, pin.sessionId);
  let written = false;
  try {
    written = writeTableStopCount(file, pin.sessionId, count);
  } catch {
    written = false;
  }
  if (written) return;
  // `pin` may be a table's part of the pin: the whole one is what is written.
  const whole = readPin(paths, pin.sessionId);
  if (whole !== null) await writePin(paths, { ...whole, stopContinuations: count });
}

/** The session's Stop count: its tables' while they exist, else the pin's own. */
export function stopCountOf(paths: StorePaths, pin: SessionPin): number {
  return tableStopCount(pinFile(paths, pin.sessionId), pin.sessionId) ?? pin.stopContinuations;
}

/** A pin kept for later events: nothing in it fails closed, and it was made from a readable state. */
export function isWholePin(pin: SessionPin): boolean {
  // A plugin the policy stops (docs/reference/rules/policy.md#a13) is left out of a whole pin.
  const failing = (pin.failClosed ?? []).filter((e) => !(e.enforced === true && e.open === true));
  return failing.length === 0 && !pin.diagnostics.some((d) => d.code === 'plugin_state_unreadable');
}

/**
 * Releases a session's pin (SessionEnd) and its tables, then marks it released (registry.md S41);
 * no pin is not an error.
 */
export async function removePin(paths: StorePaths, sessionId: string): Promise<void> {
  const file = pinFile(paths, sessionId);
  removePinTables(file);
  const removed = await unlink(file).then(
    () => true,
    () => false,
  );
  if (removed) markPinReleased(paths);
}

/** Every readable pin with its file's last use, oldest first. */
export async function listPins(
  paths: StorePaths,
): Promise<Array<{ pin: SessionPin; file: string; usedAt: number }>> {
  const names = await readdir(sessionsDir(paths)).catch(() => [] as string[]);
  const found: Array<{ pin: SessionPin; file: string; usedAt: number }> = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const file = join(sessionsDir(paths), name);
    try {
      const text = readRegularText(file, { maxBytes: PIN_MAX_BYTES });
      const info = await stat(file);
      const pin = parsePin(JSON.parse(text));
      // An event reads the pin's tables, not the pin: the later of the two is its last use.
      const usedAt = Math.max(info.mtimeMs, tablesUsedAt(file));
      if (pin !== null) found.push({ pin, file, usedAt });
    } catch {
      // A pin being replaced or removed meanwhile is not listed.
    }
  }
  return found.sort((a, b) => a.usedAt - b.usedAt);
}

/**
 * Removes the pins unused for PIN_STALE_MS with their tables, and files of `sessions/` that are
 * not pins at all (a crash's temporary file, a pin of another version) once as old. A pin's
 * tables are its pin's: kept while the pin or its head was used within PIN_STALE_MS. Returns the
 * files removed.
 */
export async function collectStalePins(paths: StorePaths, now = Date.now()): Promise<string[]> {
  const names = await readdir(sessionsDir(paths)).catch(() => [] as string[]);
  const removed: string[] = [];
  const present = new Set(names);
  const usedAt = new Map<string, number>();
  const lastUse = async (name: string): Promise<number | null> => {
    const file = join(sessionsDir(paths), name);
    if (!usedAt.has(name)) {
      const info = await stat(file).catch(() => null);
      usedAt.set(name, info === null ? -1 : Math.max(info.mtimeMs, tablesUsedAt(file)));
    }
    const at = usedAt.get(name)!;
    return at < 0 ? null : at;
  };
  for (const name of names) {
    const file = join(sessionsDir(paths), name);
    const pinName = pinNameOfTable(name);
    const pinUsed = pinName === null || !present.has(pinName) ? null : await lastUse(pinName);
    const info = await stat(file).catch(() => null);
    if (info === null) continue;
    const used = Math.max(
      info.mtimeMs,
      pinUsed ?? 0,
      name.endsWith('.json') ? tablesUsedAt(file) : 0,
    );
    if (now - used <= PIN_STALE_MS) continue;
    if (
      await unlink(file).then(
        () => true,
        () => false,
      )
    )
      removed.push(file);
  }
  // registry.md S41: a stale pin's trees are already collectable; its removal is marked as well.
  if (removed.length > 0) markPinReleased(paths);
  return removed;
}

/** What the pins of the store hold, as garbage collection (D4) needs it. */
export interface PinnedTrees {
  /** The installed trees live pins run: collection spares them. */
  roots: Set<string>;
  /** Their fingerprints: their installed-files lists stay. */
  fingerprints: Set<string>;
  /** Some pin has gone stale (registry.md S41: its trees may be named by nothing now). */
  stale: boolean;
}

export async function pinnedTrees(paths: StorePaths, now = Date.now()): Promise<PinnedTrees> {
  const found: PinnedTrees = { roots: new Set(), fingerprints: new Set(), stale: false };
  for (const { pin, usedAt } of await listPins(paths)) {
    if (now - usedAt > PIN_STALE_MS) {
      found.stale = true;
      continue;
    }
    for (const plugin of pin.plugins) {
      found.roots.add(plugin.root);
      found.fingerprints.add(plugin.fingerprint);
    }
  }
  return found;
}
