import { isHookpmError, type HookpmError } from '../../src/errors.js';

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
