/**
 * The base of a document asked for at `url` and read from `read` (where a redirect led, without
 * credentials; undefined: `url` itself), which relative references in it resolve against (RFC 3986
 * section 5.1.3): `read` with the user and password of `url`, so what is fetched next carries them
 * as `url` did. A redirect stays within the origin (registry.md N2): a `read` of another origin,
 * or one that does not parse, is not used.
 */
export function baseOf(url: string, read: string | undefined): string {
  if (read === undefined || !sameOrigin(url, read)) return url;
  const asked = new URL(url);
  const base = new URL(read);
  base.username = asked.username;
  base.password = asked.password;
  return base.href;
}

/** `read` when it is another URL than `url` (a redirect led there), else undefined. */
export function redirectedTo(url: string, read: string | undefined): string | undefined {
  return read === undefined || read === url || baseOf(url, read) === url ? undefined : read;
}

/** Whether two URLs have one origin (false for one that does not parse). */
export function sameOrigin(a: string, b: string): boolean {
  return URL.canParse(a) && URL.canParse(b) && new URL(a).origin === new URL(b).origin;
}
