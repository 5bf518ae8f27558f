import { hash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted by UTF-16 code units (integer-like keys too, unlike JS
 * property order), no whitespace. Values follow JSON.stringify (undefined object members are
 * omitted, undefined array items and non-finite numbers become null), so equal data always gives
 * equal text (engine.md R3, plugins.md Q2).
 */
export function canonicalJson(value: unknown): string {
  const text = encode(value);
  if (text === undefined) throw new Error('Assertion failed: canonicalJson of a non-JSON value');
  return text;
}

function encode(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'object':
      return Array.isArray(value)
        ? encodeArray(value)
        : encodeObject(value as Record<string, unknown>);
    default:
      return undefined;
  }
}

function encodeArray(items: readonly unknown[]): string {
  let text = '';
  for (let i = 0; i < items.length; i += 1)
    text += `${i === 0 ? '' : ','}${encode(items[i]) ?? 'null'}`;
  return `[${text}]`;
}

function encodeObject(object: Record<string, unknown>): string {
  let text = '';
  for (const key of Object.keys(object).sort()) {
    const value = encode(object[key]);
    if (value !== undefined) text += `${text === '' ? '' : ','}${JSON.stringify(key)}:${value}`;
  }
  return `{${text}}`;
}

/** SHA-256 of a string (as UTF-8) or bytes, lower-case hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}

/** SHA-256 of a string (as UTF-8) or bytes, standard base64 (for `sha256-...` hashes). */
export function sha256Base64(data: string | Uint8Array): string {
  return hash('sha256', data, 'base64');
}
