import { HookpmError, isHookpmError, redact } from '../../errors.js';
import { redactUrl } from './url-policy.js';
import { clip } from '../../text/clip.js';
import { isCertificateFailure, isRetryableFailure } from './retry-policy.js';

/** `E_REGISTRY_NETWORK` for a failed fetch of the shown (redacted) URL. */
export function networkError(url: string, reason: string, status?: number): HookpmError {
  return new HookpmError('E_REGISTRY_NETWORK', `could not fetch ${url}: ${reason}`, {
    url,
    ...(status === undefined ? {} : { status }),
    hint: 'Check the network and the registry location, then try again.',
  });
}

/**
 * The HookpmError for a fetch that failed with `error`: ours pass through; the overall deadline
 * and undici's connect, headers and body timeouts are `E_REGISTRY_TIMEOUT` (N1); any other
 * transport failure is `E_REGISTRY_NETWORK`.
 */
export function toFetchError(
  error: unknown,
  url: string,
  deadline: { ms: number; hit: boolean },
): HookpmError {
  if (isHookpmError(error)) return error;
  const hint = 'The registry is too slow or unreachable; try again later.';
  if (deadline.hit) {
    return new HookpmError(
      'E_REGISTRY_TIMEOUT',
      `fetching ${url} did not finish within the deadline of ${deadline.ms} ms`,
      { url, limit: deadline.ms, hint },
    );
  }
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.includes('TIMEOUT')) {
    return new HookpmError(
      'E_REGISTRY_TIMEOUT',
      `fetching ${url} timed out (${failureWords(error)})`,
      {
        url,
        hint,
      },
    );
  }
  if (code === 'Z_DATA_ERROR') {
    return new HookpmError(
      'E_REGISTRY_NETWORK',
      `could not fetch ${url}: the registry's gzip-compressed answer does not decode (${failureWords(error)})`,
      {
        url,
        hint: 'The registry, or a proxy in front of it, sends damaged compressed bytes: ask its operator; trying again gets the same bytes.',
      },
    );
  }
  if (typeof code === 'string' && isCertificateFailure(code)) {
    return new HookpmError('E_REGISTRY_NETWORK', `could not fetch ${url}: ${failureWords(error)}`, {
      url,
      hint: "The registry's TLS certificate is not trusted. hookpm trusts Node's certificate authorities and the PEM file NODE_EXTRA_CA_CERTS names (point it at your CA's certificate); .npmrc's cafile, ca and strict-ssl are not read.",
    });
  }
  if (typeof code === 'string' && !isRetryableFailure(code)) {
    return new HookpmError('E_REGISTRY_NETWORK', `could not fetch ${url}: ${failureWords(error)}`, {
      url,
      hint: 'The host name does not resolve: check the spelling of the registry location and your DNS or network, then try again.',
    });
  }
  return networkError(url, failureWords(error));
}

/**
 * `E_REGISTRY_NETWORK` for an answer in a Content-Encoding the request did not accept (N11: it
 * asks for gzip); not retried, as the same coding would come again. The coding is quoted cut.
 */
export function unaskedEncoding(url: string, encoding: string): HookpmError {
  return new HookpmError(
    'E_REGISTRY_NETWORK',
    `could not fetch ${url}: the registry answered in Content-Encoding ${JSON.stringify(clip(encoding, 40))}, which hookpm did not ask for (it accepts gzip or none)`,
    {
      url,
      hint: 'The registry, or a proxy in front of it, ignores Accept-Encoding: ask its operator to serve gzip or uncompressed bytes.',
    },
  );
}

/**
 * describeFailure cut to 200 characters, as a message quotes it: a resolver's message names the
 * host, which a registry location may make any length.
 */
export function failureWords(error: unknown): string {
  return clip(describeFailure(error));
}

/** A URL in prose: no space, quote or angle bracket, and no punctuation that ends a sentence. */
const URL_IN_TEXT = /[a-z][a-z0-9+.-]{0,31}:\/\/[^\s"'<>`]*[^\s"'<>`.,;:!?)\]]/gi;

/**
 * The transport failure in words, with any URL in it redacted (N5): its user part as redact hides
 * it in prose (a space in a password included), then each URL word as redactUrl shows it.
 */
export function describeFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const text =
    typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
  return redact(text).replace(URL_IN_TEXT, (url) => redactUrl(url));
}

/**
 * `E_REGISTRY_NETWORK` for a 401 or 403 answer (K5): the registry wants credentials, or refused
 * the ones sent. Never retried; the credentials themselves are never named.
 */
export function refusedAccess(url: string, status: number, sentCredentials: boolean): HookpmError {
  const what = status === 401 ? '401 Unauthorized' : '403 Forbidden';
  return new HookpmError(
    'E_REGISTRY_NETWORK',
    `the registry answered ${what} for ${url}${sentCredentials ? ' (credentials were sent and refused)' : ' (no credentials were sent)'}`,
    {
      url,
      status,
      hint: sentCredentials
        ? 'The token or password configured for this host is wrong, expired or lacks access to this package.'
        : 'This registry needs credentials: for npm, set `//<host>/:_authToken=...` in ~/.npmrc or the project .npmrc; for an index, put them in the URL.',
    },
  );
}

const PROXY_HINT =
  'Check that the proxy is running and reachable (HTTPS_PROXY, HTTP_PROXY, or .npmrc https-proxy ' +
  'and proxy for npm), or name this host in NO_PROXY to go direct.';

/**
 * The error of a fetch of `url` (shown) whose failing request went through `proxy` (shown,
 * redacted), registry.md N13: a CONNECT the proxy answered other than 200 is `E_REGISTRY_NETWORK`
 * naming the proxy and its status (407: its credentials are missing or refused; not retried);
 * any other network failure or timeout (no HTTP answer of the registry's) says it went through
 * the proxy (with a hint about the proxy, but for an untrusted certificate, whose N3 hint is kept);
 * other errors pass as they are. `cause` is what the fetch failed with, `error` what
 * toFetchError made of it.
 */
export function throughProxy(
  error: HookpmError,
  cause: unknown,
  url: string,
  proxy: string,
): HookpmError {
  const status = /Proxy response \((\d+)\) !== 200/.exec(describeFailure(cause))?.[1];
  if (status !== undefined) {
    const words = status === '407' ? '407 Proxy Authentication Required' : status;
    return new HookpmError(
      'E_REGISTRY_NETWORK',
      `could not fetch ${url}: the proxy ${proxy} answered ${words}`,
      {
        url,
        proxy,
        status: Number(status),
        hint:
          status === '407'
            ? 'The proxy wants credentials: write them in its URL ' +
              '(user:password@ before its host, percent-encoded), or check the ones there.'
            : PROXY_HINT,
      },
    );
  }
  if (error.code !== 'E_REGISTRY_NETWORK' && error.code !== 'E_REGISTRY_TIMEOUT') return error;
  if ('status' in error.details) return error; // the registry's own answer, through the tunnel
  // The registry's certificate is checked through the tunnel: N3's hint is the one that helps.
  const code = (cause as { code?: unknown }).code;
  const certificate = typeof code === 'string' && isCertificateFailure(code);
  return new HookpmError(error.code, `${error.message} (through the proxy ${proxy})`, {
    ...error.details,
    proxy,
    hint: certificate ? error.hint : PROXY_HINT,
  });
}
