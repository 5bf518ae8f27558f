import { HookpmError } from '../../errors.js';

/**
 * Ctrl+C at a question (docs/design/decisions.md#where-the-rules-are-silent): E_CANCELLED marked
 * with the signal, which the CLI ends with exit status 130 (128 + SIGINT, as a shell reports a
 * command Ctrl+C stopped). The prompt has already ended the question's line, so the error starts on
 * a clean one.
 */
export function interrupted(message: string, details: Record<string, unknown> = {}): HookpmError {
  return new HookpmError('E_CANCELLED', message, { ...details, signal: 'SIGINT' });
}

/** Whether `error` is an interrupted question (interrupted). */
export function isInterrupted(error: HookpmError): boolean {
  return error.code === 'E_CANCELLED' && error.details['signal'] === 'SIGINT';
}
