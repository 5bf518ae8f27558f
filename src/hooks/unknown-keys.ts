import { diagnostic } from './diagnostic.js';
import type { Diagnostic } from './diagnostic.js';
import { childPath } from './json-path.js';

/** Hints for keys other tools use, shown with the `unknown_key` warning. */
const KEY_HINTS: Readonly<Record<string, string>> = {
  args: ' (did you mean "argv"? "args" is not passed: the command runs without these arguments)',
};

function keyHint(key: string): string {
  return Object.hasOwn(KEY_HINTS, key) ? (KEY_HINTS[key] ?? '') : '';
}

/** C3: unknown keys are ignored; `hookpm validate` lists these warnings, the snapshot drops them. */
export function unknownKeyWarnings(
  raw: Record<string, unknown>,
  path: string,
  known: ReadonlySet<string>,
  what: string,
): Diagnostic[] {
  return Object.keys(raw)
    .filter((key) => !known.has(key))
    .map((key) =>
      diagnostic(
        'unknown_key',
        'warning',
        `unknown ${what} key ${JSON.stringify(key)} is ignored${keyHint(key)}`,
        { path: childPath(path, key) },
      ),
    );
}
