/**
 * The one error type of hookpm. Codes are stable: never rename or reuse one.
 * The CLI maps codes to exit codes and words in one place (cli/report-error.ts).
 */
export type ErrorCode =
  | 'E_USAGE'
  | 'E_NAME_INVALID'
  | 'E_NOT_FOUND'
  | 'E_NOT_INSTALLED'
  | 'E_AMBIGUOUS'
  | 'E_NO_MATCHING_VERSION'
  | 'E_INTEGRITY'
  | 'E_INTEGRITY_CHANGED'
  | 'E_MANIFEST_INVALID'
  | 'E_MANIFEST_MISMATCH'
  | 'E_HOOKS_INVALID'
  | 'E_ARCHIVE_UNSAFE'
  | 'E_ARCHIVE_TOO_LARGE'
  | 'E_ARCHIVE_CORRUPT'
  | 'E_REGISTRY_SCHEMA'
  | 'E_REGISTRY_NETWORK'
  | 'E_REGISTRY_TIMEOUT'
  | 'E_REGISTRY_TOO_LARGE'
  | 'E_REGISTRY_EXISTS'
  | 'E_REDIRECT'
  | 'E_INSECURE_URL'
  | 'E_OFFLINE'
  | 'E_CONSENT_REQUIRED'
  | 'E_DOWNGRADE'
  | 'E_LOCKED'
  | 'E_NOSPC'
  | 'E_STATE_CORRUPT'
  | 'E_STORE_READONLY'
  | 'E_TRUST_STORE'
  | 'E_CANCELLED'
  | 'E_SYMLINK_ESCAPE'
  | 'E_PLUGIN_TAMPERED'
  | 'E_GIT'
  | 'E_IO'
  | 'E_SESSION_CLOSED'
  | 'E_AGENT_SETTINGS'
  | 'E_TARGET_EXISTS'
  | 'E_LOCK_MISMATCH'
  | 'E_PROJECT_FILE'
  | 'E_REGISTRY_LOCATION'
  | 'E_POLICY'
  | 'E_CONFIG'
  | 'E_INTERNAL';

export interface ErrorDetails {
  /** How to fix it, shown indented under the message. */
  hint?: string;
  /** Machine fields (expected, found, url, file, plugin, version, ...). */
  [field: string]: unknown;
}

export class HookpmError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'HookpmError';
    this.code = code;
    const { hint, ...rest } = details;
    this.hint = hint;
    this.details = rest;
  }
}

export function isHookpmError(value: unknown, code?: ErrorCode): value is HookpmError {
  return value instanceof HookpmError && (code === undefined || value.code === code);
}

/**
 * A URL's user part in prose (registry.md N5): from `scheme://` to the last `@` a host can follow
 * (not a space, a quote, `<` or `>`: `name@<name>` is prose) before the authority ends, at a `/`,
 * `?` or `#` as in a URL, or at a line break. A space or a quote ends nothing
 * (`https://u:pa ss@host/`, a password as typed), but none starts one: a scheme named in prose
 * (`an https:// git repository, or git@host:o/r.git`) has none; an `@` past the authority is prose
 * (`https://r.example/ lists guard@team`). A scheme is at most 32 characters, and an authority
 * ends at the next `://`, so text of any length is scanned in linear time. url-policy.ts's
 * redactUserInfo, given one value, hides the same part.
 */
const USER_INFO = /([a-z][a-z0-9+.-]{0,31}:\/\/)(?!\s)[^/?#\r\n]*@(?![\s"'`<>])/gi;

/**
 * A secret after `authorization`, `token` or `password` (N5): its scheme word, then the value up
 * to a space, a quote, a comma or `}`. `;`, `<`, `>` and `)` are in the value (a password may hold
 * them); only the run of them that ends it is given back, as the prose around it
 * (`(token=abc), retry`).
 */
const SECRET =
  /((?:authorization|token|password)["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|token)\s+)?[^\s"',}]+/gi;
const TRAILING_PUNCTUATION = new Set([';', '<', '>', ')']);

/**
 * Removes user:password@ from URLs (USER_INFO) and bearer-like tokens from a string (registry.md
 * N5): the value after `authorization`, `token` or `password`, with its scheme word (`Bearer x` as
 * a whole), as SECRET bounds it.
 */
export function redact(text: string): string {
  return text.replace(USER_INFO, '$1***@').replace(SECRET, (match, key: string) => {
    // Scanned from the end, not by a regex anchored at `$`: linear in a word of any length.
    let end = match.length;
    while (end > key.length && TRAILING_PUNCTUATION.has(match[end - 1]!)) end -= 1;
    return end === key.length ? match : `${key}***${match.slice(end)}`;
  });
}
