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
  if (url.username !== '' || url.password !== '') {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }
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
