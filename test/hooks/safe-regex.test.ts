import { describe, expect, it } from 'vitest';
import { findLoopAmbiguity } from '../../src/hooks/regex/loop-ambiguity.js';
import { parseRegex } from '../../src/hooks/regex/regex-ast.js';
import { checkRegexSafety } from '../../src/hooks/regex/safe-regex.js';

/** Real matchers from the hooks documents of ../shared/corpus: none may be rejected. */
const CORPUS_SAFE = [
  'mcp__.*',
  'use_aws|mcp__aws.*|mcp__plugin_.*aws-mcp.*',
  'use_aws|mcp__aws.*|mcp__plugin_*aws-mcp*',
  '^(codex-advisor:)?codex-advisor$',
  'Write|Edit|MultiEdit|apply_patch|Slack__slack_(send|schedule|create_canvas|update_canvas)|Linear__save_|mcp__.*(?:slack_(?:send|schedule|create_canvas|update_canvas)|linear.*save_)',
  'Read|NotebookRead|Bash|Grep|mcp__.*',
  '.env|.envrc|package.json|tsconfig.json|Cargo.toml|go.mod|pyproject.toml',
  '.*',
  '^Bash$|^mcp__.+__(read|view|cat)(_file|_files)?$',
  '^claude-security:claude-security$',
  'tool == "Edit" || tool == "Write"',
  'tool == "Edit" && tool_input.file_path matches "\\.(ts|tsx|js|jsx|py|go|rs)$"',
];

/** Safe patterns, several of which look like the unsafe kind: they must be accepted (and run fast). */
const LOOKS_UNSAFE_BUT_SAFE = [
  '(ab+)+$',
  '(\\d+\\.)+\\d+$',
  '(github|gitlab)+$',
  '([^,]+,)+x$',
  '(?:a|b)+$',
  '[a-z]{2,}(-[a-z]+)*$',
  '^(\\w+-)*\\w+$',
  '(a+b)+c$',
  '(?:x{2})+$',
  '^(?:[A-Z][a-z]+)+$',
  '(foo|bar|baz)*$',
  '(\\s|,)+$',
  '^(?:mcp__[a-z]+__)+\\w+$',
  '(\\d{1,3}\\.){3}\\d{1,3}$',
  '(github|gitlab){2}$',
];

const OTHER_SAFE = [
  'Slack__slack_(send|schedule|create_canvas|update_canvas)',
  '(?:mcp__)?github__\\w+',
  '\\w+@\\w+\\.com',
  '^[a-z0-9_-]{3,16}$',
  'a{2,5}b',
  'a{,5}',
  '(?<name>ab)+\\k<name>',
  '(?=.*x)y',
  '\\bBash\\b',
  '[\\w.-]+@[\\w-]+',
  '[]]+x',
  '\\u0041+\\x42*',
  '[^]*z',
];

const UNSAFE = [
  '(a+)+',
  '(a+)+$',
  '(a*)*',
  '(a|a)*',
  '(a|a){30}',
  '(\\w+\\s?)+',
  '(.*a){9}',
  '(x+x+)+y',
  '(a{1,3})+',
  '(\\w|\\d)+',
  '((a)\\2)+',
  '(a)\\1*',
  '(a|)+',
  '(?:a?)+',
  '^(([a-z])+.)+[A-Z]([a-z])+$',
  '^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$',
  '(\\d+)*\\d',
  '(?=(a+)+)b',
  '(a+b?)+$',
  '([a-z]+\\s*)+$',
  '(\\s*\\w+\\s*)+',
  '(.*,)*$',
  '(?:[^x]|y)+$',
  '^(?:mcp__\\w+__)+\\w+$',
];

describe('catastrophic-backtracking check (engine.md E4)', () => {
  const safe = [...CORPUS_SAFE, ...LOOKS_UNSAFE_BUT_SAFE, ...OTHER_SAFE];

  it('E4: the table has at least 25 safe and 15 unsafe patterns, all valid regular expressions', () => {
    expect(safe.length).toBeGreaterThanOrEqual(25);
    expect(UNSAFE.length).toBeGreaterThanOrEqual(15);
    for (const source of [...safe, ...UNSAFE]) expect(() => new RegExp(source)).not.toThrow();
  });

  it.each(safe)('E4: %s is accepted', (source) => {
    expect(checkRegexSafety(source)).toEqual({ safe: true });
  });

  it.each(UNSAFE)('E4: %s is rejected with a reason naming the repeated part', (source) => {
    const result = checkRegexSafety(source);
    expect(result.safe).toBe(false);
    expect(!result.safe && result.reason).toMatch(/repeated|nested/);
  });

  const ADVERSARIAL = [
    `${'a'.repeat(30)}!`,
    `${'ab'.repeat(15)}!`,
    `${'1.'.repeat(15)}!`,
    `${'x'.repeat(30)}!`,
    `${'github'.repeat(5)}!`,
    `${'a,'.repeat(15)}!`,
    `${'Aa'.repeat(15)}1`,
    `${' a'.repeat(15)}!`,
    `${'mcp__a__'.repeat(4)}!`,
    `${'a-'.repeat(15)}!`,
    `${'foo'.repeat(10)}!`,
  ];

  it('E4: accepted patterns of the unsafe-looking kind run fast on 30-character adversarial inputs', () => {
    for (const source of [...LOOKS_UNSAFE_BUT_SAFE, ...CORPUS_SAFE]) {
      const regex = new RegExp(source);
      const started = performance.now();
      for (const input of ADVERSARIAL) regex.test(input);
      expect(performance.now() - started, source).toBeLessThan(50);
    }
  });

  it('E4: (a|ab)* is accepted: alternatives that start alike are unsafe only where its loop can read one text two ways', () => {
    expect(checkRegexSafety('(a|ab)*')).toEqual({ safe: true });
    expect(checkRegexSafety('(a|ab)*$')).toEqual({ safe: true });
    const regex = /(a|ab)*$/;
    const started = performance.now();
    for (const input of ADVERSARIAL) regex.test(input);
    expect(performance.now() - started).toBeLessThan(50);
  });

  // Expressions whose every repeating loop is `*` or `+` on one character, which the check accepts
  // without building the automaton: the automaton finds each of them unambiguous too.
  const ONE_CHARACTER_LOOPS = [
    'mcp__.*',
    '^mcp__github__.*$',
    'a*a*',
    '.*.*x',
    '(a)+(a)+$',
    '(?=a*)a+$',
    '(?:a*)?b',
    '[^/]+\\.ts$',
    '(?:x|y+)z*',
    '(?<=\\w+)\\s*$',
    '(a)?\\1.+',
    'a{0,}b{1,}c?',
  ];

  it.each(ONE_CHARACTER_LOOPS)(
    'E4: %s, whose loops each read one character, is accepted, as the general check would',
    (source) => {
      expect(checkRegexSafety(source)).toEqual({ safe: true });
      expect(findLoopAmbiguity(parseRegex(source))).toBe('unambiguous');
    },
  );

  it('E4: a loop of one character inside a repeated group is still checked in full', () => {
    for (const source of ['(?:a*)+', '(a+)+$', '(?:\\w+\\s?)+', '(?:a+){2}$'])
      expect(checkRegexSafety(source), source).toMatchObject({ safe: false });
  });

  it('E4: a source the analyser cannot read is rejected rather than trusted', () => {
    expect(checkRegexSafety('(')).toMatchObject({ safe: false });
  });
});
