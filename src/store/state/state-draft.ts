import { closeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { HookpmError } from '../../errors.js';
import { errnoCode, toStoreError } from '../../io/fs-error.js';
import { stateFile } from '../paths.js';
import type { StorePaths } from '../store-paths.js';
import type { State } from './state-schema.js';
import { openRegularFile, readOpenedFile } from '../../io/read-regular-file.js';
import { STATE_MAX_BYTES } from './read-state-bytes.js';
import { emptyState } from './state-schema.js';
import { readState, serializeState, serializeStateParts, writeStateBytes } from './state.js';
import { lazyStateOf } from './lazy-state.js';
import { fileIdentity, isSealed, stateIdentity, unsealState } from './state-seal.js';

/*
 * registry.md S40: the state of a transaction, read, changed and written with one parse and one
 * serialisation. A command reads the state before it takes the lock (to resolve what it installs)
 * and again under it; when the file under the lock is the one read before (its identity
 * unchanged), the state read then becomes the draft, neither read again nor cloned. Whether the
 * draft changed is told by its serialisation against the bytes read, and that serialisation is
 * what is written. S42: a state file hookpm wrote itself (state-seal.ts) is read entry by entry
 * (lazy-state.ts), so a transaction parses and writes only the plugins it touches.
 */

/** The state read for a draft: its bytes (null when the store has no state file yet). */
export interface StateDraft {
  /** Owned by the caller, to change and pass to writeDraft. */
  state: State;
  /** The bytes the state was read from, null when there was no state file. */
  bytes: Buffer | null;
}

/** A state read with the identity (state-seal.ts) of the file it was read from. */
interface Read {
  file: string;
  identity: string;
  bytes: Buffer;
  state: State;
}

/** The last state readStateShared returned, given over once to readStateDraft. */
let shared: Read | undefined;

/**
 * readState for a caller that only reads the state before a transaction under the lock (S40):
 * the state returned may become that transaction's draft when the file has not changed since, so
 * the caller must not change it, and must not read it after the transaction.
 */
export async function readStateShared(paths: StorePaths): Promise<State> {
  shared = undefined;
  const read = await readFor(paths);
  if (read === null) return emptyState();
  shared = read;
  return read.state;
}

/**
 * The state as it is on disk now, as a draft the caller owns (the caller holds the store lock).
 * The state readStateShared returned is given over when the file still has the identity it was
 * read with. Errors as readState's (E_STATE_CORRUPT, E_IO).
 */
export async function readStateDraft(paths: StorePaths): Promise<StateDraft> {
  const before = shared;
  shared = undefined;
  if (before?.file === stateFile(paths) && before.identity === stateIdentity(paths))
    return { state: before.state, bytes: before.bytes };
  const read = await readFor(paths);
  return read === null ? { state: emptyState(), bytes: null } : read;
}

/** The state file read: entry by entry when hookpm sealed it, else whole; null when there is none. */
async function readFor(paths: StorePaths): Promise<Read | null> {
  const file = stateFile(paths);
  let found: { bytes: Buffer; identity: string; lazy: State | null };
  try {
    found = readStateFile(paths, file);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw toStoreError(error, file, 'read');
  }
  const { bytes, identity, lazy } = found;
  return { file, bytes, identity, state: lazy ?? (await readState(paths, bytes)) };
}

/**
 * The state file's bytes, read as readStateBytes reads them, with the identity of the file read
 * (state-seal.ts), taken from the same descriptor after the read: a change made while it was read
 * shows in the identity. A file hookpm sealed is read entry by entry too (`lazy`), its lines
 * scanned from the same descriptor a piece at a time, not in `bytes` (lazy-state.ts), and only
 * when its identity is the same after the scan: the scan saw the bytes read.
 */
function readStateFile(
  paths: StorePaths,
  file: string,
): { bytes: Buffer; identity: string; lazy: State | null } {
  const fd = openRegularFile(file, { maxBytes: STATE_MAX_BYTES });
  try {
    const bytes = readOpenedFile(fd, file, STATE_MAX_BYTES);
    const identity = fileIdentity(fd);
    if (!isSealed(paths, identity)) return { bytes, identity, lazy: null };
    const whole = { fd, at: 0, length: bytes.length };
    const lazy = lazyStateOf(bytes, corruptEntry(file), whole);
    return { bytes, identity, lazy: fileIdentity(fd) === identity ? lazy : null };
  } finally {
    closeSync(fd);
  }
}

/**
 * The error for an entry of a sealed state that fails its check when read: hookpm wrote it, so
 * the file changed without changing its identity, or hookpm has a bug. Nothing is written.
 */
function corruptEntry(file: string): (where: string) => HookpmError {
  return (where) =>
    new HookpmError(
      'E_STATE_CORRUPT',
      `the state file ${file} does not match the state schema: ${where}`,
      {
        file,
        copy: null,
        hint: 'Run `hookpm doctor` to see how to recover. The file was left as it is.',
      },
    );
}

/** The state `draft` was read from, parsed again (for what must see the state on disk). */
export async function stateBefore(paths: StorePaths, draft: StateDraft): Promise<State> {
  return draft.bytes === null ? emptyState() : readState(paths, draft.bytes);
}

/**
 * engine.md B3: gives a store without a state file (`draft` read none) the empty state, before a
 * transaction promotes any tree, so that a crash before the transaction's own state write leaves
 * trees no record names (leftovers, collected), not trees without a state file (which fail every
 * event closed). The caller holds the store lock; restoreState removes the file again.
 */
export async function startStateFile(paths: StorePaths, draft: StateDraft): Promise<void> {
  if (draft.bytes === null) await writeStateBytes(paths, serializeState(emptyState()));
}

/**
 * Puts back the state file `draft` was read from, byte for byte (none when there was none), after
 * writeDraft, for a transaction that cannot finish (the caller holds the store lock).
 */
export async function restoreState(paths: StorePaths, draft: StateDraft): Promise<void> {
  if (draft.bytes === null) {
    await rm(stateFile(paths), { force: true });
    unsealState(paths);
  } else await writeStateBytes(paths, draft.bytes);
}

/**
 * Writes `state` durably when its serialisation differs from the bytes `draft` was read from (the
 * caller holds the store lock); returns whether it wrote. A state file hookpm did not write in
 * its own form is written in it by the next transaction, with the same content.
 */
export async function writeDraft(
  paths: StorePaths,
  draft: StateDraft,
  state: State = draft.state,
): Promise<boolean> {
  const parts = serializeStateParts(state);
  if (sameBytes(draft.bytes ?? serializeState(emptyState()), parts)) return false;
  await writeStateBytes(paths, parts);
  return true;
}

/**
 * Whether `parts`, one after the other, are `bytes`. A part that is `bytes`' own memory at its
 * place is not compared: the pages of an entry never read are not looked at (lazy-state.ts).
 */
function sameBytes(bytes: Buffer, parts: readonly Buffer[]): boolean {
  let at = 0;
  for (const part of parts) {
    if (at + part.length > bytes.length) return false;
    const inPlace = part.buffer === bytes.buffer && part.byteOffset === bytes.byteOffset + at;
    if (!inPlace && bytes.compare(part, 0, part.length, at, at + part.length) !== 0) return false;
    at += part.length;
  }
  return at === bytes.length;
}
