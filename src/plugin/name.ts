import { HookpmError } from '../errors.js';

/**
 * P3: a plugin name is 1-64 characters of ASCII lower-case letters, digits, `.`, `_` and `-`,
 * starting with a letter or digit. This keeps names safe as path segments, shell words and URL
 * parts, and rules out look-alikes (Cyrillic `о` is not `o`).
 */
export const PLUGIN_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export function isValidPluginName(name: unknown): name is string {
  return typeof name === 'string' && PLUGIN_NAME_PATTERN.test(name);
}

/** Messages, questions and waits (docs/design/decisions.md#where-the-rules-are-silent): `Guard` is no plugin name, but `guard` may be the one meant. */
export function lowerCaseSuggestion(name: string): string | null {
  const [lower] = lowerCaseNames(name);
  return lower === undefined ? null : `Did you mean ${lower}?`;
}

/** `[name]` in lower case when that is a valid name and differs, else `[]` (an error's `suggestions`). */
export function lowerCaseNames(name: string): string[] {
  const lower = name.toLowerCase();
  return lower !== name && isValidPluginName(lower) ? [lower] : [];
}

/** Throws E_NAME_INVALID unless `name` satisfies P3; `where` says where the name came from. */
export function assertPluginName(name: unknown, where: string): asserts name is string {
  if (isValidPluginName(name)) return;
  const shown = typeof name === 'string' ? JSON.stringify(name) : String(name);
  throw new HookpmError(
    'E_NAME_INVALID',
    `invalid plugin name ${shown} in ${where}: expected 1-64 characters of a-z, 0-9, ".", "_" or "-", starting with a letter or digit`,
    {
      hint: 'Rename the plugin (the "name" field of its manifest) to a lower-case ASCII name such as "my-plugin".',
      name,
      where,
    },
  );
}
