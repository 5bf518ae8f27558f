import { isPlainObject } from '../../../json/describe-value.js';
import type { LoggedDispatch } from './dispatch-line.js';
import { LOGGED_DECISIONS } from './run-outcome.js';

type Check = (value: unknown) => boolean;

const str: Check = (v) => typeof v === 'string';
const strOrNull: Check = (v) => v === null || typeof v === 'string';
const bool: Check = (v) => typeof v === 'boolean';
const decision: Check = (v) => v === null || LOGGED_DECISIONS.some((d) => d === v);
const exitCode: Check = (v) => v === null || Number.isInteger(v);
const ms: Check = (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const count: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;
const strings: Check = (v) => Array.isArray(v) && v.every(str);
/** Only dates `hookpm log --since` can compare and the renderer can print. */
const time: Check = (v) => typeof v === 'string' && Number.isFinite(Date.parse(v));

/** Field checks; a `?` after the name marks an optional field (absent, never undefined). */
const RUN: Record<string, Check> = {
  handler: str,
  'key?': str,
  origin: str,
  plugin: strOrNull,
  exitCode,
  ms,
  timedOut: bool,
  failed: bool,
  decision,
  'stdout?': str,
  'stderr?': str,
};

const TEXT: Record<string, Check> = {
  reason: strOrNull,
  context: strings,
  feedback: strings,
  systemMessages: strings,
};

const DISPATCH: Record<string, Check> = {
  v: (v) => v === 1,
  time,
  event: str,
  source: str,
  session: strOrNull,
  snapshot: str,
  decision,
  runs: (v) => Array.isArray(v) && v.every((run) => fits(run, RUN)),
  'payload?': () => true,
  'text?': (v) => fits(v, TEXT),
  'textOmitted?': (v) => v === true,
  'runsOmitted?': count,
};

/**
 * The log entry `value` (one parsed line) when every field `hookpm log` and `hookpm stats` use has
 * the type dispatch-line.ts writes; null otherwise, and the line counts as damaged. Fields it does
 * not know are ignored (a newer hookpm may add some). Checked by hand, as the writer's shape is
 * small and `log` must not load zod for every line.
 */
export function checkLogLine(value: unknown): LoggedDispatch | null {
  return fits(value, DISPATCH) ? (value as unknown as LoggedDispatch) : null;
}

function fits(value: unknown, fields: Record<string, Check>): boolean {
  if (!isPlainObject(value)) return false;
  for (const [spec, check] of Object.entries(fields)) {
    const optional = spec.endsWith('?');
    const name = optional ? spec.slice(0, -1) : spec;
    if (!Object.hasOwn(value, name)) {
      if (optional) continue;
      return false;
    }
    if (!check(value[name])) return false;
  }
  return true;
}
