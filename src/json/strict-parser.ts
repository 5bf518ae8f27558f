/**
 * A strict RFC 8259 recursive-descent JSON parser that accepts exactly what JSON.parse accepts,
 * and also rejects duplicate keys in one object (plugins.md P4), or with `duplicateKeys: 'last'`
 * lists them and keeps the last value, as JSON.parse does. It reports where a document goes
 * wrong: the 0-based offset and a phrase saying what was expected and what was found.
 * Nesting is capped at MAX_DEPTH so that hostile input cannot exhaust the stack.
 */
import { describeValue } from './describe-value.js';
import { clip, QUOTE_MAX } from '../text/clip.js';

export const MAX_DEPTH = 512;

export type StrictResult =
  | { ok: true; value: unknown; duplicates: StrictDuplicate[] }
  | { ok: false; offset: number; what: string };

/** A repeated key that `duplicateKeys: 'last'` kept (the later value replaced the earlier one). */
export interface StrictDuplicate {
  offset: number;
  what: string;
}

export interface StrictOptions {
  /**
   * `'refuse'` (default, plugins.md P4): a repeated key in one object fails the parse.
   * `'last'`: the later value wins, as in JSON.parse, and each repeat is listed in `duplicates`.
   */
  duplicateKeys?: 'refuse' | 'last';
}

class ParseFailure {
  constructor(
    readonly offset: number,
    readonly what: string,
  ) {}
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

export function parseStrict(text: string, options: StrictOptions = {}): StrictResult {
  const state: State = {
    text,
    pos: 0,
    path: [],
    duplicates: options.duplicateKeys === 'last' ? [] : null,
  };
  try {
    skipWs(state);
    const value = parseValue(state, 0);
    skipWs(state);
    if (state.pos < text.length) fail(state, 'unexpected data after the JSON document');
    return { ok: true, value, duplicates: state.duplicates ?? [] };
  } catch (error) {
    if (error instanceof ParseFailure) return { ok: false, offset: error.offset, what: error.what };
    throw error;
  }
}

interface State {
  readonly text: string;
  pos: number;
  /** Keys and indexes from the root to the value being parsed (pushed and popped in place). */
  readonly path: Array<string | number>;
  /** null: a repeated key fails the parse; else repeats are listed here and the last value wins. */
  readonly duplicates: StrictDuplicate[] | null;
}

type Path = ReadonlyArray<string | number>;

function fail(state: State, what: string, at = state.pos): never {
  throw new ParseFailure(at, what);
}

/** `"}"`, `end of input`: what sits at the current position, printable. */
function found(state: State): string {
  const ch = state.text[state.pos];
  return ch === undefined ? 'end of input' : JSON.stringify(ch);
}

function skipWs(state: State): void {
  while (WS.has(state.text.charCodeAt(state.pos))) state.pos++;
}

function parseValue(state: State, depth: number): unknown {
  const ch = state.text[state.pos];
  if (ch === '{' || ch === '[') {
    if (depth >= MAX_DEPTH) fail(state, `nesting deeper than ${MAX_DEPTH} levels`);
    return ch === '{' ? parseObject(state, depth + 1) : parseArray(state, depth + 1);
  }
  if (ch === '"') return parseString(state);
  if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return parseNumber(state);
  for (const [word, value] of [
    ['true', true],
    ['false', false],
    ['null', null],
  ] as const) {
    if (state.text.startsWith(word, state.pos)) {
      state.pos += word.length;
      return value;
    }
  }
  return fail(state, `expected a value, found ${found(state)}`);
}

function parseObject(state: State, depth: number): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  state.pos++;
  skipWs(state);
  if (state.text[state.pos] === '}') {
    state.pos++;
    return object;
  }
  for (;;) {
    if (state.text[state.pos] !== '"') {
      const trailing = state.text[state.pos] === '}';
      fail(
        state,
        trailing
          ? 'trailing comma before "}"'
          : `expected a key in double quotes, found ${found(state)}`,
      );
    }
    const keyAt = state.pos;
    const key = parseString(state);
    if (Object.prototype.hasOwnProperty.call(object, key)) {
      const what = `duplicate key ${describeValue(key)} in ${describePath(state.path)}`;
      if (state.duplicates === null) fail(state, what, keyAt);
      state.duplicates.push({ offset: keyAt, what });
    }
    skipWs(state);
    if (state.text[state.pos] !== ':')
      fail(state, `expected ":" after a key, found ${found(state)}`);
    state.pos++;
    skipWs(state);
    state.path.push(key);
    const value = parseValue(state, depth);
    state.path.pop();
    if (key === '__proto__') {
      // JSON.parse makes "__proto__" an own data property, never the prototype; so must we.
      Object.defineProperty(object, key, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else {
      object[key] = value;
    }
    skipWs(state);
    const next = state.text[state.pos];
    state.pos++;
    if (next === '}') return object;
    if (next !== ',')
      fail(
        state,
        `expected "," or "}" in an object, found ${next === undefined ? 'end of input' : JSON.stringify(next)}`,
        state.pos - 1,
      );
    skipWs(state);
  }
}

function parseArray(state: State, depth: number): unknown[] {
  const items: unknown[] = [];
  state.pos++;
  skipWs(state);
  if (state.text[state.pos] === ']') {
    state.pos++;
    return items;
  }
  for (;;) {
    if (state.text[state.pos] === ']') fail(state, 'trailing comma before "]"');
    state.path.push(items.length);
    items.push(parseValue(state, depth));
    state.path.pop();
    skipWs(state);
    const next = state.text[state.pos];
    state.pos++;
    if (next === ']') return items;
    if (next !== ',')
      fail(
        state,
        `expected "," or "]" in an array, found ${next === undefined ? 'end of input' : JSON.stringify(next)}`,
        state.pos - 1,
      );
    skipWs(state);
  }
}

function parseString(state: State): string {
  const { text } = state;
  const start = ++state.pos;
  let out = '';
  let chunk = start;
  for (;;) {
    const code = text.charCodeAt(state.pos);
    if (Number.isNaN(code)) fail(state, 'unterminated string');
    if (code === 0x22) {
      out += text.slice(chunk, state.pos);
      state.pos++;
      return out;
    }
    if (code < 0x20)
      fail(
        state,
        `control character U+${code.toString(16).padStart(4, '0')} in a string (escape it)`,
      );
    if (code === 0x5c) {
      out += text.slice(chunk, state.pos);
      out += parseEscape(state);
      chunk = state.pos;
      continue;
    }
    state.pos++;
  }
}

function parseEscape(state: State): string {
  const letter = state.text[state.pos + 1];
  if (letter === 'u') {
    const hex = state.text.slice(state.pos + 2, state.pos + 6);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail(state, 'invalid \\u escape (expected 4 hex digits)');
    state.pos += 6;
    return String.fromCharCode(parseInt(hex, 16));
  }
  const mapped = letter === undefined ? undefined : ESCAPES[letter];
  if (mapped === undefined) fail(state, `invalid escape "\\${letter ?? ''}" in a string`);
  state.pos += 2;
  return mapped;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function parseNumber(state: State): number {
  NUMBER.lastIndex = state.pos;
  const match = NUMBER.exec(state.text);
  if (match === null) fail(state, `invalid number, found ${found(state)}`);
  const end = state.pos + match[0].length;
  const after = state.text[end];
  if (after !== undefined && /[0-9.eE+-]/.test(after)) fail(state, 'invalid number', end);
  state.pos = end;
  return Number(match[0]);
}

/**
 * `the top-level object`, `the object at hooks.Stop[0]`; a key of any length is cut short (a long
 * one is quoted, as describeValue cuts it), and so is a path of any depth.
 */
function describePath(path: Path): string {
  if (path.length === 0) return 'the top-level object';
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment) && segment.length <= SHOWN_KEY)
      out += out === '' ? segment : `.${segment}`;
    else out += `[${describeValue(segment)}]`;
    if (out.length > QUOTE_MAX) return `the object at ${clip(out)}`;
  }
  return `the object at ${out}`;
}

/** The longest key a path shows bare; a longer path is cut as clip cuts it (QUOTE_MAX). */
const SHOWN_KEY = 60;
