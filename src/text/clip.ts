/** The bound of a name, a key, a path or a URL quoted in a message (clip's default). */
export const QUOTE_MAX = 200;

/**
 * The bound of free text a command shows of a field it did not write (a registry's description or
 * deprecation message, a log's note): docs/reference/rules/cli.md#conventions; `--json` keeps it
 * whole.
 */
export const FIELD_MAX = 1_000;

/**
 * `text` as a message may quote it: at most `max` characters, then `...` when it was longer. Text
 * from a catalog, a URL or a path built from one can be any length; a message stays short.
 */
export function clip(text: string, max = QUOTE_MAX): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
