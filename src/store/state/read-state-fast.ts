import { errnoCode } from '../../io/fs-error.js';
import { stateFile } from '../home-paths.js';
import type { StorePaths } from '../store-paths.js';
import type { State } from './state-schema.js';
import { findKeyProblem } from './state-keys.js';
import { readStateBytes } from './read-state-bytes.js';
import { readQuickState } from './quick-state.js';

/**
 * Reads the state for read-only commands that must start fast (`hookpm list`, STYLE "Start-up
 * cost"): loading zod costs more than the whole start-up budget. A document that passes the
 * structural check (quick-state.ts), which accepts exactly what stateSchema accepts, and whose keys pass
 * findKeyProblem, is returned as the schema would return it; anything else (an unreadable file, a
 * failed check, a newer version) goes to readState, which loads the schema and fails with
 * E_STATE_CORRUPT exactly as every other command does (D6). stateSchema is the one schema:
 * test/store/read-state-fast.test.ts walks every key of it, so a key or rule the check
 * lacks fails there.
 */
export async function readStateFast(paths: StorePaths): Promise<State> {
  let text: string | undefined;
  try {
    text = readStateBytes(stateFile(paths)).toString('utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { version: 1, registries: {}, plugins: {} };
  }
  const state = text === undefined ? null : readQuickState(text);
  if (state !== null && findKeyProblem(state) === null) return state;
  const { readState } = await import('./state.js');
  return readState(paths);
}
