import { quickStateOf } from './quick-state.js';
import { findKeyProblem } from './state-keys.js';
import { STATE_VERSION } from './state-version.js';

/**
 * The entry `key` of `section` with the parsed JSON `value`, as a whole document's check accepts
 * it (the same object), or null when that check refuses it: the check runs on a document of this
 * one entry.
 */
export function checkedEntry<T>(
  section: 'plugins' | 'knownIntegrity',
  key: string,
  value: unknown,
): T | null {
  const one = {
    version: STATE_VERSION,
    registries: {},
    plugins: {},
    [section]: { [key]: value },
  };
  const checked = quickStateOf(one);
  if (checked === null || findKeyProblem(one) !== null) return null;
  return (checked[section] as Record<string, T>)[key]!;
}
