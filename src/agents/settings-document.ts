import { isPlainObject } from '../json/describe-value.js';
import { parseJson } from '../json/parse-json.js';
import { clip } from '../text/clip.js';

/**
 * An agent's settings file as `hookpm link` may edit it: strict JSON (no comments, no trailing
 * commas, no duplicate keys, since rewriting such a file would lose what the user wrote), an object
 * at the top, `hooks` an object when present, and each of its events a list of groups (`configKeys`
 * under `hooks` are the agent's settings, not events, and may hold anything); an empty file
 * (isBlankSettings) is `{}`. Anything else is refused, and the caller leaves the file untouched.
 */
export type SettingsDocument =
  { ok: true; value: Record<string, unknown>; bom: boolean } | { ok: false; problem: string };

export function readSettingsDocument(
  text: string,
  file: string,
  configKeys: readonly string[] = [],
): SettingsDocument {
  if (isBlankSettings(text)) return { ok: true, value: {}, bom: text.startsWith(BOM) };
  const parsed = parseJson(text, file);
  if (!parsed.ok) {
    return {
      ok: false,
      problem: `${file}:${parsed.line}:${parsed.column}: ${parsed.message} (hookpm edits only strict JSON, so that nothing in the file is lost)`,
    };
  }
  if (!isPlainObject(parsed.value))
    return { ok: false, problem: `${file}: the settings are not a JSON object` };
  const hooks = parsed.value['hooks'];
  if (hooks !== undefined) {
    if (!isPlainObject(hooks)) return { ok: false, problem: `${file}: "hooks" is not an object` };
    for (const [event, groups] of Object.entries(hooks)) {
      // The event is the file's key, of any length: the message quotes a bounded prefix.
      if (!Array.isArray(groups) && !configKeys.includes(event))
        return { ok: false, problem: `${file}: "hooks.${clip(event)}" is not a list of groups` };
    }
  }
  return { ok: true, value: parsed.value, bom: parsed.bom };
}

const BOM = '\ufeff';
/** JSON's white space only (RFC 8259: space, tab, line feed, carriage return). */
const BLANK = /^[ \t\n\r]*$/;

/**
 * Whether `text` (after a byte-order mark) is empty or JSON white space only, as `touch` or an
 * editor leaves a file: it holds no setting to lose, and is read and edited as `{}` is.
 */
export function isBlankSettings(text: string): boolean {
  return BLANK.test(text.startsWith(BOM) ? text.slice(BOM.length) : text);
}

/** One handler of a settings file, by position: `hooks.<event>[group].hooks[handler]`. */
export interface HandlerAt {
  event: string;
  group: number;
  handler: number;
  value: unknown;
}

/** Every handler of a checked settings document, in file order. */
export function handlersOf(settings: Record<string, unknown>): HandlerAt[] {
  const found: HandlerAt[] = [];
  const hooks = settings['hooks'];
  if (!isPlainObject(hooks)) return found;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group: unknown, g) => {
      const list = isPlainObject(group) ? group['hooks'] : undefined;
      if (!Array.isArray(list)) return;
      list.forEach((value: unknown, h) => found.push({ event, group: g, handler: h, value }));
    });
  }
  return found;
}
