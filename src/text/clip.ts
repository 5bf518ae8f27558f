/**
 * `text` as a message may quote it: at most `max` characters, then `...` when it was longer. Text
 * from a catalog, a URL or a path built from one can be any length; a message stays short.
 */
export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
