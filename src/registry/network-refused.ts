import { HookpmError } from '../errors.js';

/** The global option that turns the network off (D5), as the user types it. */
const FLAG = '--offline';

/**
 * D5: the one E_OFFLINE error, for anything that must come over the network while the network is
 * off. `what` says what could not be done ("cannot download <url>"); the message names the flag,
 * the hint says how to proceed (default: run again without the flag).
 */
export function networkRefused(
  what: string,
  details: Record<string, unknown> = {},
  hint = `Run the command again without ${FLAG}.`,
): HookpmError {
  return new HookpmError('E_OFFLINE', `${FLAG}: ${what}`, { ...details, hint });
}

/** The note said when cached indexes were used because the network is off. */
export function cachedIndexesNote(registries: readonly string[]): string {
  return `${FLAG}: using the cached indexes of ${registries.join(', ')}`;
}
