/**
 * JSON paths for diagnostics: `<file>:hooks.<Event>[g].hooks[h]` (engine.md C1). A key that is not
 * a plain identifier is written as a JSON string in brackets, so control characters and dots in
 * untrusted keys can neither forge another path nor reach a terminal raw; a key longer than
 * QUOTE_MAX is cut to that (the path of a 300 KB key is not 300 KB long).
 */
import { clip, QUOTE_MAX } from '../text/clip.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function childPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  // A key longer than a message quotes is written as its bounded prefix (clip), in brackets.
  const step =
    key.length <= QUOTE_MAX && IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(clip(key))}]`;
  return base.endsWith(':') && step.startsWith('.') ? base + step.slice(1) : base + step;
}

/** The path of the document itself, to which `childPath` appends keys. */
export function documentPath(file: string): string {
  return `${file}:`;
}

/** The value at a key path inside a parsed document (own properties only); undefined if absent. */
export function valueAtPath(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = root;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}
