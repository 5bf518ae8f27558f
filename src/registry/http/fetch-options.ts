import type { ProxySettings } from './proxy-policy.js';
import type { UrlPurpose } from './url-policy.js';

/** N1 response caps. */
export const INDEX_MAX_BYTES = 8 * 1024 * 1024;
export const TARBALL_MAX_BYTES = 64 * 1024 * 1024;
/** The overall deadline of one index fetch (`deadlineMs`'s default for purpose `index`). */
export const INDEX_DEADLINE_MS = 60_000;

export interface FetchOptions {
  purpose: UrlPurpose;
  maxBytes: number;
  /** Overall deadline for the whole fetch, retries and redirects included (default 60 s, tarballs 300 s). */
  deadlineMs?: number;
  connectTimeoutMs?: number;
  /** Also the longest silence allowed between two body chunks. */
  headersTimeoutMs?: number;
  /** N4: sent as If-None-Match; a 304 answer is returned as `{ status: 304 }` (file: URLs ignore it). */
  etag?: string;
  /** Send `accept-encoding: gzip` and decode a gzip answer; caps apply to the decoded bytes. */
  acceptGzip?: boolean;
  /** Retries after a 5xx, a 429, a dropped connection or a truncated body (default 2). */
  retries?: number;
  retryBaseDelayMs?: number;
  /** Cap on every wait, Retry-After included (default 10 s). */
  maxRetryDelayMs?: number;
  /** Extra request headers (e.g. authorization); never printed. */
  headers?: Readonly<Record<string, string>>;
  /**
   * The Authorization header for one request URL (asked at every redirect hop and retry; K5), or
   * undefined for none; never printed. Credentials in the URL itself win.
   */
  authorize?: (url: URL) => string | undefined;
  /**
   * The proxies to go through (N13; npm's configuration for npm sources); by default the ones
   * HTTPS_PROXY, HTTP_PROXY and NO_PROXY name (proxySettingsFromEnv).
   */
  proxy?: ProxySettings;
  onProgress?: (received: number, total: number | null) => void;
  /** SRI with a sha512 entry; the body is verified while streaming (`E_INTEGRITY`). */
  integrity?: string;
  /** The size the index entry declares; a body that passes it is cut off (`E_INTEGRITY`). */
  declaredSize?: number;
}

/**
 * A fetched body, or 304; `url` is the URL the body was read from, after any redirect (without
 * credentials): relative references in the body resolve against it (RFC 3986 section 5.1.3).
 */
export type FetchResult =
  { status: 200; body: Buffer; etag: string | null; url?: string } | { status: 304 };
export type FetchFileOptions = Omit<FetchOptions, 'maxBytes' | 'etag'> & { maxBytes?: number };
