import { describe, expect, it } from 'vitest';
import { CLAUDE } from '../../src/agents/claude.js';
import { DEEPAGENTS, DEEPAGENTS_ANSWER_BYTES } from '../../src/agents/deepagents.js';
import { CUT_MARK } from '../../src/agents/fit-answer.js';
import type { DispatchResult } from '../../src/engine/types.js';
import {
  expectPermissionRequestDeny,
  expectPreToolUseDecision,
  permissionRequest,
  result,
} from '../helpers/wire-output.js';

// `hookpm wire claude`: a reduced result reaches the agent as the plugin's own handler output would
// (Claude Code's hook output format: code.claude.com/docs/en/hooks, "JSON output"; the same
// format Deep Agents Code reads, ../shared/seeds/hooks-reference.txt).

const out = (r: DispatchResult, agent = CLAUDE) => {
  const answer = agent.encode(r);
  expect(answer.exitCode).toBe(0);
  return answer.stdout === '' ? null : (JSON.parse(answer.stdout) as Record<string, unknown>);
};

describe('the Claude Code wire output', () => {
  it('nothing decided: no output at all, exit 0', () => {
    expect(CLAUDE.encode(result('PreToolUse'))).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it.each(['deny', 'ask', 'allow'] as const)(
    'M5: a PreToolUse %s is a permissionDecision with its reason',
    (decision) => expectPreToolUseDecision(out, decision),
  );

  it('a PermissionRequest deny carries message and interrupt; an allow only its behavior', () => {
    expectPermissionRequestDeny(out);
    expect(out(permissionRequest('allow', null, false))).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
  });

  it('M1/M2: continue:false with its stop reason; M3: system messages joined', () => {
    expect(
      out(
        result('PostToolUse', {
          continue: false,
          stopReason: 'stop',
          systemMessages: ['a', 'b'],
        }),
      ),
    ).toEqual({
      continue: false,
      stopReason: 'stop',
      systemMessage: 'a\nb',
    });
  });

  it("a handler that failed without blocking is a hook error told to the Claude Code user, after the plugins' own messages; Deep Agents Code gets it on stderr only", () => {
    const failed = result('SessionStart', {
      context: ['ctx'],
      systemMessages: ['own'],
      diagnostics: [
        {
          code: 'nonzero_exit',
          severity: 'warning',
          message: 'exit code 1: jq: not found\nmore',
          plugin: 'guard@acme',
          origin: 'plugin',
        },
        {
          code: 'timeout',
          severity: 'warning',
          message: 'timed out after 5s',
          plugin: 'slow@acme',
          origin: 'plugin',
        },
        {
          code: 'unsupported_block',
          severity: 'warning',
          message: 'SessionStart cannot be blocked; the block is ignored: no',
          origin: 'user',
        },
        {
          code: 'malformed_json',
          severity: 'warning',
          message: 'not JSON',
          plugin: 'guard@acme',
          origin: 'plugin',
        },
      ],
    });
    expect(out(failed)).toEqual({
      systemMessage: [
        'own',
        'hookpm: hook error (guard@acme): exit code 1: jq: not found',
        'hookpm: hook error (slow@acme): timed out after 5s',
        'hookpm: hook error (user hooks): SessionStart cannot be blocked; the block is ignored: no',
      ].join('\n'),
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ctx' },
    });
    // One line per diagnostic: the line break of a quoted stderr is escaped (cli.md conventions).
    expect(CLAUDE.encode(failed).stderr.split('\n')).toHaveLength(5);
    expect(CLAUDE.encode(failed).stderr).toContain('jq: not found\\nmore');
    expect(out(failed, DEEPAGENTS)).toEqual({
      systemMessage: 'own',
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ctx' },
    });
  });

  it('M4: context is additionalContext on the events that take it', () => {
    for (const event of [
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'SubagentStart',
    ] as const)
      expect(out(result(event, { context: ['one', 'two'] }))).toEqual({
        hookSpecificOutput: { hookEventName: event, additionalContext: 'one\ntwo' },
      });
  });

  it('O1: a Stop continuation is a block with the feedback as reason; none without continueLoop', () => {
    expect(out(result('Stop', { continueLoop: true, feedback: ['run the tests'] }))).toEqual({
      decision: 'block',
      reason: 'run the tests',
    });
    expect(out(result('Stop', { continueLoop: false, feedback: ['capped'] }))).toBeNull();
  });

  it('FEEDBACK: PostToolUse feedback is a block with the reason, which Claude Code gives the model', () => {
    expect(out(result('PostToolUse', { feedback: ['lint failed'] }))).toEqual({
      decision: 'block',
      reason: 'lint failed',
    });
  });

  it('a UserPromptSubmit or PreCompact stop is decision "block" for Claude Code, which erases the prompt (continue:false keeps it) or does not compact; continue:false for Deep Agents Code', () => {
    for (const event of ['UserPromptSubmit', 'PreCompact'] as const) {
      const stop = result(event, { continue: false, stopReason: 'not now' });
      expect(out(stop)).toEqual({ decision: 'block', reason: 'not now' });
      expect(out(stop, DEEPAGENTS)).toEqual({ continue: false, stopReason: 'not now' });
    }
  });

  it('SubagentStop context: a block for Claude Code, additionalContext for Deep Agents Code', () => {
    const r = result('SubagentStop', { context: ['keep going'] });
    expect(out(r)).toEqual({ decision: 'block', reason: 'keep going' });
    expect(out(r, DEEPAGENTS)).toEqual({
      hookSpecificOutput: { hookEventName: 'SubagentStop', additionalContext: 'keep going' },
    });
  });

  it('M6: suppressOriginalPrompt reaches Deep Agents Code, which has it, and not Claude Code', () => {
    const r = result('UserPromptSubmit', { suppressOriginalPrompt: true });
    expect(out(r)).toBeNull();
    expect(out(r, DEEPAGENTS)).toEqual({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', suppressOriginalPrompt: true },
    });
  });

  it('D13: an answer over the 100,000 bytes Deep Agents Code reads is cut, texts first, and its deny stays JSON it can read (hooks/runner.py MAX_HOOK_OUTPUT_BYTES)', () => {
    // A control character takes six bytes in JSON: twelve plugins' capped context is 600 KB.
    const long = '\u0001'.repeat(10_000);
    const r = result('PreToolUse', {
      permission: { decision: 'deny', reason: `no ${long}`, interrupt: false },
      context: Array<string>(12).fill(long),
      systemMessages: [long],
      terminalSequences: ['\x1b]0;title\x07'],
    });
    const answer = DEEPAGENTS.encode(r);
    expect(Buffer.byteLength(answer.stdout)).toBeLessThanOrEqual(DEEPAGENTS_ANSWER_BYTES);
    const parsed = JSON.parse(answer.stdout) as Record<string, any>;
    expect(parsed['terminalSequence']).toBeUndefined();
    expect(parsed['systemMessage']).toBe(CUT_MARK.trimStart());
    const specific = parsed['hookSpecificOutput'];
    expect(specific.permissionDecision).toBe('deny');
    expect(specific.permissionDecisionReason).toMatch(/^no \u0001+$/);
    expect(specific.additionalContext).toMatch(/^\u0001+ \[cut by hookpm/);
    expect(answer.stderr).toContain(
      'hookpm: warning output_capped: the answer was cut to the 100,000 bytes the agent reads of it (terminalSequence, systemMessage, hookSpecificOutput.additionalContext)',
    );
    // Claude Code's answer is not cut by this bound; a short answer is never cut.
    expect(CLAUDE.encode(r).stdout.length).toBeGreaterThan(DEEPAGENTS_ANSWER_BYTES);
    expect(out(result('PreToolUse', { context: ['short'] }), DEEPAGENTS)).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'short' },
    });
  });

  it('D13: the reasons themselves are cut last, to a prefix, when the texts before them are not enough', () => {
    const long = '\u0001'.repeat(10_000);
    const feedback = Array<string>(20).fill(long);
    const answer = DEEPAGENTS.encode(result('Stop', { continueLoop: true, feedback }));
    expect(Buffer.byteLength(answer.stdout)).toBeLessThanOrEqual(DEEPAGENTS_ANSWER_BYTES);
    const parsed = JSON.parse(answer.stdout) as Record<string, string>;
    expect(parsed['decision']).toBe('block');
    expect(parsed['reason']).toMatch(/^\u0001[\u0001\n]+ \[cut by hookpm/);
    expect(Buffer.byteLength(answer.stdout)).toBeGreaterThan(DEEPAGENTS_ANSWER_BYTES - 10);
  });

  it('warnings and errors go to stderr, one line each; info stays out', () => {
    const answer = CLAUDE.encode(
      result('Stop', {
        diagnostics: [
          { code: 'timeout', severity: 'warning', message: 'slow' },
          { code: 'legacy_migrated', severity: 'info', message: 'quiet' },
        ],
      }),
    );
    expect(answer.stderr).toBe('hookpm: warning timeout: slow\n');
  });

  it('decode: the payload is the input as it is; an event the engine does not have is not linked', () => {
    const payload = {
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      session_id: 's',
    };
    expect(CLAUDE.decode(payload)).toEqual({ event: 'PreToolUse', input: payload });
    expect(CLAUDE.decode({ hook_event_name: 'TeammateIdle' })).toBeNull();
    expect(CLAUDE.decode({})).toBeNull();
  });
});
