import { basicAuthOf } from './basic-auth.js';

/** What the request headers depend on. */
export interface HeaderOptions {
  /** Extra headers (e.g. authorization); never printed. */
  headers?: Readonly<Record<string, string>>;
  /** N4: sent as If-None-Match. */
  etag?: string;
  /** Ask for a gzip body (registry documents); tarballs are gzip already and are asked identity. */
  acceptGzip?: boolean;
}

/** Credentials in the URL travel as an Authorization header, never in the request line or output (N5). */
export function requestHeaders(url: URL, opts: HeaderOptions): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': 'hookpm',
    'accept-encoding': opts.acceptGzip === true ? 'gzip' : 'identity',
    ...opts.headers,
  };
  const basic = basicAuthOf(url);
  if (basic !== undefined) headers.authorization = basic;
  if (opts.etag !== undefined) headers['if-none-match'] = opts.etag;
  return headers;
}

/** The URL without user and password, for the request line. */
export function stripCredentials(url: URL): URL {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy;
}

/**
 * The headers of one request to `url`: `base`, plus `authorize(url)` as the Authorization header
 * when `base` has none (credentials in the URL win). Asked per request, so a redirect hop gets only
 * what is configured for its own URL (K5).
 */
export function withAuthorization(
  base: Readonly<Record<string, string>>,
  url: URL,
  authorize: ((url: URL) => string | undefined) | undefined,
): Record<string, string> {
  if (authorize === undefined || base.authorization !== undefined) return { ...base };
  const value = authorize(url);
  return value === undefined ? { ...base } : { ...base, authorization: value };
}
