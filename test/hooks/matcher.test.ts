import { describe, expect, it } from 'vitest';
import { compileMatcher, matcherAccepts } from '../../src/hooks/matcher.js';
import type { CompiledMatcher } from '../../src/hooks/matcher.js';
import type { EventName } from '../../src/hooks/events.js';

function compiled(matcher: string | null, event: EventName = 'PreToolUse'): CompiledMatcher {
  const result = compileMatcher(matcher, event);
  if (!result.ok) throw new Error(`expected ${String(matcher)} to compile: ${result.message}`);
  return result.matcher;
}

function accepts(matcher: string | null, tool: string, event: EventName = 'PreToolUse'): boolean {
  return matcherAccepts(compiled(matcher, event), event, { tool_name: tool });
}

describe('matchers (engine.md E1-E6)', () => {
  it.each([null, '', '*'])('E1: the matcher %j matches everything', (matcher) => {
    expect(compiled(matcher)).toEqual({ kind: 'all' });
    expect(accepts(matcher, 'Anything')).toBe(true);
  });

  it.each([
    '.*',
    '^.*$',
    '.*?',
    '(.*)',
    '^(.*)$',
    '(?:.*)',
    '^.*',
    '.*$',
    '((.*))',
    '[\\s\\S]*',
    '^[^]*$',
  ])('E1: the match-everything regular expression %j is a wildcard, on every event', (matcher) => {
    expect(compiled(matcher)).toEqual({ kind: 'all' });
    for (const event of ['Stop', 'UserPromptSubmit'] as const)
      expect(compileMatcher(matcher, event)).toEqual({ ok: true, matcher: { kind: 'all' } });
    expect(matcherAccepts(compiled(matcher), 'PreToolUse', {})).toBe(true);
  });

  it.each(['.+', '^.*x$', '.*\\$', '(.*)|x', '(?=.*)', '(.)*', '.**', '(.*))', 'a*'])(
    'E1: %j is not a match-everything spelling, so it stays a regular expression',
    (matcher) => {
      const result = compileMatcher(matcher, 'PreToolUse');
      expect(result.ok && result.matcher.kind === 'all').toBe(false);
    },
  );

  it('E2: a matcher of word characters, spaces, commas, dashes and bars is an exact set, trimmed', () => {
    expect(compiled(' Edit | Write,MultiEdit ,, ')).toEqual({
      kind: 'exact',
      names: ['Edit', 'Write', 'MultiEdit'],
    });
    expect(compiled('startup|resume', 'SessionStart')).toEqual({
      kind: 'exact',
      names: ['startup', 'resume'],
    });
    expect(compiled('my-tool')).toEqual({ kind: 'exact', names: ['my-tool'] });
  });

  it('E2: an exact matcher never matches a substring, a superstring or another case', () => {
    expect(accepts('Write', 'Write')).toBe(true);
    expect(accepts('Write', 'WriteFile')).toBe(false);
    expect(accepts('Write', 'Writ')).toBe(false);
    expect(accepts('Write', 'write')).toBe(false);
    expect(accepts('Edit|Write', 'Edit')).toBe(true);
    expect(accepts('Edit|Write', 'NotebookEdit')).toBe(false);
  });

  it('E2: a matcher that names no value (only separators) is invalid_matcher', () => {
    const result = compileMatcher(' | , ', 'PreToolUse');
    expect(result).toMatchObject({ ok: false, code: 'invalid_matcher' });
  });

  it('E3: any other matcher is a regular expression tested unanchored', () => {
    expect(compiled('mcp__.*')).toMatchObject({ kind: 'regex', source: 'mcp__.*' });
    expect(accepts('mcp__.*', 'mcp__github__create_issue')).toBe(true);
    expect(accepts('mcp__.*', 'x_mcp__y')).toBe(true);
    expect(accepts('^Bash$', 'Bash')).toBe(true);
    expect(accepts('^Bash$', 'BashOutput')).toBe(false);
    expect(accepts('.env|.envrc', 'x.envrc')).toBe(true);
  });

  it('E3: the real corpus matchers compile and match what their authors meant', () => {
    expect(
      accepts('use_aws|mcp__aws.*|mcp__plugin_.*aws-mcp.*', 'mcp__plugin_x_aws-mcp__call'),
    ).toBe(true);
    expect(
      accepts('^(codex-advisor:)?codex-advisor$', 'codex-advisor:codex-advisor', 'SubagentStart'),
    ).toBe(false);
    const agent = { agent_type: 'codex-advisor:codex-advisor' };
    expect(
      matcherAccepts(
        compiled('^(codex-advisor:)?codex-advisor$', 'SubagentStart'),
        'SubagentStart',
        agent,
      ),
    ).toBe(true);
    expect(accepts('Read|NotebookRead|Bash|Grep|mcp__.*', 'Grep')).toBe(true);
    expect(accepts('^Bash$|^mcp__.+__(read|view|cat)(_file|_files)?$', 'mcp__fs__read_file')).toBe(
      true,
    );
  });

  it('E4: a matcher that does not compile is invalid_matcher, with the reason', () => {
    const result = compileMatcher('(unclosed', 'PreToolUse');
    expect(result).toMatchObject({ ok: false, code: 'invalid_matcher' });
    expect(!result.ok && result.message).toContain('"(unclosed" is not a valid regular expression');
    expect(compileMatcher('Bash|*', 'PreToolUse')).toMatchObject({
      ok: false,
      code: 'invalid_matcher',
    });
  });

  it('E4: a regular expression that can backtrack catastrophically is unsafe_matcher', () => {
    expect(compileMatcher('(a+)+$', 'PreToolUse')).toMatchObject({
      ok: false,
      code: 'unsafe_matcher',
    });
  });

  it('E4: a regular expression longer than 512 characters is unsafe_matcher; 512 is allowed', () => {
    const at = `^(${'x'.repeat(509)})`;
    expect(at).toHaveLength(512);
    expect(compileMatcher(at, 'PreToolUse').ok).toBe(true);
    const over = `${at}.`;
    expect(compileMatcher(over, 'PreToolUse')).toMatchObject({ ok: false, code: 'unsafe_matcher' });
  });

  it('E5: on an event without a matcher field, a non-wildcard matcher is unsupported_matcher', () => {
    for (const event of ['Stop', 'UserPromptSubmit'] as const) {
      expect(compileMatcher('Bash', event)).toMatchObject({
        ok: false,
        code: 'unsupported_matcher',
      });
      expect(compileMatcher('mcp__.*', event)).toMatchObject({
        ok: false,
        code: 'unsupported_matcher',
      });
      expect(compileMatcher('.*', event)).toEqual({ ok: true, matcher: { kind: 'all' } });
      expect(compileMatcher('*', event)).toEqual({ ok: true, matcher: { kind: 'all' } });
      expect(compileMatcher(null, event)).toEqual({ ok: true, matcher: { kind: 'all' } });
    }
  });

  it('E6: when the payload lacks the matcher field (or it is not a string), only match-all groups match', () => {
    for (const payload of [{}, { tool_name: 5 }, { tool_name: null }]) {
      expect(matcherAccepts(compiled('*'), 'PreToolUse', payload)).toBe(true);
      expect(matcherAccepts(compiled('Bash'), 'PreToolUse', payload)).toBe(false);
      expect(matcherAccepts(compiled('mcp__.*'), 'PreToolUse', payload)).toBe(false);
      expect(matcherAccepts(compiled('.*'), 'PreToolUse', payload)).toBe(true); // E1
    }
  });

  it('section 1: each event is matched against its own matcher field', () => {
    const cases: Array<[EventName, Record<string, unknown>]> = [
      ['SessionStart', { source: 'resume' }],
      ['SessionEnd', { reason: 'resume' }],
      ['Notification', { notification_type: 'resume' }],
      ['PreCompact', { trigger: 'resume' }],
      ['SubagentStop', { agent_type: 'resume' }],
    ];
    for (const [event, payload] of cases) {
      const matcher = compiled('resume', event);
      expect(matcherAccepts(matcher, event, payload)).toBe(true);
      expect(matcherAccepts(matcher, event, { tool_name: 'resume' })).toBe(false);
    }
  });

  it("cli.md W4: the agent's aliases of the value are accepted as the value is, by exact and regex matchers", () => {
    const patch = { tool_name: 'apply_patch' };
    for (const matcher of ['Edit', 'Write', 'Edit|Write', '^(Edit|MultiEdit)$', 'apply_patch'])
      expect(matcherAccepts(compiled(matcher), 'PreToolUse', patch, ['Write', 'Edit'])).toBe(true);
    expect(matcherAccepts(compiled('Bash'), 'PreToolUse', patch, ['Write', 'Edit'])).toBe(false);
    expect(matcherAccepts(compiled('Edit'), 'PreToolUse', patch)).toBe(false);
    expect(matcherAccepts(compiled('Edit'), 'PreToolUse', {}, ['Edit'])).toBe(false);
  });

  it('E3: a compiled regex keeps no state between tests (no global flag)', () => {
    const matcher = compiled('Ba.h');
    expect(
      [1, 2, 3].map(() => matcherAccepts(matcher, 'PreToolUse', { tool_name: 'Bash' })),
    ).toEqual([true, true, true]);
  });
});
