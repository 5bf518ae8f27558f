import { HookpmError } from '../errors.js';

/** The errno code of a Node.js system error, if it has one. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/**
 * Maps a file-system failure on `file` to the store's error codes (security.md "State and the file
 * system"): a full disk is E_NOSPC, a store that cannot be written is E_STORE_READONLY, anything
 * else is E_IO. A HookpmError passes through unchanged.
 */
export function toStoreError(error: unknown, file: string, action: string): HookpmError {
  if (error instanceof HookpmError) return error;
  const code = errnoCode(error);
  const reason = error instanceof Error ? error.message : String(error);
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new HookpmError('E_NOSPC', `no space left to ${action} ${file} (${code})`, {
      file,
      errno: code,
      hint: 'Free some disk space and run the command again; nothing was changed.',
    });
  }
  if (code === 'EACCES' || code === 'EROFS' || code === 'EPERM') {
    return new HookpmError(
      'E_STORE_READONLY',
      `cannot ${action} ${file}: the store is read-only (${code})`,
      {
        file,
        errno: code,
        hint: 'Make the hookpm data directory writable, or point HOOKPM_HOME (--home) at a writable directory.',
      },
    );
  }
  return new HookpmError('E_IO', `failed to ${action} ${file}: ${reason}`, { file, errno: code });
}

/**
 * Runs a clean-up step whose failure must not hide what matters: the error already being
 * reported, or the result of a step that succeeded (what is left is collected later,
 * store/collect.ts).
 */
export function quietly(step: () => unknown): void {
  try {
    step();
  } catch {
    // Ignored on purpose; see above.
  }
}
