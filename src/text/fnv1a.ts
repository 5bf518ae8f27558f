/**
 * FNV-1a (32 bits) of a string's UTF-16 code units, as 8 hex digits: names a cache file and
 * checks one for damage without loading `node:crypto`. Not a defence against forgery: whoever can
 * write a cache can write the state too (see the callers).
 */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
