/**
 * Plugin-supplied text as it may be printed (docs/reference/rules/cli.md#conventions): with its
 * control characters escaped, so a hooks file cannot move the cursor, recolour the terminal or hide
 * text.
 */

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * C0, DEL, C1, the bidirectional overrides and isolates that reorder displayed text, the line and
 * paragraph separators, and the invisible formatting characters that make two different texts
 * look the same: soft hyphen, zero-width space, joiners and non-joiners, word joiner and invisible
 * operators, byte-order mark, interlinear annotation and the tag characters of plane 14 (each
 * two UTF-16 units).
 */
const CONTROL =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

/** `text` with each CONTROL character escaped: `\n`, `\r`, `\t` by name, the others as `\uXXXX`. */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (found) => NAMED[found] ?? unitEscape(found));
}

/** `\uXXXX` for each UTF-16 unit of `text`. */
function unitEscape(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1)
    out += `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}
