import { EVENTS } from './events.js';
import type { HookEventName } from './events.js';
import { wordTextTest } from './regex/word-text.js';
import { checkRegexSafety } from './regex/safe-regex.js';
import { matchesEverything } from './regex/match-everything.js';
import { clip } from '../text/clip.js';

/**
 * Group matchers (engine.md E1-E6). `compileMatcher` runs once per group when the snapshot is
 * built (E4: problems are reported then, never per event); `matcherAccepts` runs per event.
 */
export type CompiledMatcher =
  | { kind: 'all' }
  | { kind: 'exact'; names: readonly string[] }
  | { kind: 'regex'; source: string; regex: RegExp };

export type MatcherProblem = 'invalid_matcher' | 'unsafe_matcher' | 'unsupported_matcher';

export type CompileResult =
  { ok: true; matcher: CompiledMatcher } | { ok: false; code: MatcherProblem; message: string };

export const MAX_REGEX_LENGTH = 512;

/** E2: word characters (letters, digits, `_`, as in Python's `\w`), whitespace, `,`, `-`, `|`. */
const isExactSet = wordTextTest(',|-');

const ALL: CompiledMatcher = { kind: 'all' };

/**
 * E1: omitted, null, "" and "*" match everything, and so does a regular expression that matches
 * every string (`.*`, `^.*$`, ...): a wildcard on every event, those without a matcher field (E5)
 * and payloads without the field (E6) included.
 */
function isWildcardMatcher(matcher: string | null | undefined): boolean {
  if (matcher === undefined || matcher === null) return true;
  return matcher === '' || matcher === '*' || matchesEverything(matcher);
}

export function compileMatcher(matcher: string | null, event: HookEventName): CompileResult {
  if (isWildcardMatcher(matcher)) return { ok: true, matcher: ALL };
  const source = matcher as string;
  const shown = JSON.stringify(clip(source, 80));
  if (EVENTS[event].matcherField === null) {
    const message = `${event} has no matcher field, so only a wildcard matcher ("*", "", ".*" or none) is allowed; found ${shown}`;
    return { ok: false, code: 'unsupported_matcher', message };
  }
  if (isExactSet(source)) {
    const names = source
      .split(/[|,]/)
      .map((part) => part.trim())
      .filter((part) => part !== '');
    if (names.length === 0) {
      return { ok: false, code: 'invalid_matcher', message: `matcher ${shown} names no value` };
    }
    return { ok: true, matcher: { kind: 'exact', names } };
  }
  return compileRegex(source, shown);
}

function compileRegex(source: string, shown: string): CompileResult {
  if (source.length > MAX_REGEX_LENGTH) {
    const message = `matcher regular expression is ${source.length} characters long, more than ${MAX_REGEX_LENGTH}`;
    return { ok: false, code: 'unsafe_matcher', message };
  }
  let regex: RegExp;
  try {
    regex = new RegExp(source);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/^.*\/: /, '');
    return {
      ok: false,
      code: 'invalid_matcher',
      message: `matcher ${shown} is not a valid regular expression: ${reason}`,
    };
  }
  const safety = checkRegexSafety(source);
  if (!safety.safe) {
    const message = `matcher ${shown} can backtrack catastrophically: ${safety.reason}`;
    return { ok: false, code: 'unsafe_matcher', message };
  }
  return { ok: true, matcher: { kind: 'regex', source, regex } };
}

/**
 * E2/E3 against the event's matcher field; E6: when the payload lacks that field (or it is not a
 * string), only match-all matchers accept. Events without a matcher field only ever hold 'all'
 * matchers (E5 is enforced by compileMatcher). `aliases` (cli.md W4: the agent's other names of
 * the value, such as Codex's `Write` and `Edit` for `apply_patch`) are accepted as the value is.
 */
export function matcherAccepts(
  m: CompiledMatcher,
  event: HookEventName,
  payload: Readonly<Record<string, unknown>>,
  aliases: readonly string[] = [],
): boolean {
  return matcherAcceptsValue(m, matchedValue(event, payload), aliases);
}

/** The value an event's matchers are applied to: its matcher field when a string, else null. */
export function matchedValue(
  event: HookEventName,
  payload: Readonly<Record<string, unknown>>,
): string | null {
  const field = EVENTS[event].matcherField;
  const target = field !== null && Object.hasOwn(payload, field) ? payload[field] : undefined;
  return typeof target === 'string' ? target : null;
}

/**
 * matcherAccepts for a value matchedValue read once for all of an event's groups: `value` or one
 * of its `aliases` accepted; no value (null) is accepted only by a match-all matcher. Allocates
 * nothing, as it runs once per group of every dispatch.
 */
export function matcherAcceptsValue(
  m: CompiledMatcher,
  value: string | null,
  aliases: readonly string[],
): boolean {
  if (m.kind === 'all') return true;
  if (value === null) return false;
  if (acceptsName(m, value)) return true;
  for (const alias of aliases) if (acceptsName(m, alias)) return true;
  return false;
}

function acceptsName(m: Exclude<CompiledMatcher, { kind: 'all' }>, name: string): boolean {
  return m.kind === 'exact' ? m.names.includes(name) : m.regex.test(name);
}
