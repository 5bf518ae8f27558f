import { HookpmError } from '../errors.js';
import { isEventName } from '../hooks/events.js';
import { describeValue } from '../json/describe-value.js';

/**
 * The library boundary of a dispatch (dispatchEvent, Session.dispatch): TypeScript types do not
 * reach JavaScript callers, and a call hookpm cannot read must never pass for an event no handler
 * matched (docs/reference/rules/engine.md#fail-closed). Returns the E_USAGE error of an event that
 * is not one of the twelve, an input that is not a plain object (a Map or a Date has no fields
 * handlers could read), options that are not an object, or a `signal` that is not an AbortSignal;
 * null when the call can be dispatched. Values are quoted bounded (describeValue).
 */
export function checkDispatchCall(
  event: unknown,
  input: unknown,
  opts: unknown,
): HookpmError | null {
  if (typeof event !== 'string' || !isEventName(event)) {
    return new HookpmError('E_USAGE', `unknown event ${describeValue(event)}`, {
      found: describeValue(event),
      hint: 'Event names are case-sensitive, e.g. PreToolUse, Stop.',
    });
  }
  if (!isPlainRecord(input)) {
    const found = Array.isArray(input)
      ? 'an array'
      : typeof input === 'object' && input !== null
        ? 'an object that is not a plain object'
        : describeValue(input);
    return new HookpmError(
      'E_USAGE',
      `the ${event} payload must be a JSON object, found ${found}`,
      {
        found,
        hint: 'Pass the event\'s fields as a plain object, e.g. {"tool_name":"Bash","tool_input":{...}}.',
      },
    );
  }
  if (opts !== undefined && (typeof opts !== 'object' || opts === null)) {
    return new HookpmError('E_USAGE', `the ${event} dispatch options must be an object`, {
      found: describeValue(opts),
      hint: 'Leave the options out, or pass an object such as {"continuationCount":0}.',
    });
  }
  const signal = (opts as { signal?: unknown } | undefined)?.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    return new HookpmError('E_USAGE', `the ${event} dispatch signal must be an AbortSignal`, {
      found: describeValue(signal),
      hint: 'Pass AbortController.signal, or leave `signal` out.',
    });
  }
  return null;
}

/**
 * A thrown value met while reading the caller's input (a getter or a proxy that throws), as the
 * E_USAGE rejection of the dispatch: no handler has started.
 */
export function unreadableInput(event: string, error: unknown): HookpmError {
  const why = describeValue(error instanceof Error ? error.message : error);
  return new HookpmError('E_USAGE', `the ${event} payload cannot be read: ${why}`, {
    hint: 'Pass only JSON values in the payload: strings, numbers, booleans, null, arrays and plain objects.',
  });
}

/** An object literal, JSON.parse's output or Object.create(null), from this realm or another. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}
