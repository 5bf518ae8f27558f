/**
 * The text of `bytes` when they are valid UTF-8, else null (never a replacement character). A
 * leading byte order mark stays in the text as U+FEFF with `bom: 'keep'`, for a reader that
 * reports or refuses it (a hooks or settings document), and is dropped with `bom: 'drop'`, for a
 * reader that takes the text either way.
 */
export function strictUtf8(bytes: Uint8Array, bom: 'keep' | 'drop'): string | null {
  try {
    return (bom === 'keep' ? KEEP : DROP).decode(bytes);
  } catch {
    return null;
  }
}

const KEEP = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const DROP = new TextDecoder('utf-8', { fatal: true });
