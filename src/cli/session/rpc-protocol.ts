import { z } from '../../json/zod.js';
import { EVENT_NAMES, isEventName, type EventName } from '../../hooks/events.js';
import { describeValue } from '../../json/describe-value.js';
import { parseJson, parseJsonAnyDepth } from '../../json/parse-json.js';

/**
 * JSON-RPC 2.0 framing for `hookpm session` (docs/reference/rules/cli.md#session): one message per
 * line. This module parses a line into a request and formats replies; it does no I/O.
 */

/** JSON-RPC 2.0 error codes; -32000 carries a hookpm error (`data.code` is its E_ code). */
export const RPC_ERROR = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  hookpm: -32000,
} as const;

export type RpcErrorCode = (typeof RPC_ERROR)[keyof typeof RPC_ERROR];

export type RpcId = string | number | null;

export interface RpcRequest {
  /** Absent for a notification, which is carried out but never answered. */
  id?: RpcId;
  method: string;
  params: unknown;
}

export interface RpcFailure {
  code: RpcErrorCode;
  message: string;
  data?: unknown;
}

export type ParsedLine =
  { ok: true; request: RpcRequest } | { ok: false; id: RpcId; error: RpcFailure };

// Params are checked, not copied: each method parses its own (a copy could turn a `__proto__` key
// into a prototype).
const params = z.custom<unknown>((v) => typeof v === 'object' && v !== null, {
  error: 'expected an object or an array',
});

/**
 * A number id is an integer that a double holds exactly: a longer one would come back as another
 * number than the host sent, so its reply could never be matched; a fraction, which JSON-RPC 2.0
 * says an id should not have, is refused with it. A string id can be anything.
 */
const numberId = z.number().check(
  z.refine(Number.isSafeInteger, {
    error:
      'a number id must be an integer between -(2^53-1) and 2^53-1; send a longer one as a string',
  }),
);

const envelope = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string(),
  id: z.optional(z.union([z.string(), numberId, z.null()])),
  params: z.optional(params),
});

/**
 * One line of input. Duplicate keys are a parse error like any invalid JSON (security.md: strict
 * JSON everywhere). A batch (an array) is an invalid request: one message per line.
 */
export function parseRequestLine(line: string): ParsedLine {
  const parsed = parseJson(line, '<stdin>');
  // engine.md B5: a dispatch whose payload nests deeper than the strict parser reads is still a
  // request, answered with its id by the dispatch, which refuses the payload (fails closed).
  const value = parsed.ok ? parsed.value : parseJsonAnyDepth(line);
  if (!parsed.ok && value === undefined) {
    const message = `Parse error: ${parsed.message} at column ${parsed.column}`;
    return { ok: false, id: null, error: { code: RPC_ERROR.parse, message } };
  }
  const message = envelope.safeParse(value);
  if (message.success) {
    const { id, method, params } = message.data;
    return { ok: true, request: id === undefined ? { method, params } : { id, method, params } };
  }
  const id = idOf(value);
  const why = Array.isArray(value)
    ? 'batches are not supported: send one request per line'
    : `expected {"jsonrpc":"2.0","method":string,"id"?:string|integer|null,"params"?:object|array}: ${issueText(message.error)}`;
  return {
    ok: false,
    id,
    error: { code: RPC_ERROR.invalidRequest, message: `Invalid Request: ${why}` },
  };
}

function idOf(value: unknown): RpcId {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as Record<string, unknown>)['id'];
  return typeof id === 'string' || Number.isSafeInteger(id) ? (id as RpcId) : null;
}

/**
 * The first issue, as a message that quotes no more than a bounded prefix of what was sent: an
 * unknown key is named with describeValue, as the rest of hookpm names found values.
 */
function issueText(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  const message = issue.code === 'unrecognized_keys' ? unknownKeys(issue.keys) : issue.message;
  const path = issue.path.map(String).join('.');
  return path === '' ? message : `${path}: ${message}`;
}

function unknownKeys(keys: readonly string[]): string {
  const more = keys.length > 1 ? ` (and ${keys.length - 1} more)` : '';
  return `unknown key ${describeValue(keys[0])}${more}`;
}

const plainObject = z.custom<Readonly<Record<string, unknown>>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  { error: 'expected a JSON object' },
);

const dispatchSchema = z.strictObject({
  event: z.string().check(
    z.refine(isEventName, {
      error: (issue) =>
        `unknown event ${describeValue(issue.input)}; expected one of ${EVENT_NAMES.join(', ')}`,
    }),
  ),
  payload: z.optional(plainObject),
  continuationCount: z.optional(z.number().check(z.int(), z.nonnegative())),
});

export interface DispatchParams {
  event: EventName;
  payload: Readonly<Record<string, unknown>>;
  continuationCount?: number;
}

export type ParamsResult<T> = { ok: true; value: T } | { ok: false; error: RpcFailure };

/** `dispatch` params: `{event, payload?, continuationCount?}` by name; a missing payload is `{}`. */
export function parseDispatchParams(params: unknown): ParamsResult<DispatchParams> {
  const parsed = dispatchSchema.safeParse(params);
  if (!parsed.success) return invalidParams(issueText(parsed.error));
  const { event, payload, continuationCount } = parsed.data;
  const value: DispatchParams = { event: event as EventName, payload: payload ?? {} };
  if (continuationCount !== undefined) value.continuationCount = continuationCount;
  return { ok: true, value };
}

/** `reload`, `hooks` and `shutdown` take no params: absent, `{}` or `[]`. */
export function parseNoParams(params: unknown): ParamsResult<null> {
  if (params === undefined) return { ok: true, value: null };
  const empty = Array.isArray(params)
    ? params.length === 0
    : Object.keys(params as object).length === 0;
  return empty ? { ok: true, value: null } : invalidParams('this method takes no params');
}

function invalidParams(why: string): { ok: false; error: RpcFailure } {
  return { ok: false, error: { code: RPC_ERROR.invalidParams, message: `Invalid params: ${why}` } };
}

export function formatResult(id: RpcId, result: unknown): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${JSON.stringify(result ?? null)}}\n`;
}

export function formatError(id: RpcId, error: RpcFailure): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, error })}\n`;
}

export function formatNotification(method: string, params: unknown): string {
  return `${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`;
}
