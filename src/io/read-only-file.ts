import { HookpmError, type ErrorCode } from '../errors.js';

/**
 * Whether the user protected a file from edits: it exists (`mode` not null) and has no write bit
 * for anyone (`chmod 444`). Decided by the mode bits, not by access(W_OK): root passes that check
 * for any file, and the rename that replaces a file needs only its directory to be writable, so
 * neither tells whether the user asked tools to leave the file alone.
 */
export function isReadOnlyMode(mode: number | null): boolean {
  return mode !== null && (mode & 0o222) === 0;
}

/**
 * The refusal to rewrite a file the user made read-only (isReadOnlyMode), thrown before anything
 * is written: `code` is the caller's (E_AGENT_SETTINGS for an agent's settings, E_IO for hookpm's
 * own); `target` is the file a symlink at `path` leads to, which the fix names.
 */
export function readOnlyRefusal(
  code: ErrorCode,
  path: string,
  mode: number,
  target = path,
): HookpmError {
  const octal = mode.toString(8).padStart(3, '0');
  return new HookpmError(code, `${path} is read-only (mode ${octal}); hookpm left it as it is`, {
    file: path,
    hint: `Make it writable (chmod u+w ${target}) and run the command again, or edit it by hand.`,
  });
}
