import { describe, expect, it } from 'vitest';
import {
  isRetryableFailure,
  isRetryableStatus,
  parseRetryAfterMs,
  retryDelayMs,
} from '../../src/registry/http/retry-policy.js';

const timing = { baseDelayMs: 100, maxDelayMs: 1000 };
const now = Date.parse('2026-11-30T00:00:00Z');

describe('retry policy', () => {
  it.each([
    [500, true],
    [503, true],
    [429, true],
    [404, false],
    [403, false],
    [200, false],
  ])('N3: status %i is retried: %s', (status, retried) => {
    expect(isRetryableStatus(status)).toBe(retried);
  });

  it.each([
    [1, undefined, 100],
    [2, undefined, 200],
    [3, undefined, 400],
    [5, undefined, 1000],
    [1, '0', 0],
    [1, '2', 1000],
    [1, 'Sun, 30 Nov 2026 00:00:00 GMT', 0],
    [1, 'soon', 100],
  ])('N3: retry %i with Retry-After %j waits %i ms (backoff, capped)', (retry, after, ms) => {
    expect(retryDelayMs(retry, after, timing, now)).toBe(ms);
  });

  it('N3: Retry-After as an HTTP date counts from now', () => {
    expect(parseRetryAfterMs('Sun, 30 Nov 2026 00:00:05 GMT', now)).toBe(5000);
  });
});

describe('isRetryableFailure', () => {
  it.each([
    ['ECONNRESET', true],
    ['ECONNREFUSED', true],
    ['UND_ERR_SOCKET', true],
    [undefined, true],
    ['ENOTFOUND', false],
    ['EAI_AGAIN', false],
  ])('N3: a transport failure %s is retried: %s', (code, retried) => {
    expect(isRetryableFailure(code)).toBe(retried);
  });
});
