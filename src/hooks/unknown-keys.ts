import { diagnostic } from './diagnostic.js';
import type { Diagnostic } from './diagnostic.js';
import { childPath } from './json-path.js';
import { clip } from '../text/clip.js';

/**
 * C3: unknown keys are ignored; `hookpm validate` lists these warnings, the snapshot drops them.
 * A key, of any length, is quoted cut (text/clip.ts); the path keeps it whole.
 */
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
        `unknown ${what} key ${JSON.stringify(clip(key))} is ignored`,
        { path: childPath(path, key) },
      ),
    );
}
