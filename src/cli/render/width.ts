/**
 * Display width of terminal text, in columns, as terminals draw it: East Asian wide and fullwidth
 * characters and emoji take 2 columns, combining marks and zero-width characters 0, the rest 1
 * (Unicode UAX #11 and the emoji presentation property; https://www.unicode.org/reports/tr11/).
 * Measured per grapheme, so an emoji sequence joined by U+200D or a base with its marks is one
 * unit. Text is expected escaped (render.ts escapeControl): it holds no control characters.
 */

const ASCII = /^[\u0020-\u007e]*$/;
const ZERO = /^[\p{Mn}\p{Me}\p{Cf}\u200b\u1160-\u11ff\ufe00-\ufe0f]+$/u;
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\ufe0f/u;

/** Wide and fullwidth ranges of UAX #11 (East_Asian_Width W or F), by first code point. */
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

let segmenter: Intl.Segmenter | undefined;

/** The graphemes of `text` (user-perceived characters). */
export function graphemes(text: string): string[] {
  if (ASCII.test(text)) return [...text];
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** The columns one grapheme takes: 0, 1 or 2. */
export function graphemeWidth(grapheme: string): number {
  if (grapheme.length === 1 && grapheme >= ' ' && grapheme <= '~') return 1;
  if (ZERO.test(grapheme)) return 0;
  if (EMOJI.test(grapheme)) return 2;
  const code = grapheme.codePointAt(0) ?? 0;
  return WIDE.some(([from, to]) => code >= from && code <= to) ? 2 : 1;
}

export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  let width = 0;
  for (const g of graphemes(text)) width += graphemeWidth(g);
  return width;
}

/**
 * `text` cut to at most `width` columns, ending in `…` when cut (a wide character that would
 * straddle the edge is left out whole).
 */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const g of graphemes(text)) {
    const w = graphemeWidth(g);
    if (used + w > width - 1) break;
    out += g;
    used += w;
  }
  return `${out}…`;
}

/** `text` padded with spaces on the right to `width` columns. */
export function padToWidth(text: string, width: number): string {
  const pad = width - displayWidth(text);
  return pad > 0 ? text + ' '.repeat(pad) : text;
}
