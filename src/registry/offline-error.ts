import { HookpmError } from '../errors.js';

/**
 * D5: the one E_OFFLINE error, for anything that must come over the network while the command
 * runs with `--offline`. `what` says what could not be done ("cannot download <url>"); the
 * message names the flag, the hint says how to proceed (default: run again without the flag).
 */
export function offlineError(
  what: string,
  details: Record<string, unknown> = {},
  hint = 'Run the command again without --offline.',
): HookpmError {
  return new HookpmError('E_OFFLINE', `--offline: ${what}`, { ...details, hint });
}

/** The note said when cached indexes were used because of `--offline`. */
export function offlineIndexesNote(registries: readonly string[]): string {
  return `--offline: using the cached indexes of ${registries.join(', ')}`;
}
