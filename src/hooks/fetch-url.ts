import { compileGlob, globMatches } from './glob.js';
import type { Glob } from './glob.js';

/**
 * `WebFetch(<url glob>)` rules (engine.md F2): the glob is matched against the fetched URL, whose
 * scheme and host have no case (RFC 3986 section 6.2.2.1). Both sides are also read in their URL
 * form, as the WHATWG URL parser writes them (scheme and host in lower case, IDN as punycode, no
 * default port, no trailing dot of the host); the path, query and fragment keep their case. The
 * rule holds when the glob matches the URL as written or the URL form matches the URL form of
 * the glob, so a guard written for a host is never skipped for another spelling of it: a URL
 * naming a user or password before its host is also read without them, and an http(s) URL or
 * pattern ending at its host has the path `/` the parser gives it. Text that does not parse as a
 * URL only has its scheme and host put in lower case. Each form is one pass over the URL.
 */
export interface FetchUrlGlob {
  /** The pattern as written. */
  written: Glob;
  /** The pattern with its scheme and host in URL form. */
  urlForm: Glob;
}

/** `written`: the pattern's glob as the rule already has it (if-rule.ts). */
export function compileFetchUrl(pattern: string, written: Glob): FetchUrlGlob {
  return { written, urlForm: compileGlob(withHost(pattern, patternHost)) };
}

export function fetchUrlMatches(glob: FetchUrlGlob, url: string): boolean {
  if (globMatches(glob.written, url)) return true;
  return urlForms(url).some((form) => globMatches(glob.urlForm, form));
}

/**
 * The URL as the URL parser writes it, its host without a trailing dot, then (when it names a user
 * or password, which name no other host) the same without them; as written if it fails.
 */
function urlForms(url: string): string[] {
  if (!URL.canParse(url)) return [withHost(url, (_, host) => host.toLowerCase())];
  const parsed = new URL(url);
  const hostname = parsed.hostname.replace(/\.+$/, '');
  if (hostname !== parsed.hostname && hostname !== '') parsed.hostname = hostname;
  // A scheme other than http(s) keeps the case of its host (an opaque host) in the parser.
  const forms = [withHost(parsed.href, (_, host) => host.toLowerCase())];
  if (parsed.username === '' && parsed.password === '') return forms;
  parsed.username = '';
  parsed.password = '';
  return [...forms, withHost(parsed.href, (_, host) => host.toLowerCase())];
}

/**
 * The host (with its port) of an http(s) glob as the URL parser writes it when it parses (a `*`
 * is a character of a host to it), else in lower case: a `?` would end it, a `*` port fails.
 * What the parser reads after the host in `host` (after a `\`, which is a `/` to it, or a `#`)
 * follows it as the parser writes it; a pattern ending at its host (`atEnd`, the host not ending
 * in a `*`, which may stand for the path) has the path `/`, as the URL form of a URL does.
 */
function patternHost(scheme: string, host: string, atEnd: boolean): string {
  const lower = host.toLowerCase();
  if ((scheme !== 'http://' && scheme !== 'https://') || host.includes('?')) return lower;
  if (!URL.canParse(`${scheme}${host}`)) return lower;
  const parsed = new URL(`${scheme}${host}`);
  const hostname = parsed.hostname.replace(/\.+$/, '');
  const origin = parsed.port === '' ? hostname : `${hostname}:${parsed.port}`;
  const after = /[\\#]/.test(host) || (atEnd && !host.endsWith('*'));
  return after ? `${origin}${parsed.pathname}${parsed.hash}` : origin;
}

/**
 * `text` with its `scheme://` in lower case and the host part of its authority (up to the first
 * `/`, after the last `@`) as `host` writes it (`atEnd`: nothing follows the host part); text
 * without `scheme://` as is.
 */
function withHost(
  text: string,
  host: (scheme: string, host: string, atEnd: boolean) => string,
): string {
  const mark = text.indexOf('://');
  if (mark <= 0 || text.slice(0, mark).includes('/')) return text;
  const start = mark + 3;
  const slash = text.indexOf('/', start);
  const end = slash < 0 ? text.length : slash;
  const hostStart = text.lastIndexOf('@', end - 1) + 1;
  const scheme = text.slice(0, start).toLowerCase();
  const from = Math.max(hostStart, start);
  const userinfo = text.slice(start, from);
  const written = host(scheme, text.slice(from, end), slash < 0);
  return `${scheme}${userinfo}${written}${text.slice(end)}`;
}
