import { hash } from 'node:crypto';

/**
 * plugins.md V3: the file-system-safe form of a plugin id, used for its data directory and its
 * installed trees. Every code point other than an ASCII letter, digit, `_` or `-` becomes `-`, and
 * `-` plus the first 12 hex characters of the SHA-256 of the id (UTF-8) is appended, so ids that
 * sanitize alike (`a.b@r`, `a-b@r`) still get different names.
 */
export function sanitizePluginId(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9_-]/gu, '-');
  const digest = hash('sha256', id, 'hex').slice(0, 12);
  return `${safe}-${digest}`;
}

/**
 * Whether sanitizePluginId(id) is `name`. For a caller testing many ids against a few names: an
 * id is hashed only when its readable part is `name`'s (or it is not ASCII).
 */
export function sanitizesTo(id: string, name: string): boolean {
  for (let i = 0; i < id.length; i += 1) {
    const c = id.charCodeAt(i);
    if (c > 0x7f) return sanitizePluginId(id) === name;
    const kept =
      (c >= 0x30 && c <= 0x39) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      c === 0x5f ||
      c === 0x2d;
    if (name.charCodeAt(i) !== (kept ? c : 0x2d)) return false;
  }
  return name.length === id.length + 13 && sanitizePluginId(id) === name;
}
