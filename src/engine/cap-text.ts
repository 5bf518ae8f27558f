/** M7: every user-facing and model-facing string is cut to this many characters (code points). */
export const OUTPUT_CAP_CHARS = 10_000;

/**
 * Cuts `text` to OUTPUT_CAP_CHARS code points, never splitting a surrogate pair. `capped` tells
 * the caller to report `output_capped`.
 */
export function capText(text: string): { text: string; capped: boolean } {
  if (text.length <= OUTPUT_CAP_CHARS) return { text, capped: false };
  const points = Array.from(text);
  if (points.length <= OUTPUT_CAP_CHARS) return { text, capped: false };
  return { text: points.slice(0, OUTPUT_CAP_CHARS).join(''), capped: true };
}
