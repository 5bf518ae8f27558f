import { describe, expect, it } from 'vitest';
import { compileGlob, globMatches } from '../../src/hooks/glob.js';

function matches(pattern: string, input: string): boolean {
  return globMatches(compileGlob(pattern), input);
}

describe('if-rule globs (engine.md F2)', () => {
  it.each([
    ['git *', 'git status', true],
    ['git *', 'git', false],
    ['git *', 'xgit status', false],
    ['src/**', 'src/a/b/c.ts', true],
    ['src/*', 'src/a/b/c.ts', true],
    ['src/**', 'lib/src/a.ts', false],
    ['*.ts', 'a/b.ts', true],
    ['*.ts', 'a/b.tsx', false],
    ['?.md', 'a.md', true],
    ['?.md', 'ab.md', false],
    ['*', '', true],
    ['', '', true],
    ['a*b*c', 'a-b-b-c', true],
    ['a*b*c', 'a-b-b-d', false],
    [
      'curl*localhost:2773/secretsmanager/get*',
      'curl -s http://localhost:2773/secretsmanager/get?x=1',
      true,
    ],
    ['npm run test:*', 'npm run test', true],
    ['npm run test:*', 'npm run test -- --watch', true],
    ['npm run test:*', 'npm run build', false],
    ['git commit:*', 'git commit -m "x"', true],
    ['a:*b', 'a:xyzb', true],
    ['é?', 'éx', true],
    // An input is read by code point: a lone high surrogate of the pattern is not the first half
    // of a pair in the input, whether a `*` alone, more, or nothing follows it.
    ['\uD83D*', '\uD83D\uDE00', false],
    ['\uD83D*x', '\uD83D\uDE00x', false],
    ['\uD83D', '\uD83D', true],
    ['😀*', '😀 x', true],
    ['😀?', '😀😀', true],
  ])('F2: %j against %j is %s', (pattern, input, expected) => {
    expect(matches(pattern, input)).toBe(expected);
  });

  it('F2: the whole input must match: a pattern without * is an exact comparison', () => {
    expect(matches('ls', 'ls')).toBe(true);
    expect(matches('ls', 'ls -la')).toBe(false);
  });

  it('F2: matching is never exponential (many stars on a long non-matching input)', () => {
    const started = performance.now();
    expect(matches('*a*a*a*a*a*a*a*a*b', 'a'.repeat(5000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(200);
  });
});
