import { compileGlob, globMatches } from './glob.js';
import type { Glob } from './glob.js';

/**
 * `WebFetch(domain:<host>)` rules (engine.md F2), as in Claude Code's permission rules: the pattern
 * names the fetched URL's host, not the URL. Hosts are compared in their URL form (lower case,
 * IDN as punycode, no trailing dot, no port or userinfo); the host may be a glob
 * (`domain:*.example.com`), and a rule also holds for the host's subdomains, so a guard on a
 * domain is never skipped for a host under it. A URL that does not parse cannot be judged, and
 * holds; so does one whose host is longer than a DNS name can be (MAX_HOST), which is not read.
 */
const PREFIX = 'domain:';

/** The host glob of a `domain:<host>` pattern, or null for any other pattern. */
export function compileDomain(pattern: string): Glob | null {
  if (!pattern.startsWith(PREFIX)) return null;
  return compileGlob(hostForm(pattern.slice(PREFIX.length).trim()));
}

export function urlOnDomain(domain: Glob, url: string): boolean {
  if (!URL.canParse(url)) return true;
  const host = hostForm(new URL(url).hostname);
  if (host === '' || host.length > MAX_HOST) return true;
  const labels = host.split('.');
  return labels.some((_, i) => globMatches(domain, labels.slice(i).join('.')));
}

/** The longest DNS name, in characters (RFC 1035): each suffix of a host is matched. */
const MAX_HOST = 253;

function hostForm(host: string): string {
  const parsed = URL.canParse(`http://${host}/`) ? new URL(`http://${host}/`).hostname : host;
  return parsed.toLowerCase().replace(/\.+$/, '');
}
