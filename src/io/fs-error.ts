import { HookpmError } from '../errors.js';
import { clip } from '../text/clip.js';

/** The errno code of a Node.js system error, if it has one. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/**
 * Maps a file-system failure on `file`, one of the store's (FileOwner), to the store's error codes
 * (security.md "State and the file system"): a full disk is E_NOSPC, a store that cannot be written
 * is E_STORE_READONLY, anything else is E_IO. A HookpmError passes through unchanged. The user's
 * files go through toUserFileError.
 */
export function toStoreError(error: unknown, file: string, action: string): HookpmError {
  if (error instanceof HookpmError) return error;
  const code = errnoCode(error);
  const reason = error instanceof Error ? error.message : String(error);
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new HookpmError('E_NOSPC', `no space left to ${action} ${clip(file)} (${code})`, {
      file,
      errno: code,
      hint: 'Free some disk space and run the command again; nothing was changed.',
    });
  }
  if (code === 'EACCES' || code === 'EROFS' || code === 'EPERM') {
    return new HookpmError(
      'E_STORE_READONLY',
      `cannot ${action} ${clip(file)}: the store is read-only (${code})`,
      {
        file,
        errno: code,
        hint: 'Make the hookpm data directory writable, or point HOOKPM_HOME (--home) at a writable directory.',
      },
    );
  }
  return new HookpmError('E_IO', `failed to ${action} ${clip(file)}: ${clip(reason)}`, {
    file,
    errno: code,
  });
}

/**
 * Whose file a failing path is: hookpm's own (`store`: its data directory, caches, state) or the
 * user's (`user`: an agent's settings file, a project's hookpm.json and hookpm.lock or its root, a
 * directory `hookpm init` fills). Only a store file that cannot be written is E_STORE_READONLY.
 */
export type FileOwner = 'store' | 'user';

/** Words for the errno codes of a permission failure. */
const DENIED: ReadonlyMap<string, string> = new Map([
  ['EACCES', 'permission denied'],
  ['EPERM', 'operation not permitted'],
  ['EROFS', 'read-only file system'],
]);

/**
 * Maps a file-system failure on one of the user's files (FileOwner) to an error naming it: a
 * permission failure (EACCES, EPERM, EROFS) on the file or its directory is E_IO "cannot <action>
 * <file>: permission denied (EACCES)", with a hint about that file, never about the store; a
 * symlink loop (ELOOP) is E_IO saying so; anything else as toStoreError. A HookpmError passes
 * through, but for the hint of a file read-regular-file.ts refused (not a regular file, too
 * large), which speaks of files hookpm owns and recreates: the user's are not recreated.
 */
export function toUserFileError(error: unknown, file: string, action: string): HookpmError {
  if (error instanceof HookpmError) return asUserFile(error);
  const code = errnoCode(error);
  if (code === 'ELOOP') {
    return new HookpmError(
      'E_IO',
      `cannot ${action} ${clip(file)}: its symbolic links form a loop`,
      {
        file,
        errno: code,
        hint: `Replace ${clip(file)} with a regular file (or a symlink to one), then run the command again.`,
      },
    );
  }
  const denied = code === undefined ? undefined : DENIED.get(code);
  if (denied === undefined) return toStoreError(error, file, action);
  return new HookpmError('E_IO', `cannot ${action} ${clip(file)}: ${denied} (${code})`, {
    file,
    errno: code,
    hint: `Check the permissions of ${clip(file)} and of its directory (their mode bits and owner, and attributes such as immutable: \`lsattr -d\`), then run the command again.`,
  });
}

/**
 * Runs `read` on `path`, a file or folder of the user's (a plugin directory being walked): what it
 * throws becomes toUserFileError's error naming `path` (E_IO for permission denied), never an
 * errno error that would reach the user as E_INTERNAL.
 */
export async function readingUserFile<T>(path: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw toUserFileError(error, path, 'read');
  }
}

/** Hints for the user's own files that read-regular-file.ts refused, by its `reason`. */
const USER_FILE_HINTS: ReadonlyMap<unknown, string> = new Map([
  ['not_regular', 'Replace it with a regular file, then run the command again.'],
  ['too_large', 'Make it smaller, then run the command again.'],
]);

function asUserFile(error: HookpmError): HookpmError {
  const hint = error.code === 'E_IO' ? USER_FILE_HINTS.get(error.details['reason']) : undefined;
  if (hint === undefined) return error;
  return new HookpmError(error.code, error.message, { ...error.details, hint });
}

/** The error mapping for a file of `owner`: toStoreError or toUserFileError. */
export function fileErrorOf(
  owner: FileOwner,
): (error: unknown, file: string, action: string) => HookpmError {
  return owner === 'user' ? toUserFileError : toStoreError;
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
