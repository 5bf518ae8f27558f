/**
 * When to retry a request and how long to wait (registry.md N3): 5xx and 429 are retried a bounded
 * number of times with exponential backoff; a `Retry-After` header is honoured up to a cap. A host
 * name that does not resolve is not retried (docs/design/decisions.md#where-the-rules-are-silent):
 * a retry a second later asks the same resolver, and a typo in a registry URL should fail at once.
 */
export interface RetryTiming {
  /** Delay before the first retry; doubled for each later one. */
  baseDelayMs: number;
  /** No wait is longer than this, whatever Retry-After asks for. */
  maxDelayMs: number;
}

/** True for the statuses N3 retries: every 5xx and 429 Too Many Requests. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/** The resolver's answers for a host it cannot resolve (getaddrinfo: no such host, or no answer). */
const DNS_FAILURES: ReadonlySet<string> = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_FAIL',
]);

/**
 * OpenSSL's verdicts on a server's certificate chain, as Node reports them: the same certificate
 * comes back at every attempt.
 */
const CERTIFICATE_FAILURES: ReadonlySet<string> = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** True for a certificate the TLS handshake did not trust (CERTIFICATE_FAILURES). */
export function isCertificateFailure(code: string | undefined): boolean {
  return code !== undefined && CERTIFICATE_FAILURES.has(code);
}

/**
 * True for a transport failure (by its errno code) that N3 retries: all but DNS failures and
 * certificates the handshake did not trust.
 */
export function isRetryableFailure(code: string | undefined): boolean {
  return code === undefined || !(DNS_FAILURES.has(code) || CERTIFICATE_FAILURES.has(code));
}

/**
 * Milliseconds to wait before retry number `retry` (1 for the first retry). A parseable
 * Retry-After (delta-seconds or an HTTP date, relative to `nowMs`) wins over the backoff; both are
 * capped at `maxDelayMs`.
 */
export function retryDelayMs(
  retry: number,
  retryAfter: string | undefined,
  timing: RetryTiming,
  nowMs: number,
): number {
  const asked = retryAfter === undefined ? null : parseRetryAfterMs(retryAfter, nowMs);
  const backoff = timing.baseDelayMs * 2 ** Math.max(0, retry - 1);
  return Math.max(0, Math.min(asked ?? backoff, timing.maxDelayMs));
}

/** Retry-After as milliseconds from `nowMs`, or null when it is neither delta-seconds nor a date. */
export function parseRetryAfterMs(value: string, nowMs: number): number | null {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}
