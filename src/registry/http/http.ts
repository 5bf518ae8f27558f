import { setTimeout as sleep } from 'node:timers/promises';
import { createGunzip } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { makeRoutes, type Routes } from './http-routes.js';
import { proxySettingsFromEnv } from './proxy-policy.js';
import { HookpmError, isHookpmError } from '../../errors.js';
import { bufferSink, readBody, tooLarge, TruncatedBodyError, wrongSize } from './body-reader.js';
import type { BodySink } from './body-reader.js';
import { fileSink } from './fetch-file-sink.js';
import { readFileUrl } from '../read-file-url.js';
import { parseIntegrity } from '../integrity.js';
import { isRetryableFailure, isRetryableStatus, retryDelayMs } from './retry-policy.js';
import { checkRedirect } from './redirect-policy.js';
import { requestHeaders, stripCredentials, withAuthorization } from './request-headers.js';
import { checkUrl, shownUrl } from './url-policy.js';
import {
  failureWords,
  networkError,
  refusedAccess,
  throughProxy,
  toFetchError,
  unaskedEncoding,
} from './fetch-errors.js';
import type { FetchFileOptions, FetchOptions, FetchResult } from './fetch-options.js';
import { INDEX_DEADLINE_MS, TARBALL_MAX_BYTES } from './fetch-options.js';

export { INDEX_MAX_BYTES, TARBALL_MAX_BYTES } from './fetch-options.js';
export type { FetchFileOptions, FetchOptions, FetchResult } from './fetch-options.js';
export { MAX_REDIRECTS } from './redirect-policy.js';

/**
 * Fetches `url` (https, loopback http or file) into memory under registry.md N1-N5, through the
 * proxy N13 names for it (`opts.proxy`, else the environment's). Errors:
 * `E_INSECURE_URL`/`E_REGISTRY_SCHEMA` before any request, `E_NOT_FOUND` (404 or 410, no retry),
 * `E_REDIRECT`, `E_REGISTRY_TIMEOUT`, `E_REGISTRY_TOO_LARGE`, `E_INTEGRITY`, `E_REGISTRY_NETWORK`
 * (after bounded retries). Messages carry the redacted URL only, cut to 200 characters.
 */
export async function fetchBytes(url: string, opts: FetchOptions): Promise<FetchResult> {
  const outcome = await fetchInto(url, opts, bufferSink);
  return outcome.status === 304
    ? outcome
    : { status: 200, body: outcome.value, etag: outcome.etag, url: outcome.url };
}

/**
 * Like `fetchBytes`, but streams the body to `file` (default cap 64 MiB): bytes go to a temporary
 * sibling that becomes `file` only after size and sha512 were verified.
 */
export async function fetchToFile(
  url: string,
  file: string,
  opts: FetchFileOptions,
): Promise<{ file: string; etag: string | null }> {
  const outcome = await fetchInto(
    url,
    { ...opts, maxBytes: opts.maxBytes ?? TARBALL_MAX_BYTES },
    () => fileSink(file),
  );
  if (outcome.status === 304)
    throw new Error('Assertion failed: 304 without a conditional request');
  return { file: outcome.value, etag: outcome.etag };
}

/** `url`: where the body was read from, after redirects, without credentials. */
type Outcome<T> = { status: 200; value: T; etag: string | null; url: string } | { status: 304 };

interface Context<T> {
  opts: FetchOptions;
  makeSink: () => BodySink<T>;
  /** The dispatcher of each request: direct, or through its proxy (N13). */
  routes: Routes;
  /** The proxy (shown) the latest request went through, for the error if it failed. */
  proxy: string | undefined;
  signal: AbortSignal;
  /** The first URL's origin, and the headers its requests carry (its credentials among them). */
  origin: string;
  headers: Record<string, string>;
}

async function fetchInto<T>(
  url: string,
  opts: FetchOptions,
  makeSink: () => BodySink<T>,
): Promise<Outcome<T>> {
  const start = checkUrl(url, opts.purpose);
  if (opts.integrity !== undefined) parseIntegrity(opts.integrity);
  const shown = shownUrl(url);
  if (start.protocol === 'file:') {
    const value = await readFileUrl(start, makeSink(), {
      url: shown,
      maxBytes: opts.maxBytes,
      integrity: opts.integrity,
      declaredSize: opts.declaredSize,
      onProgress: opts.onProgress,
    });
    return { status: 200, value, etag: null, url: start.href };
  }
  const deadlineMs = opts.deadlineMs ?? (opts.purpose === 'index' ? INDEX_DEADLINE_MS : 300_000);
  const headersTimeout = opts.headersTimeoutMs ?? 30_000;
  const routes = makeRoutes(opts.proxy ?? proxySettingsFromEnv(process.env), {
    connectMs: opts.connectTimeoutMs ?? 10_000,
    headersMs: headersTimeout,
  });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), deadlineMs);
  const ctx: Context<T> = {
    opts,
    makeSink,
    routes,
    proxy: undefined,
    signal: deadline.signal,
    origin: start.origin,
    headers: requestHeaders(start, opts),
  };
  try {
    return await followAndRetry(stripCredentials(start), ctx);
  } catch (error) {
    const failure = toFetchError(error, shown, { ms: deadlineMs, hit: deadline.signal.aborted });
    throw ctx.proxy === undefined ? failure : throughProxy(failure, error, shown, ctx.proxy);
  } finally {
    clearTimeout(timer);
    await routes.destroy();
  }
}

async function followAndRetry<T>(first: URL, ctx: Context<T>): Promise<Outcome<T>> {
  const retries = ctx.opts.retries ?? 2;
  const timing = {
    baseDelayMs: ctx.opts.retryBaseDelayMs ?? 500,
    maxDelayMs: ctx.opts.maxRetryDelayMs ?? 10_000,
  };
  let current = first;
  let hops = 0;
  let retry = 0;
  for (;;) {
    const step = await attemptOnce(current, ctx).catch((error: unknown) =>
      transientOrThrow(unwrapProxyTls(error)),
    );
    if (step.kind === 'done') return step.outcome;
    if (step.kind === 'redirect') {
      hops += 1;
      current = checkRedirect(first, current, step.location, hops, {
        purpose: ctx.opts.purpose,
        verified: ctx.opts.integrity !== undefined,
      });
      continue;
    }
    if (retry >= retries)
      throw networkError(shownUrl(current.href), `${step.reason} (after ${retry + 1} attempts)`);
    retry += 1;
    await sleep(retryDelayMs(retry, step.retryAfter, timing, Date.now()), undefined, {
      signal: ctx.signal,
    });
  }
}

type Step<T> =
  | { kind: 'done'; outcome: Outcome<T> }
  | { kind: 'redirect'; location: string | undefined }
  | { kind: 'retry'; reason: string; retryAfter?: string };

async function attemptOnce<T>(url: URL, ctx: Context<T>): Promise<Step<T>> {
  const { request } = await import('./http-client.js');
  const shown = shownUrl(url.href);
  const route = await ctx.routes.routeFor(url);
  ctx.proxy = route.proxy;
  // A body read slower than it arrives pauses undici's parser at its high-water mark, and undici 7
  // crashes the process (an uncatchable assertion) when the server then closes the connection, as
  // every HTTP/1.0 static file server does. Up to the cap the body is buffered instead: a response
  // over it is refused (readBody) and never kept.
  const highWaterMark = ctx.opts.maxBytes;
  const res = await untilAborted(
    ctx.signal,
    request(route.dispatcher, url, {
      method: 'GET',
      signal: ctx.signal,
      headers: withAuthorization(headersFor(url, ctx), url, ctx.opts.authorize),
      highWaterMark,
    }),
  );
  const status = res.statusCode;
  if ([301, 302, 303, 307, 308].includes(status)) {
    discard(res.body);
    return { kind: 'redirect', location: headerValue(res.headers, 'location') };
  }
  if (status === 304 && ctx.opts.etag !== undefined) {
    discard(res.body);
    return { kind: 'done', outcome: { status: 304 } };
  }
  if (isRetryableStatus(status)) {
    discard(res.body);
    return {
      kind: 'retry',
      reason: `HTTP ${status}`,
      retryAfter: headerValue(res.headers, 'retry-after'),
    };
  }
  if (status === 404 || status === 410) {
    discard(res.body);
    throw new HookpmError('E_NOT_FOUND', `the registry answered ${status} Not Found for ${shown}`, {
      url: shown,
      status,
    });
  }
  if (status === 401 || status === 403) {
    discard(res.body);
    throw refusedAccess(
      shown,
      status,
      'authorization' in headersFor(url, ctx) || ctx.opts.authorize?.(url) !== undefined,
    );
  }
  if (status !== 200) {
    discard(res.body);
    throw networkError(shown, `unexpected HTTP ${status}`, status);
  }
  const lengthHeader = headerValue(res.headers, 'content-length');
  const encoding = (headerValue(res.headers, 'content-encoding') ?? 'identity').toLowerCase();
  const gzip = ctx.opts.acceptGzip === true && (encoding === 'gzip' || encoding === 'x-gzip');
  // A request that asks for gzip takes gzip or identity only: any other coding (br, deflate, a
  // list) would reach the parser as bytes it cannot read, and be blamed on the document.
  if (ctx.opts.acceptGzip === true && !gzip && encoding !== 'identity') {
    discard(res.body);
    throw unaskedEncoding(shown, encoding);
  }
  // A gzip body's Content-Length counts encoded bytes: the caps apply to the decoded ones.
  const declaredLength =
    lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
  const expectedLength = gzip ? null : declaredLength;
  if (expectedLength !== null && expectedLength > ctx.opts.maxBytes) {
    discard(res.body);
    throw tooLarge(shown, ctx.opts.maxBytes, expectedLength);
  }
  const declaredSize = ctx.opts.declaredSize;
  if (expectedLength !== null && declaredSize !== undefined && expectedLength !== declaredSize) {
    discard(res.body);
    throw wrongSize(shown, declaredSize, expectedLength, 'exact');
  }
  const limits = {
    url: shown,
    maxBytes: ctx.opts.maxBytes,
    expectedLength,
    integrity: ctx.opts.integrity,
    declaredSize,
    onProgress: ctx.opts.onProgress,
  };
  const body = gzip ? res.body.pipe(createGunzip()) : res.body;
  if (gzip) res.body.on('error', (error) => body.destroy(error));
  const value = await readBody(body, ctx.makeSink(), limits);
  return {
    kind: 'done',
    outcome: { status: 200, value, etag: headerValue(res.headers, 'etag') ?? null, url: url.href },
  };
}

/**
 * The headers of a request to `url` before K5's match: the first URL's own, or, on another origin
 * (a verified tarball's redirect, N2), only hookpm's own: neither the first URL's user and
 * password nor the caller's extra headers go there.
 */
function headersFor<T>(url: URL, ctx: Context<T>): Record<string, string> {
  if (url.origin === ctx.origin) return ctx.headers;
  return requestHeaders(url, { acceptGzip: ctx.opts.acceptGzip === true });
}

/**
 * N3: dropped connections and truncated bodies are retried like a 5xx; timeouts, a host that does
 * not resolve, a gzip body that does not decode and our own verdicts are not.
 */
function transientOrThrow(error: unknown): Step<never> {
  if (isHookpmError(error)) throw error;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /TIMEOUT|ABORT/i.test(code)) throw error;
  if ((error as Error).name === 'AbortError') throw error;
  // A gzip body that does not decode comes the same way again (a cut one, Z_BUF_ERROR, may not).
  if (code === 'Z_DATA_ERROR') throw error;
  if (!isRetryableFailure(typeof code === 'string' ? code : undefined)) throw error;
  const reason =
    error instanceof TruncatedBodyError ? `truncated body: ${error.message}` : failureWords(error);
  return { kind: 'retry', reason };
}

/**
 * undici wraps an https proxy's certificate that names another host (ERR_TLS_CERT_ALTNAME_INVALID)
 * as UND_ERR_PRX_TLS, "Secure Proxy Connection failed": the certificate failure itself is what
 * N3 judges (never retried, its hint kept) and what the message names.
 */
function unwrapProxyTls(error: unknown): unknown {
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  return code === 'UND_ERR_PRX_TLS' && cause instanceof Error ? cause : error;
}

/**
 * `pending`, or a rejection as soon as `signal` aborts: undici starts a request's abort only once
 * it has a connection, and a proxy that accepts a connection but never answers its CONNECT would
 * hold the request past the deadline (N1, N13). The request itself ends when its dispatcher is
 * destroyed.
 */
function untilAborted<V>(signal: AbortSignal, pending: Promise<V>): Promise<V> {
  pending.catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<V>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Drops a body we will not read; the error undici raises for it has no listener otherwise. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
