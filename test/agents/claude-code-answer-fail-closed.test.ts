import { describe, expect, it } from 'vitest';
import { answerClaudeCodeEvent } from '../../src/agents/claude-code-answer.js';
import { CLAUDE_CODE_EVENT_NAMES, type ClaudeCodeEventName } from '../../src/hooks/events.js';
import { blocksOnFailure, type FailClosed } from '../../src/hooks/fail-closed-entry.js';
import { makeHandler, makeRun } from '../engine/helpers.js';

// docs/reference/rules/engine.md#fail-closed for Claude Code's own events (plugins.md G2), on the
// answer `hookpm wire claude` gives: in-memory runs and entries, no process.

const TAMPERED: FailClosed = { plugin: 'guard@local', events: null, reason: 'guard is tampered' };
const OPEN: FailClosed = { ...TAMPERED, open: true };

/** A run of a plugin handler on `event` that exited `code`, writing `stdout` and `stderr`. */
function run(event: ClaudeCodeEventName, code: number, out: { stdout?: string; stderr?: string }) {
  const handler = makeHandler('PreToolUse', 0, { event, id: `${event}:0:0`, plugin: 'b@local' });
  return makeRun(handler, { exitCode: code, ...out });
}

const answer = (
  event: ClaudeCodeEventName,
  runs: ReturnType<typeof run>[],
  failClosed: FailClosed[],
) => answerClaudeCodeEvent(event, runs, { snapshotId: 's', failClosed }).answer;

describe("fail closed on Claude Code's own events (engine.md B2, B6; plugins.md G2)", () => {
  it('B2: the events that fail closed with exit 2 are those where exit 2 blocks, TeammateIdle aside (its exit 2 would loop a teammate)', () => {
    expect(CLAUDE_CODE_EVENT_NAMES.filter(blocksOnFailure)).toEqual([
      'PostToolBatch',
      'UserPromptExpansion',
      'PreModelSwitch',
      'TaskCreated',
      'TaskCompleted',
      'Elicitation',
      'ElicitationResult',
      'ConfigChange',
      'PreSkillShellCommand',
    ]);
  });

  it("B2: on PreSkillShellCommand an entry is exit 2 whose stderr is its reason, then any blocking handler's", () => {
    expect(answer('PreSkillShellCommand', [], [TAMPERED])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'guard is tampered\n',
    });
    const blocked = run('PreSkillShellCommand', 2, { stderr: 'no\n' });
    expect(answer('PreSkillShellCommand', [blocked], [TAMPERED]).stderr).toBe(
      'guard is tampered\nno\n',
    );
  });

  it("B2, B6: an entry that fails open, or one on an event where exit 2 does not block, is a systemMessage before the handlers' own, and a failed_closed diagnostic", () => {
    const said = run('PostModelSwitch', 0, { stdout: '{"systemMessage":"switched"}' });
    expect(answer('PostModelSwitch', [said], [TAMPERED])).toEqual({
      exitCode: 0,
      stdout: '{"systemMessage":"guard is tampered\\nswitched"}\n',
      stderr: 'hookpm: error failed_closed: guard is tampered\n',
    });
    const open = answer('PreSkillShellCommand', [], [OPEN]);
    expect(open).toEqual({
      exitCode: 0,
      stdout: '{"systemMessage":"guard is tampered"}\n',
      stderr: 'hookpm: warning failed_closed: guard is tampered\n',
    });
  });

  it("B2: WorktreeCreate's plain path is kept as it is; the entry is told by its diagnostic alone", () => {
    const path = run('WorktreeCreate', 0, { stdout: '/tmp/wt\n' });
    expect(answer('WorktreeCreate', [path], [TAMPERED])).toEqual({
      exitCode: 0,
      stdout: '/tmp/wt\n',
      stderr: 'hookpm: error failed_closed: guard is tampered\n',
    });
  });

  // engine.md X9: a handler that declares onFailure "block" and fails is a block, on Claude Code's
  // own events too (Claude Code blocks on it itself), in configuration order with exit 2 blocks.
  it('X9: on PreSkillShellCommand a failed onFailure "block" handler beside an allow is exit 2 naming hookpm, the handler and its plugin', () => {
    const handler = makeHandler('PreToolUse', 0, {
      event: 'PreSkillShellCommand',
      id: 'PreSkillShellCommand:0:0',
      plugin: 'b@local',
      onFailure: 'block',
    });
    const allow = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreSkillShellCommand', permissionDecision: 'allow' },
    });
    const allowed = run('PreSkillShellCommand', 0, { stdout: allow });
    const timedOut = makeRun(handler, { exitCode: null, timedOut: true });
    const exited = makeRun(handler, { exitCode: 1, stderr: 'boom\n' });
    for (const failed of [timedOut, exited]) {
      const got = answer('PreSkillShellCommand', [failed, allowed], []);
      expect(got.exitCode).toBe(2);
      expect(got.stdout).toBe('');
      expect(got.stderr).toMatch(
        /^hookpm: handler PreSkillShellCommand:0:0 of plugin b@local failed \(.*\) and declares onFailure "block"\n$/,
      );
    }
    const { onFailure: _, ...continues } = handler;
    const plain = makeRun(continues, { exitCode: null, timedOut: true });
    expect(answer('PreSkillShellCommand', [plain, allowed], []).exitCode).toBe(0);
  });
});
