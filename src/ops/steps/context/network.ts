import { networkRefused } from '../../../registry/network-refused.js';
import type { OperationContext } from './operation-context.js';

/** The part of the operation context that says whether the network may be used (D5). */
export type NetworkSwitch = Pick<OperationContext, 'offline'>;

/** D5: false when the command runs without the network (only cached data and local files). */
export function networkAllowed(ctx: NetworkSwitch): boolean {
  return ctx.offline !== true;
}

/**
 * The gate before any network access a step makes: E_OFFLINE (network-refused.ts, naming the
 * flag) when the network is off, so nothing is requested. `what` completes "--offline: <what>".
 */
export function requireNetwork(
  ctx: NetworkSwitch,
  what: string,
  details: Record<string, unknown> = {},
  hint?: string,
): void {
  if (!networkAllowed(ctx)) throw networkRefused(what, details, hint);
}
