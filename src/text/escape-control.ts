/**
 * Plugin-supplied text as it may be printed (docs/reference/rules/cli.md#conventions): with its
 * control characters escaped, so a hooks file cannot move the cursor, recolour the terminal or hide
 * text.
 */

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * DEL, C1, the bidirectional overrides and isolates that reorder displayed text, the line and
 * paragraph separators, and every character that prints as nothing and so makes two different
 * texts look the same: soft hyphen, zero-width space, joiners and non-joiners, word joiner and
 * invisible operators, byte-order mark, interlinear annotation, and the rest of Unicode's default
 * ignorable code points (combining grapheme joiner, Hangul fillers, variation selectors, the tag
 * characters of plane 14 and the like). Every one occurs in JSON text only inside a string.
 */
const INVISIBLE = String.raw`\u007f-\u009f\u061c\u2028-\u202e\u2066-\u2069\ufff9-\ufffb\p{Default_Ignorable_Code_Point}`;

/** C0 and INVISIBLE. */
const CONTROL = new RegExp(`[\\u0000-\\u001f${INVISIBLE}]`, 'gu');

/**
 * What JSON.stringify leaves raw that the text output escapes (INVISIBLE: it escapes C0 itself),
 * for render.ts jsonText.
 */
export const JSON_RAW = new RegExp(`[${INVISIBLE}]`, 'gu');

/** `text` with each CONTROL character escaped: `\n`, `\r`, `\t` by name, the others as `\uXXXX`. */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (found) => NAMED[found] ?? unitEscape(found));
}

/** `\uXXXX` for each UTF-16 unit of `text`. */
export function unitEscape(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1)
    out += `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}
