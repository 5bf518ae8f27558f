import { HookpmError } from '../../errors.js';
import { createIntegrityChecker, verifyIntegrity } from '../integrity.js';

/** Where the bytes of one response go; a fresh sink is made for every attempt. */
export interface BodySink<T> {
  write(chunk: Buffer): Promise<void> | void;
  /** Called once, after the size and integrity checks passed; returns what the caller gets. */
  finish(): Promise<T>;
  /** Called once when the body is not used (error, retry, abort); leaves nothing behind. */
  discard(): Promise<void>;
}

export interface BodyLimits {
  /** The shown (redacted) URL, for messages. */
  url: string;
  maxBytes: number;
  /** Content-Length when the server sent one. */
  expectedLength: number | null;
  integrity: string | undefined;
  /** The size the index entry declares (docs/reference/rules/registry.md#index-format, `size`), when it declares one. */
  declaredSize?: number | undefined;
  onProgress: ((received: number, total: number | null) => void) | undefined;
}

/** Thrown for a body shorter than its Content-Length; the caller retries it (N3). */
export class TruncatedBodyError extends Error {
  constructor(received: number, expected: number) {
    super(`body ended after ${received} of ${expected} bytes`);
    this.name = 'TruncatedBodyError';
  }
}

/**
 * Streams `body` into `sink` under N1 and the integrity rule: more than `maxBytes` stops reading at
 * once with `E_REGISTRY_TOO_LARGE` (leaving the loop destroys the body); more than `declaredSize`
 * stops at once too, and a complete body of another size is refused, both `E_INTEGRITY` (step 2 of
 * docs/reference/rules/registry.md#install-transaction: size and sha512 are verified while
 * streaming); a body shorter than its Content-Length is a `TruncatedBodyError`; a sha512 mismatch
 * is `E_INTEGRITY`. The sink is finished only when every check passed, and discarded otherwise.
 */
export async function readBody<T>(
  body: AsyncIterable<Buffer>,
  sink: BodySink<T>,
  limits: BodyLimits,
): Promise<T> {
  // Only a body with an integrity to meet is hashed (an index is not: hashing it loaded node:crypto).
  const check =
    limits.integrity === undefined
      ? null
      : { integrity: limits.integrity, hash: createIntegrityChecker() };
  let received = 0;
  try {
    for await (const chunk of body) {
      received += chunk.length;
      if (received > limits.maxBytes) throw tooLarge(limits.url, limits.maxBytes, null);
      if (limits.declaredSize !== undefined && received > limits.declaredSize)
        throw wrongSize(limits.url, limits.declaredSize, received, 'more');
      check?.hash.update(chunk);
      await sink.write(chunk);
      limits.onProgress?.(received, limits.expectedLength);
    }
    if (limits.expectedLength !== null && received !== limits.expectedLength) {
      throw new TruncatedBodyError(received, limits.expectedLength);
    }
    if (limits.declaredSize !== undefined && received !== limits.declaredSize)
      throw wrongSize(limits.url, limits.declaredSize, received, 'exact');
    if (check !== null) verifyIntegrity(check.integrity, check.hash.digest(), { url: limits.url });
  } catch (error) {
    await sink.discard();
    throw error;
  }
  return sink.finish();
}

/** `E_REGISTRY_TOO_LARGE` for a response over its cap (declared by Content-Length or streamed). */
export function tooLarge(url: string, maxBytes: number, declared: number | null): HookpmError {
  const found = declared === null ? `more than ${maxBytes} bytes` : `Content-Length ${declared}`;
  return new HookpmError(
    'E_REGISTRY_TOO_LARGE',
    `the response from ${url} is too large: ${found}, limit ${maxBytes} bytes`,
    {
      url,
      limit: maxBytes,
      found: declared,
      hint: 'The registry serves a file larger than hookpm accepts; report it to the registry owner.',
    },
  );
}

/**
 * `E_INTEGRITY` for a tarball that is not the size its index entry declares: `more` when it passed
 * the size (reading stopped there: `found` is what had arrived), `exact` when it ended short.
 */
export function wrongSize(
  url: string,
  declared: number,
  found: number,
  how: 'more' | 'exact',
): HookpmError {
  const what =
    how === 'more'
      ? `is larger than the ${declared} bytes its index entry declares (stopped after ${found} bytes)`
      : `has ${found} bytes, not the ${declared} bytes its index entry declares`;
  return new HookpmError('E_INTEGRITY', `the tarball ${url} ${what}; nothing was kept`, {
    url,
    expected: declared,
    found,
    hint: 'The registry serves other bytes than its index describes. Nothing was installed; report it to the registry owner.',
  });
}

/** A sink that keeps the body in memory (indexes, at most 8 MiB by N1). */
export function bufferSink(): BodySink<Buffer> {
  const chunks: Buffer[] = [];
  return {
    write: (chunk) => {
      chunks.push(chunk);
    },
    finish: async () => Buffer.concat(chunks),
    discard: async () => {
      chunks.length = 0;
    },
  };
}
