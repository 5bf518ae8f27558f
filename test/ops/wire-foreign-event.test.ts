import { describe, expect, it } from 'vitest';
import type { AgentId } from '../../src/agents/agent.js';
import { answerWireEvent } from '../../src/ops/wire/answer-event.js';
import { resolveStorePaths } from '../../src/store/paths.js';

// engine.md B10: `hookpm wire <agent>` given another agent's blocking event (a link copied by hand
// into the other agent's settings). Answered before the store is read, so no store is made: a
// store that cannot exist shows that nothing reaches it.

const store = resolveStorePaths({ HOOKPM_HOME: '/nonexistent/hookpm-home' });

function wire(agent: AgentId, event: string, fields: Record<string, unknown> = {}) {
  const payload = { session_id: 's', cwd: '/', hook_event_name: event, ...fields };
  return answerWireEvent({
    agent,
    stdin: JSON.stringify(payload),
    store,
    env: {},
    cwd: '/',
    home: '/',
  });
}

describe("engine.md B10: another agent's blocking event fails closed", () => {
  it("B10: Claude Code's link in Gemini CLI's settings: BeforeTool is exit 2, the reason naming the mismatch and `hookpm link gemini`", async () => {
    const answer = await wire('claude', 'BeforeTool', {
      tool_name: 'run_shell_command',
      tool_input: { command: 'rm -rf /' },
    });
    expect(answer.exitCode).toBe(2);
    expect(answer.stdout).toBe('');
    expect(answer.stderr).toBe(
      "hookpm fails closed: `hookpm wire claude` got BeforeTool, an event of Gemini CLI and not of Claude Code: this is Claude Code's link in Gemini CLI's settings, where it would guard nothing; run `hookpm link gemini` and remove the copied entry\n",
    );
    for (const [agent, event] of [
      ['codex', 'BeforeAgent'],
      ['deepagents', 'AfterAgent'],
    ] as const) {
      const other = await wire(agent, event, { prompt: 'hi' });
      expect(other.exitCode, event).toBe(2);
      expect(other.stderr).toContain('`hookpm link gemini`');
    }
  });

  it("B10: Gemini CLI's link elsewhere: PreToolUse, PermissionRequest, UserPromptSubmit and Stop are exit 2 naming the agents whose event it is", async () => {
    for (const event of ['PreToolUse', 'PermissionRequest', 'UserPromptSubmit', 'Stop']) {
      const answer = await wire('gemini', event);
      expect(answer.exitCode, event).toBe(2);
      expect(answer.stderr).toBe(
        `hookpm fails closed: \`hookpm wire gemini\` got ${event}, an event of Claude Code, Deep Agents Code or Codex and not of Gemini CLI: this is Gemini CLI's link in that agent's settings, where it would guard nothing; run \`hookpm link claude\`, \`hookpm link deepagents\` or \`hookpm link codex\` (for the agent whose settings hold it) and remove the copied entry\n`,
      );
    }
  });

  it('B10, O3: a Stop already continued by a hook (stop_hook_active) is told with exit 1, never continued again', async () => {
    for (const [agent, event] of [
      ['gemini', 'Stop'],
      ['claude', 'AfterAgent'],
    ] as const) {
      const answer = await wire(agent, event, { stop_hook_active: true });
      expect(answer.exitCode, event).toBe(1);
      expect(answer.stderr).toMatch(/^hookpm fails closed: `hookpm wire \w+` got /);
    }
  });

  it("B10: an unknown name, the agent's own unlinked event, and another agent's event that cannot block pass with nothing", async () => {
    for (const [agent, event] of [
      ['claude', 'SomeFutureEvent'],
      ['gemini', 'SomeFutureEvent'],
      ['gemini', 'BeforeModel'],
      ['codex', 'Interrupt'],
      ['claude', 'PreCompress'],
      ['gemini', 'SubagentStop'],
      ['codex', 'Notification'],
    ] as const)
      expect(await wire(agent, event), `${agent} ${event}`).toEqual({
        exitCode: 0,
        stdout: '',
        stderr: '',
      });
  });
});
