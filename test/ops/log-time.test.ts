import { describe, expect, it } from 'vitest';
import { logTime } from '../../src/ops/steps/decision-log/log-time.js';

// The `time` of a decision log line is the dispatch's UTC time in ISO 8601.
describe('logTime (ops/steps/decision-log/log-time.ts)', () => {
  it('gives exactly what toISOString gives, across the years 0-9999', () => {
    const times = [
      0,
      Date.UTC(2026, 11, 2, 7, 5, 9, 7),
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(1969, 11, 31, 23, 59, 59, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      -62167219200000, // 0000-01-01T00:00:00.000Z
    ];
    for (let i = 0; i < 200; i += 1) times.push(Math.floor(Math.random() * 253402300799999));
    for (const ms of times) expect(logTime(ms)).toBe(new Date(ms).toISOString());
  });
});
