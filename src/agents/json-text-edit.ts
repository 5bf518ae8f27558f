import { parseTree, type Node } from 'jsonc-parser';

/**
 * Edits of JSON text that touch only the bytes they must: a value appended to an object or a list
 * goes after its last member, at that member's indentation (or inline, in a container written on
 * one line); a removed member takes its comma with it. Every other byte of the text stays, so a
 * settings file keeps its layout, its number forms and its escapes. Paths are as jsonc-parser's:
 * keys and list positions from the root. The text must be valid JSON (settings-document.ts).
 *
 * The edits of one call are located in the text as given, which is parsed once: a settings file
 * of many megabytes costs one parse per call, not one per edit.
 */
export type JsonPath = ReadonlyArray<string | number>;

export type JsonEdit =
  /** Appends `value` to the list at `path`, or adds `key: value` to the object at `path`. */
  | { op: 'append'; path: JsonPath; value: unknown; key?: string }
  /** Removes the member at `path` (a list item or an object property) with its separating comma. */
  | { op: 'remove'; path: JsonPath }
  /** Replaces the value at `path` with `value`, formatted at the indentation of its line. */
  | { op: 'replace'; path: JsonPath; value: unknown };

/** One replaced range of the text. */
interface Splice {
  from: number;
  to: number;
  text: string;
}

/**
 * The text with `edits` made, each path read in `text` as it is. Appends to one container go in
 * their order; a container whose every member is removed is left empty (`[]`, `{}`). The edits'
 * ranges must not overlap: no edit inside a member another removes or replaces, no append to a
 * container whose last member is removed.
 */
export function editJson(text: string, edits: readonly JsonEdit[]): string {
  if (edits.length === 0) return text;
  const root = parseTree(text);
  const find = childFinder();
  const nodeAt = (path: JsonPath): Node => {
    let node = root;
    for (const segment of path) node = node === undefined ? undefined : find(node, segment);
    if (node === undefined)
      throw new Error(`Assertion failed: no JSON value at ${JSON.stringify(path)}`);
    return node;
  };
  const layout = { unit: indentUnit(text), eol: eolOf(text) };
  const appends = new Map<Node, Array<{ value: unknown; key?: string }>>();
  const removed = new Map<Node, Set<Node>>();
  const splices: Splice[] = [];
  for (const edit of edits) {
    if (edit.op === 'append') {
      const container = nodeAt(edit.path);
      const members = appends.get(container) ?? [];
      members.push(edit.key === undefined ? { value: edit.value } : edit);
      appends.set(container, members);
    } else if (edit.op === 'remove') {
      const node = nodeAt(edit.path);
      // The member itself: for an object property, its `"key": value` node, not only the value.
      const member = node.parent?.type === 'property' ? node.parent : node;
      const container = member.parent!;
      removed.set(container, (removed.get(container) ?? new Set()).add(member));
    } else {
      const node = nodeAt(edit.path);
      // A value written on its container's line (a file on one line) is replaced on that line,
      // compact, as appended() writes there.
      const formatted = inlineIn(text, node)
        ? JSON.stringify(edit.value)
        : formatValue(edit.value, { ...layout, indent: lineIndent(text, node.offset) });
      splices.push({ from: node.offset, to: node.offset + node.length, text: formatted });
    }
  }
  for (const [container, members] of removed) splices.push(...removals(container, members));
  for (const [container, members] of appends)
    splices.push(appended(text, container, members, layout));
  return applySplices(text, splices);
}

/**
 * The child of a node at one path segment, as jsonc-parser's findNodeAtLocation finds it (the
 * first property of a key), with each object's keys indexed on its first lookup: the edits of one
 * call cost one pass over each object they enter, not one per edit (an object of many keys and
 * many edits below it would otherwise be searched once per edit).
 */
function childFinder(): (node: Node, segment: string | number) => Node | undefined {
  const keys = new Map<Node, Map<string, Node>>();
  return (node, segment) => {
    if (typeof segment === 'number')
      return node.type === 'array' ? node.children?.[segment] : undefined;
    if (node.type !== 'object') return undefined;
    let index = keys.get(node);
    if (index === undefined) {
      index = new Map();
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        const name = String(key?.value);
        if (value !== undefined && !index.has(name)) index.set(name, value);
      }
      keys.set(node, index);
    }
    return index.get(segment);
  };
}

/** The splices that take `members` out of `container`, each with one separating comma. */
function removals(container: Node, members: ReadonlySet<Node>): Splice[] {
  const children = container.children ?? [];
  if (children.every((child) => members.has(child)))
    return [{ from: container.offset + 1, to: container.offset + container.length - 1, text: '' }];
  const out: Splice[] = [];
  // Runs of removed members: up to the next kept member, or, for a run at the end, from the end of
  // the kept member before it.
  for (let i = 0; i < children.length;) {
    if (!members.has(children[i]!)) {
      i += 1;
      continue;
    }
    let j = i;
    while (j + 1 < children.length && members.has(children[j + 1]!)) j += 1;
    const next = children[j + 1];
    const last = children[j]!;
    if (next !== undefined) out.push({ from: children[i]!.offset, to: next.offset, text: '' });
    else {
      const previous = children[i - 1]!;
      out.push({
        from: previous.offset + previous.length,
        to: last.offset + last.length,
        text: '',
      });
    }
    i = j + 1;
  }
  return out;
}

/** The splice that appends `members` to `container`, in order. */
function appended(
  text: string,
  container: Node,
  members: ReadonlyArray<{ value: unknown; key?: string }>,
  { unit, eol }: { unit: string; eol: string },
): Splice {
  const children = container.children ?? [];
  const last = children[children.length - 1];
  // null: a container written on one line, which gets the members on that line, compact.
  const member = ({ value, key }: { value: unknown; key?: string }, indent: string | null) =>
    `${key === undefined ? '' : `${JSON.stringify(key)}: `}${
      indent === null ? JSON.stringify(value) : formatValue(value, { indent, unit, eol })
    }`;
  const close = container.offset + container.length - 1;
  if (last === undefined && inlineIn(text, container)) {
    // An empty container on its parent's line (a file on one line): the members there, compact.
    const body = members.map((m) => member(m, null)).join(', ');
    return { from: container.offset + 1, to: close, text: body };
  }
  if (last === undefined) {
    const outer = lineIndent(text, container.offset);
    const inner = outer + unit;
    const body = members.map((m) => member(m, inner)).join(`,${eol}${inner}`);
    return { from: container.offset + 1, to: close, text: `${eol}${inner}${body}${eol}${outer}` };
  }
  const end = last.offset + last.length;
  const indent = startsLine(text, last.offset) ? lineIndent(text, last.offset) : null;
  const separator = indent === null ? ', ' : `,${eol}${indent}`;
  const inserted = members.map((m) => `${separator}${member(m, indent)}`).join('');
  return { from: end, to: end, text: inserted };
}

/** `text` with `splices` made; they must not overlap (touching is fine). */
function applySplices(text: string, splices: Splice[]): string {
  const sorted = [...splices].sort((a, b) => a.from - b.from || a.to - b.to);
  const parts: string[] = [];
  let at = 0;
  for (const splice of sorted) {
    if (splice.from < at) throw new Error('Assertion failed: overlapping JSON edits');
    parts.push(text.slice(at, splice.from), splice.text);
    at = splice.to;
  }
  parts.push(text.slice(at));
  return parts.join('');
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

/**
 * Whether `node` is written on the line of its container's opening bracket (`[{...}]`,
 * `{"k": {...}}`), so that the container is laid out on one line there, not one member a line.
 */
function inlineIn(text: string, node: Node): boolean {
  const member = node.parent?.type === 'property' ? node.parent : node;
  const container = member.parent;
  if (container === undefined) return false;
  return !text.slice(container.offset, member.offset).includes('\n');
}

function startsLine(text: string, offset: number): boolean {
  return text.slice(lineStart(text, offset), offset).trim() === '';
}
