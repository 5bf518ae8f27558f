import { HookpmError } from '../../errors.js';
import { stripCredentials } from './request-headers.js';
import { checkUrl, redactUrl } from './url-policy.js';
import type { UrlPurpose } from './url-policy.js';

/** N2: redirects followed at most. */
export const MAX_REDIRECTS = 3;

/** N2: same origin only (so never https to http), at most MAX_REDIRECTS hops. */
export function checkRedirect(
  first: URL,
  from: URL,
  location: string | undefined,
  hops: number,
  purpose: UrlPurpose,
): URL {
  const shown = redactUrl(from.href);
  if (location === undefined) throw redirectError(shown, 'a redirect without a Location header');
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw redirectError(shown, `an invalid Location "${redactUrl(location)}"`);
  }
  if (hops > MAX_REDIRECTS) throw redirectError(shown, `more than ${MAX_REDIRECTS} redirects`);
  if (target.origin !== first.origin) {
    throw redirectError(shown, `a redirect to another origin (${redactUrl(target.href)})`);
  }
  checkUrl(target.href, purpose);
  return stripCredentials(target);
}

function redirectError(url: string, what: string): HookpmError {
  return new HookpmError('E_REDIRECT', `refusing to follow ${what} from ${url}`, {
    url,
    hint: `Registries may redirect only within their own origin, at most ${MAX_REDIRECTS} times.`,
  });
}
