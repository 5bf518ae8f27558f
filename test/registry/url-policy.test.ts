import { describe, expect, it } from 'vitest';
import { checkUrl, redactUrl, redactUserInfo } from '../../src/registry/http/url-policy.js';
import { redact } from '../../src/errors.js';
import { describeFailure } from '../../src/registry/http/fetch-errors.js';
import { outcomeOf } from '../helpers/failure.js';

/** 'ok' when `url` passes as a tarball URL, else the error code. */
const codeOf = (url: string): unknown =>
  outcomeOf(() => {
    checkUrl(url, 'tarball');
    return 'ok';
  });

describe('checkUrl', () => {
  it.each([
    ['https://registry.example.com/index.json', 'ok'],
    ['http://127.0.0.1:8080/index.json', 'ok'],
    ['http://127.1.2.3/index.json', 'ok'],
    ['http://localhost:3000/x.tgz', 'ok'],
    ['http://[::1]:3000/x.tgz', 'ok'],
    ['file:///srv/registry/index.json', 'ok'],
    ['http://registry.example.com/index.json', 'E_INSECURE_URL'],
    ['http://10.0.0.1/x.tgz', 'E_INSECURE_URL'],
    ['http://localhost.evil.com/x.tgz', 'E_INSECURE_URL'],
    ['http://128.0.0.1/x.tgz', 'E_INSECURE_URL'],
    ['javascript:alert(1)', 'E_REGISTRY_SCHEMA'],
    ['data:application/gzip;base64,AAAA', 'E_REGISTRY_SCHEMA'],
    ['ftp://registry.example.com/x.tgz', 'E_REGISTRY_SCHEMA'],
    ['file://fileserver/share/x.tgz', 'E_REGISTRY_SCHEMA'],
    ['file:///srv/a%2Fx.tgz', 'E_REGISTRY_SCHEMA'],
    ['not a url', 'E_REGISTRY_SCHEMA'],
  ])('security.md: %s is %s', (url, expected) => {
    expect(codeOf(url)).toBe(expected);
  });

  it('N5: the error for an insecure URL does not show its password', () => {
    try {
      checkUrl('http://user:hunter2@example.com/index.json', 'index');
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('hunter2');
    }
  });
});

describe('redactUrl', () => {
  it.each([
    ['https://alice:pw@example.com/i.json', 'https://***@example.com/i.json'],
    ['https://example.com/t.tgz?token=abc&v=2', 'https://example.com/t.tgz?token=***&v=2'],
    [
      'https://example.com/t.tgz?X-Amz-Signature=abc&X-Amz-Credential=k',
      'https://example.com/t.tgz?X-Amz-Signature=***&X-Amz-Credential=***',
    ],
    [
      'https://pkg-cdn.example/download/guard.tgz?jwt=eyJhbGciOi&expires=1',
      'https://pkg-cdn.example/download/guard.tgz?jwt=***&expires=1',
    ],
    ['https://example.com/plain?page=1', 'https://example.com/plain?page=1'],
    ['not a url with https://bob:pw@host/x', 'not a url with https://***@host/x'],
    // Not URLs (a port that is no number): a password holding "/" or "#" is still hidden whole.
    ['https://bob:pa/ss@127.0.0.1/', 'https://***@127.0.0.1/'],
    ['https://bob:pa#s/s@127.0.0.1/x.git', 'https://***@127.0.0.1/x.git'],
    ['"https://bob:p/w@h:1:2/" and https://h:x/y', '"https://***@h:1:2/" and https://h:x/y'],
    // A value is one URL: a space or a quote in its password ends no user part.
    ['https://bob:two words@[bad/', 'https://***@[bad/'],
    ["https://bob:it's@[bad/x.tgz", 'https://***@[bad/x.tgz'],
  ])('N5: %s is shown as %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });
});

describe('redactUserInfo', () => {
  it.each([
    ['not a url https://bob:pw@h/x and more', 'not a url https://***@h/x and more'],
    ['https://bob:two words@[bad', 'https://***@[bad'],
    ['http://bob:"x y"@h:1@[bad', 'http://***@[bad'],
    ['no scheme bob:pw@h', 'no scheme bob:pw@h'],
  ] as const)('N5: %j shows everything before its last @ as ***', (text, shown) => {
    expect(redactUserInfo(text)).toBe(shown);
  });
});

describe('redact', () => {
  it.each([
    ['Authorization: Bearer npm_SECRET123', 'Authorization: ***'],
    ['authorization=Basic YWxpY2U6cHc=', 'authorization=***'],
    ['"token": "ghp_SECRET"', '"token": "***"'],
    ['password=hunter2 and more', 'password=*** and more'],
    // A secret may hold ";", "<", ">" or ")": it is hidden whole; only a run of them that ends
    // the word (prose around it, "(token=abc)") is kept.
    ['password=se)cr;et<x>y and more', 'password=*** and more'],
    ['"token": "ab;cd"', '"token": "***"'],
    ['Authorization: Bearer ab<cd>ef', 'Authorization: ***'],
    ['(see token=abc), retry; <password=pw>', '(see token=***), retry; <password=***>'],
    ['fetch https://alice:pw@example.com/x failed', 'fetch https://***@example.com/x failed'],
    // The user part runs to the last "@" before the authority ends ("/", "?", "#", "\\" or a
    // line break): a space or a quote in a password ends nothing, as in a URL.
    [
      'hookpm.json: "https://u:pa ss@host/x..." is long',
      'hookpm.json: "https://***@host/x..." is long',
    ],
    ['at https://tok en:x "y"@host:8080?q', 'at https://***@host:8080?q'],
    ['http://a@b:c d@127.0.0.1/', 'http://***@127.0.0.1/'],
    // Past the authority an "@" is prose (a plugin id), not a user.
    ['https://r.example/i.json lists guard@team', 'https://r.example/i.json lists guard@team'],
    ['https://r.example\nguard@team', 'https://r.example\nguard@team'],
    // An "@" no host can follow is prose too: the user part ends at the one before it.
    [
      'spec "g@https://u:pa ss@h": run `add <name> <url>`, then name@<name>',
      'spec "g@https://***@h": run `add <name> <url>`, then name@<name>',
    ],
    // A user part starts right after "://": a scheme named in prose hides nothing after it.
    [
      'Give a file:// URL, an https:// git repository, or git@host:owner/repo.git.',
      'Give a file:// URL, an https:// git repository, or git@host:owner/repo.git.',
    ],
    ['an https:// URL or acme@1.2.3', 'an https:// URL or acme@1.2.3'],
  ])('N5: %j is shown as %j', (text, shown) => {
    expect(redact(text)).toBe(shown);
  });

  it.each([
    'https://bob:two words@r.example/',
    'https://bob:it\'s "x"@r.example:8443/i.json',
    'https://t k n@r.example',
  ])('N5: redact and redactUserInfo hide the same user part of %j', (url) => {
    expect(redact(url)).toBe(redactUserInfo(url));
    expect(redact(url)).toMatch(/^https:\/\/\*\*\*@r\.example/);
  });
});

describe('describeFailure', () => {
  // N5: a transport failure's words hide a user part as redact does, a space in it included.
  it.each([
    ['connect to https://u:pa ss@h.test/x failed', 'connect to https://***@h.test/x failed'],
    ['fetch https://h.test/x?token=abc failed', 'fetch https://h.test/x?token=*** failed'],
    // Quotes and punctuation around a URL stay as written, not percent-encoded into it.
    ['fetch "https://h.test/x", then', 'fetch "https://h.test/x", then'],
    ["fetch 'https://u:pw@h.test/x'.", "fetch 'https://***@h.test/x'."],
    ['(see https://h.test/x?token=abc), retry', '(see https://h.test/x?token=***), retry'],
    ['<https://h.test/x>', '<https://h.test/x>'],
  ])('N5: %j is described as %j', (message, shown) => {
    expect(describeFailure(new Error(message))).toBe(shown);
  });
});

describe('redaction of long text', () => {
  // A 100 KB word with no "://" once cost seconds per call (each position scanned to the end).
  const word = 'a'.repeat(100_000);
  it.each([
    ['redact', (text: string) => redact(text)],
    ['redactUrl', (text: string) => redactUrl(text)],
    ['describeFailure', (text: string) => describeFailure(new Error(text))],
  ])(
    'N5: %s of a 100 KB word finishes at once, still redacting a user after it',
    (_name, redacts) => {
      const text = `${word} ${word}x://alice:pw@example.com/`;
      expect(redacts(text)).toBe(`${word} ${word}x://***@example.com/`);
    },
    5_000,
  );

  // A user part may hold spaces: the longest scheme before a 100 KB authority with no "@", and
  // 25,000 schemes whose authorities each end at the next one, are still read in one pass.
  it.each([
    ['a long scheme before a 100 KB authority', `${'s'.repeat(32)}://${'a '.repeat(50_000)}`],
    ['25,000 schemes with no "@"', 'x://a '.repeat(25_000)],
    ['a 100 KB authority of "@"', `x://${'@'.repeat(100_000)}`],
    ['a token of 100 KB of ";" then a letter', `token=${';'.repeat(100_000)}a`],
  ])('N5: redact of %s finishes at once', (_what, text) => {
    const started = performance.now();
    redact(text);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
