/** X7: each of stdout and stderr is captured up to this many bytes; the rest is discarded. */
export const CAPTURE_LIMIT_BYTES = 100_000;

export interface OutputCapture {
  /** Keeps the chunk's bytes that still fit under the limit; the rest is counted and dropped. */
  push(chunk: Buffer): void;
  /** The kept bytes decoded as UTF-8 (never a split character at the cut), and whether any were dropped. */
  finish(): { text: string; truncated: boolean };
}

/**
 * A bounded byte sink for one stream: memory stays at `limit` bytes whatever the handler prints,
 * and the caller keeps draining the stream so the handler never blocks on a full pipe.
 */
export function createOutputCapture(limit: number = CAPTURE_LIMIT_BYTES): OutputCapture {
  const chunks: Buffer[] = [];
  let kept = 0;
  let truncated = false;
  return {
    push(chunk) {
      const room = limit - kept;
      if (chunk.length > room) truncated = true;
      if (room <= 0) return;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      // A copy, so that a cut chunk does not pin the producer's whole buffer in memory.
      chunks.push(part === chunk ? chunk : Buffer.from(part));
      kept += part.length;
    },
    finish() {
      const bytes = Buffer.concat(chunks, kept);
      const end = truncated ? completeUtf8Length(bytes) : bytes.length;
      return { text: bytes.toString('utf8', 0, end), truncated };
    },
  };
}

/**
 * The length of `bytes` without a trailing incomplete UTF-8 sequence, so that a cut in the middle of
 * a character drops it instead of decoding it to U+FFFD (which would exceed the byte limit).
 */
export function completeUtf8Length(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let back = 1; back <= Math.min(4, end); back++) {
    const byte = bytes[end - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? end - back : end;
  }
  return end;
}
