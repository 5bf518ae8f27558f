import { errnoCode, toStoreError } from '../../io/fs-error.js';
import { stateFile } from '../paths.js';
import type { StorePaths } from '../store-paths.js';
import type { State } from './state-schema.js';
import { readStateBytes } from './read-state-bytes.js';
import { emptyState } from './state-schema.js';
import { readState, serializeState, writeStateBytes } from './state.js';

/*
 * registry.md S40: the state of a transaction, read, changed and written with one parse and one
 * serialisation. A command reads the state before it takes the lock (to resolve what it installs)
 * and again under it; when the bytes under the lock are the ones read before, the state parsed
 * then becomes the draft, neither parsed again nor cloned. Whether the draft changed is told by
 * its serialisation against the bytes read, and that serialisation is what is written.
 */

/** The state read for a draft: its bytes (null when the store has no state file yet). */
export interface StateDraft {
  /** Owned by the caller, to change and pass to writeDraft. */
  state: State;
  /** The bytes the state was read from, null when there was no state file. */
  bytes: Buffer | null;
}

/** The last state readStateShared returned, given over once to readStateDraft. */
let shared: { file: string; bytes: Buffer; state: State } | undefined;

/**
 * readState for a caller that only reads the state before a transaction under the lock (S40):
 * the state returned may become that transaction's draft when the file has not changed since, so
 * the caller must not change it, and must not read it after the transaction.
 */
export async function readStateShared(paths: StorePaths): Promise<State> {
  const file = stateFile(paths);
  let bytes: Buffer;
  try {
    bytes = readStateBytes(file);
  } catch {
    shared = undefined;
    return readState(paths);
  }
  const state = await readState(paths, bytes);
  shared = { file, bytes, state };
  return state;
}

/**
 * The state as it is on disk now, as a draft the caller owns (the caller holds the store lock).
 * The state readStateShared returned is given over when the file still holds its bytes. Errors as
 * readState's (E_STATE_CORRUPT, E_IO).
 */
export async function readStateDraft(paths: StorePaths): Promise<StateDraft> {
  const file = stateFile(paths);
  const before = shared;
  shared = undefined;
  let bytes: Buffer;
  try {
    bytes = readStateBytes(file);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { state: emptyState(), bytes: null };
    throw toStoreError(error, file, 'read');
  }
  if (before?.file === file && before.bytes.equals(bytes)) return { state: before.state, bytes };
  return { state: await readState(paths, bytes), bytes };
}

/** The state `draft` was read from, parsed again (for what must see the state on disk). */
export async function stateBefore(paths: StorePaths, draft: StateDraft): Promise<State> {
  return draft.bytes === null ? emptyState() : readState(paths, draft.bytes);
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
  const bytes = serializeState(state);
  if ((draft.bytes ?? serializeState(emptyState())).equals(bytes)) return false;
  await writeStateBytes(paths, bytes);
  return true;
}
