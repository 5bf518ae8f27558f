/**
 * A line diff of two texts as unified-diff lines (`@@ -a,b +c,d @@` hunks with 3 lines of
 * context, lines prefixed ` `, `-`, `+`, and git's `\ No newline at end of file`), bounded: at most
 * `maxLines` lines are returned (`truncated` says more were cut). The edit script is Myers' shortest
 * one after the common head and tail are set aside, unless the texts need more than `maxEdits`
 * line edits, when the differing middle is shown as removed, then added (still a correct diff,
 * not the shortest). `added` and `removed` count the lines of the edit script.
 */
export interface TextDiff {
  added: number;
  removed: number;
  lines: string[];
  truncated: boolean;
}

export interface TextDiffOptions {
  maxLines: number;
  context?: number;
  maxEdits?: number;
}

type Op = 'equal' | 'delete' | 'insert';

export function diffText(before: string, after: string, opts: TextDiffOptions): TextDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = editScript(a, b, opts.maxEdits ?? 2000);
  const added = ops.filter((op) => op === 'insert').length;
  const removed = ops.filter((op) => op === 'delete').length;
  const { lines, truncated } = hunks(ops, a, b, opts.context ?? 3, opts.maxLines);
  return { added, removed, lines, truncated };
}

/** The lines of a text, each with its `\n`; the last one lacks it when the text does. */
export function splitLines(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  return lines.length === 1 && lines[0] === '' ? [] : lines;
}

function editScript(a: readonly string[], b: readonly string[], maxEdits: number): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail += 1;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const middle = myers(midA, midB, maxEdits) ?? [
    ...midA.map((): Op => 'delete'),
    ...midB.map((): Op => 'insert'),
  ];
  return [...new Array<Op>(head).fill('equal'), ...middle, ...new Array<Op>(tail).fill('equal')];
}

/** Myers' O(ND) shortest edit script, or null past `maxEdits` edits. */
function myers(a: readonly string[], b: readonly string[], maxEdits: number): Op[] | null {
  const n = a.length;
  const m = b.length;
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 1);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(n + m, maxEdits); d += 1) {
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
      let x = down ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        trace.push(v.slice(offset - d - 1, offset + d + 2));
        return backtrack(trace, n, m);
      }
    }
    trace.push(v.slice(offset - d - 1, offset + d + 2));
  }
  return null;
}

/** Walks the saved frontiers back from (n, m); frontier d covers k in [-d-1, d+1]. */
function backtrack(trace: readonly Int32Array[], n: number, m: number): Op[] {
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d -= 1) {
    const prev = trace[d - 1]!;
    const at = (k: number): number => prev[k + d]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push('equal');
      x -= 1;
      y -= 1;
    }
    ops.push(down ? 'insert' : 'delete');
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push('equal');
    x -= 1;
    y -= 1;
  }
  return ops.reverse();
}

function hunks(
  ops: readonly Op[],
  a: readonly string[],
  b: readonly string[],
  context: number,
  maxLines: number,
): { lines: string[]; truncated: boolean } {
  const lines: string[] = [];
  let truncated = false;
  const emit = (line: string): void => {
    if (lines.length < maxLines) lines.push(line);
    else truncated = true;
  };
  let i = 0;
  let ai = 0;
  let bi = 0;
  while (i < ops.length) {
    if (ops[i] === 'equal') {
      i += 1;
      ai += 1;
      bi += 1;
      continue;
    }
    const lead = Math.min(context, ai, bi);
    const start = i - lead;
    const end = hunkEnd(ops, i, context);
    const span = ops.slice(start, end);
    const fromA = ai - lead;
    const fromB = bi - lead;
    const countA = span.filter((op) => op !== 'insert').length;
    const countB = span.filter((op) => op !== 'delete').length;
    emit(`@@ -${range(fromA, countA)} +${range(fromB, countB)} @@`);
    let x = fromA;
    let y = fromB;
    for (const op of span) {
      if (op === 'equal') {
        line(emit, ' ', b[y++]!);
        x += 1;
      } else if (op === 'delete') line(emit, '-', a[x++]!);
      else line(emit, '+', b[y++]!);
    }
    i = end;
    ai = x;
    bi = y;
  }
  return { lines, truncated };
}

/**
 * Where the hunk that starts with the change at `from` ends: changes separated by at most
 * 2 * context equal lines share a hunk; it keeps `context` equal lines after its last change.
 */
function hunkEnd(ops: readonly Op[], from: number, context: number): number {
  let end = from;
  let run = 0;
  while (end < ops.length) {
    run = ops[end] === 'equal' ? run + 1 : 0;
    if (run > 2 * context) break;
    end += 1;
  }
  let trail = 0;
  while (trail < end - from && ops[end - 1 - trail] === 'equal') trail += 1;
  return end - Math.max(0, trail - context);
}

function line(emit: (line: string) => void, mark: string, text: string): void {
  const bare = text.endsWith('\n') ? text.slice(0, -1) : text;
  emit(`${mark}${bare}`);
  if (!text.endsWith('\n')) emit('\\ No newline at end of file');
}

/** Unified-diff ranges: 1-based start, `start,count`; an empty range starts before its line. */
function range(from: number, count: number): string {
  if (count === 1) return String(from + 1);
  return `${count === 0 ? from : from + 1},${count}`;
}
