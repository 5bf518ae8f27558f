/**
 * Turns a zod issue into the words of a schema error: the field path (`plugins.guard.versions`)
 * and what was found against what was expected (STYLE.md rule 3).
 */
import type { z } from '../../json/zod.js';
import { valueAtPath } from '../../hooks/json-path.js';

type Issue = z.core.$ZodIssue;

/** `plugins.guard.versions.1.0.0.events[2]`; empty for the document itself. */
export function pathOf(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/** The phrase following the field path, e.g. `is an array, expected an object`. */
export function formatIssue(issue: Issue, root: unknown): string {
  const found = valueAtPath(root, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      return found === undefined
        ? `is missing, expected ${expectedWord(issue.expected)}`
        : `is ${describe(found)}, expected ${expectedWord(issue.expected)}`;
    case 'invalid_key':
      return issue.issues[0]?.message ?? 'is not an allowed key';
    case 'invalid_value':
      return `is ${preview(found)}, expected ${issue.values.map((v) => preview(v)).join(' or ')}`;
    case 'too_small':
      return typeof found === 'string' ? 'is empty' : `is ${preview(found)}, which is too small`;
    default:
      return `${preview(found)} ${issue.message}`;
  }
}

function expectedWord(expected: string): string {
  switch (expected) {
    case 'record':
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    case 'int':
      return 'an integer';
    default:
      return `a ${expected}`;
  }
}

/** `an array`, `a number (5)`, `null`, `a string ("x")`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const kind = typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
  return `${kind} (${preview(value)})`;
}

/** A short JSON rendering safe to print (control characters escaped by JSON.stringify). */
function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
