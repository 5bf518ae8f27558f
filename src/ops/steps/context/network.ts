import { offlineError } from '../../../registry/offline-error.js';
import type { OperationContext } from './operation-context.js';

/** D5: true when the command runs without network access (only cached data and local files). */
export function isOffline(ctx: Pick<OperationContext, 'offline'>): boolean {
  return ctx.offline === true;
}

/**
 * The gate before any network access a step makes: E_OFFLINE (offline-error.ts, naming the flag)
 * when the context is offline, so nothing is requested. `what` completes "--offline: <what>".
 */
export function requireNetwork(
  ctx: Pick<OperationContext, 'offline'>,
  what: string,
  details: Record<string, unknown> = {},
  hint?: string,
): void {
  if (isOffline(ctx)) throw offlineError(what, details, hint);
}
