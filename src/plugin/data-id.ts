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
