import { expect } from 'vitest';
import { isHookpmError, type HookpmError } from '../../src/errors.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import { hashStore } from './store-snapshot.js';

/**
 * The HookpmError that `work` (a promise, or a function returning one) fails with; anything else
 * it throws is rethrown, and succeeding fails the test.
 */
export async function failure(
  work: Promise<unknown> | (() => Promise<unknown>),
): Promise<HookpmError> {
  try {
    await (typeof work === 'function' ? work() : work);
  } catch (error) {
    if (isHookpmError(error)) return error;
    throw error;
  }
  throw new Error('expected a HookpmError');
}

/**
 * security.md's invariant for a refused operation: `work` fails with a HookpmError of `code`, and
 * the state file and every installed tree (hashStore) are byte-identical afterwards.
 */
export async function failsCleanly(
  paths: StorePaths,
  code: string,
  work: Promise<unknown> | (() => Promise<unknown>),
): Promise<HookpmError> {
  const before = await hashStore(paths);
  const error = await failure(work);
  expect(error.code, error.message).toBe(code);
  expect(await hashStore(paths)).toEqual(before);
  return error;
}

/** The code of the HookpmError that `work` fails with (see failure). */
export async function codeOf(work: Promise<unknown> | (() => Promise<unknown>)): Promise<string> {
  return (await failure(work)).code;
}

/** What `run` returns, or the code of the HookpmError it throws ('other' for anything else). */
export function outcomeOf(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    return isHookpmError(error) ? error.code : 'other';
  }
}
