import type { EventName } from '../hooks/events.js';
import { STOP_EVENTS } from './stop-hook-active.js';

/** What the host knows about the invocation, beyond the event's own fields (engine.md X2). */
export interface PayloadContext {
  sessionId: string;
  cwd: string;
  /** Omitted from the payload when unknown. */
  transcriptPath?: string;
  /** Defaults to the caller's `permission_mode`, else `default`. */
  permissionMode?: string;
  /** Consecutive Stop continuations so far; gives `stop_hook_active` on Stop and SubagentStop. */
  continuationCount?: number;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * The stdin payload of one dispatch (engine.md X2): the common fields, then the caller's event
 * fields. `session_id`, `cwd` and `hook_event_name` always come from the context and the event,
 * so the caller's input can never contradict them; `transcript_path` and `permission_mode` come
 * from the context when it has them, else from the input. On Stop and SubagentStop,
 * `stop_hook_active` is `continuationCount > 0` unless the input gives a boolean.
 */
export function buildPayload(
  event: EventName,
  input: Readonly<Record<string, unknown>>,
  ctx: PayloadContext,
): Record<string, unknown> {
  const payload: Record<string, unknown> = { session_id: ctx.sessionId };
  const transcriptPath = ctx.transcriptPath ?? input['transcript_path'];
  if (typeof transcriptPath === 'string') payload['transcript_path'] = transcriptPath;
  payload['cwd'] = ctx.cwd;
  const mode = ctx.permissionMode ?? input['permission_mode'];
  payload['permission_mode'] = typeof mode === 'string' ? mode : 'default';
  payload['hook_event_name'] = event;
  for (const [key, value] of Object.entries(input)) {
    // defineProperty: an own `__proto__` key from parsed JSON stays a plain field.
    if (!Object.hasOwn(payload, key)) define(payload, key, value);
  }
  if (STOP_EVENTS.has(event) && typeof input['stop_hook_active'] !== 'boolean') {
    define(payload, 'stop_hook_active', (ctx.continuationCount ?? 0) > 0);
  }
  return payload;
}
