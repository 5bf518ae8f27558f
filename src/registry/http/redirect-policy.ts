import { HookpmError } from '../../errors.js';
import { stripCredentials } from './request-headers.js';
import { checkUrl, shownUrl } from './url-policy.js';
import type { UrlPurpose } from './url-policy.js';

/** N2: redirects followed at most. */
export const MAX_REDIRECTS = 3;

/** What a fetch's redirects may do (N2). */
export interface RedirectPolicy {
  purpose: UrlPurpose;
  /**
   * The body's sha512 is known before the request (a tarball an index or packument describes):
   * its bytes are verified whoever serves them, so it may be redirected to another origin (a CDN,
   * as GitHub Packages does), with none of the first origin's credentials (http.ts).
   */
  verified: boolean;
}

/**
 * N2: at most MAX_REDIRECTS hops, never from https to http, never to a `file:` URL; within the
 * first URL's origin, or, for a `verified` body, to another https origin (or a loopback http one
 * from http). Returns the target without user and password.
 */
export function checkRedirect(
  first: URL,
  from: URL,
  location: string | undefined,
  hops: number,
  policy: RedirectPolicy,
): URL {
  const shown = shownUrl(from.href);
  if (location === undefined) throw redirectError(shown, 'a redirect without a Location header');
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw redirectError(shown, `an invalid Location "${shownUrl(location)}"`);
  }
  if (hops > MAX_REDIRECTS) throw redirectError(shown, `more than ${MAX_REDIRECTS} redirects`);
  if (target.origin !== first.origin) {
    const elsewhere = `a redirect to another origin (${shownUrl(target.href)})`;
    if (!policy.verified) throw redirectError(shown, elsewhere);
    if (target.protocol === 'http:' && from.protocol === 'https:')
      throw redirectError(shown, `a redirect from https to http (${shownUrl(target.href)})`);
    if (target.protocol !== 'https:' && target.protocol !== 'http:')
      throw redirectError(shown, elsewhere);
  }
  checkUrl(target.href, policy.purpose);
  return stripCredentials(target);
}

function redirectError(url: string, what: string): HookpmError {
  return new HookpmError('E_REDIRECT', `refusing to follow ${what} from ${url}`, {
    url,
    hint: `A registry may redirect within its own origin, at most ${MAX_REDIRECTS} times; a tarball whose sha512 the index records may also go to another https origin.`,
  });
}
