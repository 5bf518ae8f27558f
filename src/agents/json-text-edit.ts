import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';

/**
 * Edits of JSON text that touch only the bytes they must: a value appended to an object or a list
 * goes after its last member, at that member's indentation (or inline, in a container written on
 * one line); a removed member takes its comma with it. Every other byte of the text stays, so a
 * settings file keeps its layout, its number forms and its escapes. Paths are as jsonc-parser's:
 * keys and list positions from the root. The text must be valid JSON (settings-document.ts).
 */
export type JsonPath = ReadonlyArray<string | number>;

/** Appends `value` to the list at `path`, or adds `key: value` to the object at `path`. */
export function appendMember(text: string, path: JsonPath, value: unknown, key?: string): string {
  const container = nodeAt(text, path);
  const unit = indentUnit(text);
  const eol = eolOf(text);
  const children = container.children ?? [];
  const last = children[children.length - 1];
  // null: a container written on one line, which gets the member on that line, compact.
  const member = (indent: string | null): string =>
    `${key === undefined ? '' : `${JSON.stringify(key)}: `}${
      indent === null ? JSON.stringify(value) : formatValue(value, { indent, unit, eol })
    }`;
  const close = container.offset + container.length - 1;
  if (last === undefined) {
    const outer = lineIndent(text, container.offset);
    const inner = outer + unit;
    return splice(
      text,
      container.offset + 1,
      close,
      `${eol}${inner}${member(inner)}${eol}${outer}`,
    );
  }
  const end = last.offset + last.length;
  const indent = startsLine(text, last.offset) ? lineIndent(text, last.offset) : null;
  const inserted = indent === null ? `, ${member(null)}` : `,${eol}${indent}${member(indent)}`;
  return splice(text, end, end, inserted);
}

/** Removes the member at `path` (a list item or an object property) with its separating comma. */
export function removeMember(text: string, path: JsonPath): string {
  const target = memberNode(text, path);
  const siblings = target.parent?.children ?? [];
  const i = siblings.indexOf(target);
  const next = siblings[i + 1];
  const previous = siblings[i - 1];
  if (next !== undefined) return splice(text, target.offset, next.offset, '');
  if (previous !== undefined)
    return splice(text, previous.offset + previous.length, target.offset + target.length, '');
  // The only member: the container is left empty, written `[]` or `{}`.
  const container = target.parent!;
  return splice(text, container.offset + 1, container.offset + container.length - 1, '');
}

/** Replaces the value at `path` with `value`, formatted at the indentation of its line. */
export function replaceValue(text: string, path: JsonPath, value: unknown): string {
  const node = nodeAt(text, path);
  const layout = {
    indent: lineIndent(text, node.offset),
    unit: indentUnit(text),
    eol: eolOf(text),
  };
  return splice(text, node.offset, node.offset + node.length, formatValue(value, layout));
}

function nodeAt(text: string, path: JsonPath): Node {
  const root = parseTree(text);
  const node = root === undefined ? undefined : findNodeAtLocation(root, [...path]);
  if (node === undefined)
    throw new Error(`Assertion failed: no JSON value at ${JSON.stringify(path)}`);
  return node;
}

/** The member itself: for an object property, its `"key": value` node, not only the value. */
function memberNode(text: string, path: JsonPath): Node {
  const node = nodeAt(text, path);
  return node.parent?.type === 'property' ? node.parent : node;
}

/** How a value is laid out in the file: its line's indentation, the file's step and line end. */
interface Layout {
  indent: string;
  unit: string;
  eol: string;
}

/**
 * `value` as JSON in the file's indentation, its inner lines below `indent`, each line ended with
 * the file's own line end (a CRLF file gets no bare LF).
 */
function formatValue(value: unknown, { indent, unit, eol }: Layout): string {
  return JSON.stringify(value, null, unit).replaceAll('\n', `${eol}${indent}`);
}

/** The file's indentation step: that of its first indented line; two spaces when none is. */
function indentUnit(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
}

/** The file's line end: CRLF when any line ends so, else LF. */
function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function lineIndent(text: string, offset: number): string {
  const start = lineStart(text, offset);
  return /^[ \t]*/.exec(text.slice(start, offset))?.[0] ?? '';
}

function startsLine(text: string, offset: number): boolean {
  return text.slice(lineStart(text, offset), offset).trim() === '';
}

function splice(text: string, from: number, to: number, inserted: string): string {
  return text.slice(0, from) + inserted + text.slice(to);
}
