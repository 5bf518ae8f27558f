/** Appended to a text cut so that the answer fits what the agent reads. */
export const CUT_MARK = ' [cut by hookpm: the answer was too long for the agent]';

const utf8 = new TextEncoder();

/** The bytes of `value` as one line of stdout: its JSON, then a newline. */
function lineBytes(value: unknown): number {
  return utf8.encode(JSON.stringify(value)).length + 1;
}

/** The longest prefix of `text` whose JSON string takes at most `bytes` bytes. */
function prefixWithin(text: string, bytes: number): string {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (lineBytes(text.slice(0, mid)) - 1 <= bytes) low = mid;
    else high = mid - 1;
  }
  // A high surrogate whose pair was cut away would be a lone one.
  const last = text.charCodeAt(low - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? low - 1 : low);
}

/**
 * Cuts `out`, one hook output object, until its JSON line takes at most `maxBytes` bytes: the
 * string at each path of `order` in turn (a path names keys down from `out`), least needed first,
 * keeping a prefix and CUT_MARK, or none of it for a path in `dropWhole` (a text that is invalid
 * when cut). An agent that stops reading a handler's stdout at a bound reads a longer answer as
 * text, losing its decision; the decision keys themselves are short, so what is left of the answer
 * always fits when `order` names its long texts. Answers the paths cut, joined with dots.
 */
export function fitAnswer(
  out: Record<string, unknown>,
  maxBytes: number,
  order: readonly (readonly string[])[],
  dropWhole: readonly string[] = [],
): string[] {
  const cut: string[] = [];
  for (const path of order) {
    const over = lineBytes(out) - maxBytes;
    if (over <= 0) break;
    const holder = holderOf(out, path);
    const key = path[path.length - 1] as string;
    const text = holder?.[key];
    if (holder === null || typeof text !== 'string') continue;
    const name = path.join('.');
    if (dropWhole.includes(name)) {
      delete holder[key];
      cut.push(name);
      continue;
    }
    const room = lineBytes(text) - 1 - over - (lineBytes(CUT_MARK) - 3);
    const kept = prefixWithin(text, Math.max(room, 2));
    const shorter = kept === '' ? CUT_MARK.trimStart() : `${kept}${CUT_MARK}`;
    if (lineBytes(shorter) >= lineBytes(text)) continue;
    holder[key] = shorter;
    cut.push(name);
  }
  return cut;
}

function holderOf(out: Record<string, unknown>, path: readonly string[]) {
  let holder: Record<string, unknown> = out;
  for (const key of path.slice(0, -1)) {
    const next = holder[key];
    if (typeof next !== 'object' || next === null) return null;
    holder = next as Record<string, unknown>;
  }
  return holder;
}
