/**
 * The `Authorization: Basic` value for a URL's own user and password (registry.md N5, K6), or
 * undefined when it has neither. Both are percent-decoded as the URL standard decodes them: a `%`
 * not followed by two hex digits stays as written (a password such as `50%off`), so no URL, a
 * registry's document or a marketplace entry among them, can make the decoding throw.
 */
export function basicAuthOf(url: URL): string | undefined {
  if (url.username === '' && url.password === '') return undefined;
  const pair = `${percentDecode(url.username)}:${percentDecode(url.password)}`;
  return `Basic ${Buffer.from(pair).toString('base64')}`;
}

/** WHATWG URL "percent-decode", then UTF-8 (invalid sequences become U+FFFD). */
export function percentDecode(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i += 1) {
    const hex = bytes.toString('latin1', i + 1, i + 3);
    if (bytes[i] === 0x25 && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      out.push(Number.parseInt(hex, 16));
      i += 2;
    } else out.push(bytes[i] as number);
  }
  return Buffer.from(out).toString('utf8');
}
