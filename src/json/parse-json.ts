import { MAX_DEPTH, parseStrict, type StrictOptions } from './strict-parser.js';

/**
 * The strict JSON reader every untrusted file goes through (plugins.md P4, security.md
 * "Manifests and hook documents"): invalid JSON and duplicate keys in one object are errors with
 * a 1-based line and column; a leading byte-order mark is accepted and reported (`bom: true`) so
 * the caller can warn.
 *
 * `message` says what is wrong (`trailing comma before "}"`, `duplicate key "name" in the object at
 * hooks.Stop[0]`) without the location, which callers print from `file`, `line` and `column` as
 * `<file>:<line>:<column>`; `file` is part of the signature so that every caller names one.
 *
 * Speed: valid input is parsed by the native JSON.parse, then checked for duplicate keys by
 * comparing the number of `:` outside strings in the text with the number of keys the parsed value
 * holds (a duplicate makes the latter smaller). Only a failure on either count runs the slower
 * strict parser, which finds and locates the problem.
 *
 * `duplicateKeys: 'last'` (user and project hooks files, plugins.md P4) reads a repeated key as
 * JSON.parse does, the last value winning, and lists each repeat in `duplicates` for a warning.
 */
export type ParseJsonResult =
  | { ok: true; value: unknown; bom: boolean; duplicates: JsonDuplicate[] }
  | { ok: false; message: string; line: number; column: number };

/** A repeated key read with `duplicateKeys: 'last'`: what and where (1-based, like failures). */
export interface JsonDuplicate {
  message: string;
  line: number;
  column: number;
}

export function parseJson(
  text: string,
  _file: string,
  options: StrictOptions = {},
): ParseJsonResult {
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return strict(body, bom, options);
  }
  const members = typeof value === 'object' && value !== null ? countMembers(value, 0) : 0;
  if (members >= 0 && members === countKeysInText(body))
    return { ok: true, value, bom, duplicates: [] };
  return strict(body, bom, options);
}

function strict(body: string, bom: boolean, options: StrictOptions): ParseJsonResult {
  const result = parseStrict(body, options);
  if (result.ok) {
    const duplicates = result.duplicates.map(({ offset, what }) => ({
      message: what,
      ...position(body, offset),
    }));
    return { ok: true, value: result.value, bom, duplicates };
  }
  const { line, column } = position(body, result.offset);
  return { ok: false, message: result.what, line, column };
}

/**
 * The value of `text` when it is valid JSON without a repeated key in one object, however deep it
 * nests; undefined otherwise (parseJson says why). For a caller that bounds the depth it walks
 * itself (nestsDeeperThan): a session's request line, whose payload the engine refuses when it
 * nests deeper than MAX_DEPTH levels (engine.md B5). Counts without recursion.
 */
export function parseJsonAnyDepth(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  let members = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null) continue;
    if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
      continue;
    }
    for (const key in item) {
      members++;
      stack.push((item as Record<string, unknown>)[key]);
    }
  }
  return members === countKeysInText(body) ? value : undefined;
}

/** Keys held by all objects in a parsed value; -1 when nesting is deeper than the strict cap. */
function countMembers(value: unknown, depth: number): number {
  if (depth >= MAX_DEPTH) return -1;
  let total = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item !== 'object' || item === null) continue;
      const inner = countMembers(item, depth + 1);
      if (inner < 0) return -1;
      total += inner;
    }
    return total;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    total++;
    const item = record[key];
    if (typeof item !== 'object' || item === null) continue;
    const inner = countMembers(item, depth + 1);
    if (inner < 0) return -1;
    total += inner;
  }
  return total;
}

const STRING = /"[^"\\]*(?:\\.[^"\\]*)*"/g;

/** In text JSON.parse accepted, every `:` outside strings separates a key from its value. */
function countKeysInText(text: string): number {
  const bare = text.replace(STRING, '');
  let keys = 0;
  for (let i = bare.indexOf(':'); i !== -1; i = bare.indexOf(':', i + 1)) keys++;
  return keys;
}

/** 1-based line and column (UTF-16 units) of an offset; lines end at "\n". */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
