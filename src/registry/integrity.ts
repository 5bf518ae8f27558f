import { createHash } from 'node:crypto';
import { HookpmError } from '../errors.js';

/** The sha512 digests (base64) of a Subresource Integrity string; any of them may match. */
export interface ParsedIntegrity {
  readonly sha512: readonly string[];
}

/** Where the checked bytes came from, for the error message. */
export interface IntegritySubject {
  url?: string;
  file?: string;
}

const SHA512_TOKEN = /^sha512-([A-Za-z0-9+/]{86}==)(?:\?.*)?$/;

/**
 * Parses an SRI string (`sha512-<base64> [sha1-...]`, whitespace separated, `?options` ignored).
 * registry.md I1: it must hold a well-formed sha512 entry, else `E_INTEGRITY` "sha512 required"
 * (a sha1-only or sha256-only integrity is refused, never downgraded to).
 */
export function parseIntegrity(sri: string): ParsedIntegrity {
  const sha512: string[] = [];
  for (const token of sri.trim().split(/\s+/)) {
    const match = SHA512_TOKEN.exec(token);
    if (match?.[1] !== undefined) sha512.push(match[1]);
  }
  if (sha512.length === 0) {
    throw new HookpmError(
      'E_INTEGRITY',
      `integrity "${sri.slice(0, 120)}" has no sha512 entry: sha512 required`,
      {
        expected: 'sha512-<base64 of 64 bytes>',
        found: sri.slice(0, 200),
        hint: 'The registry must publish a sha512 integrity for every version (npm pack prints one).',
      },
    );
  }
  return { sha512 };
}

/** `sha512-<base64>` of the bytes. */
export function integrityOf(bytes: Uint8Array): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

/** Hashes a stream chunk by chunk; `digest()` is called once, at the end. */
export interface IntegrityChecker {
  update(chunk: Uint8Array): void;
  /** `sha512-<base64>` of every chunk seen. */
  digest(): string;
}

export function createIntegrityChecker(): IntegrityChecker {
  const hash = createHash('sha512');
  return {
    update: (chunk) => {
      hash.update(chunk);
    },
    digest: () => `sha512-${hash.digest('base64')}`,
  };
}

/**
 * Throws `E_INTEGRITY` (with `expected` and `found`) unless `found` (an `integrityOf` result)
 * matches one of the sha512 digests of `expected`.
 */
export function verifyIntegrity(
  expected: string,
  found: string,
  subject: IntegritySubject = {},
): void {
  const wanted = parseIntegrity(expected).sha512;
  const digest = found.startsWith('sha512-') ? found.slice('sha512-'.length) : '';
  if (wanted.includes(digest)) return;
  const where = subject.url ?? subject.file ?? 'the download';
  throw new HookpmError(
    'E_INTEGRITY',
    `the bytes of ${where} do not match the published integrity`,
    {
      ...subject,
      expected,
      found,
      hint: 'The file changed after it was published, or it was tampered with in transit. Nothing was installed.',
    },
  );
}
