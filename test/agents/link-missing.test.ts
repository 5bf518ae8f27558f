import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  formatLinkCommand,
  parseLinkCommand,
  type LinkCommand,
} from '../../src/agents/link-command.js';

// engine.md B9: the command `hookpm link` writes answers for itself when the node or the hookpm it
// names is gone: it fails closed instead of the shell's exit 127, which every agent takes for a
// non-blocking error. Run by the shells agents run hooks with (dash as /bin/sh, and bash).

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'hookpm.js');
const GONE = '/nonexistent/hookpm-test/bin/node';
const SHELLS = ['/bin/sh', '/bin/bash'].filter((shell) => existsSync(shell));

function linkOf(extra: Partial<LinkCommand> = {}): LinkCommand {
  return { node: GONE, hookpm: BIN, agent: 'claude', home: null, deadline: 600, ...extra };
}

function run(command: string, payload: unknown, shell = '/bin/sh') {
  const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const child = spawnSync(shell, ['-c', command], { input, encoding: 'utf8', timeout: 10_000 });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

const event = (name: string, extra: Record<string, unknown> = {}) => ({
  session_id: 's',
  cwd: '/',
  hook_event_name: name,
  ...extra,
});

describe('engine.md B9: a link whose node or hookpm is gone fails closed', () => {
  it.each(SHELLS)('%s: a blocking event is exit 2 with the reason and the fix', (shell) => {
    const command = formatLinkCommand(linkOf());
    for (const name of ['PreToolUse', 'PermissionRequest', 'UserPromptSubmit']) {
      const answer = run(command, event(name, { tool_input: { command: 'rm -rf /' } }), shell);
      expect(answer.status, name).toBe(2);
      expect(answer.stdout).toBe('');
      expect(answer.stderr).toMatch(/^hookpm fails closed: the node or the hookpm that this link/);
      expect(answer.stderr).toContain('run `hookpm link claude`');
      expect(answer.stderr).not.toContain('not found');
    }
  });

  it('a Stop continues once, never while the agent already continues for a Stop hook', () => {
    const command = formatLinkCommand(linkOf());
    expect(run(command, event('Stop', { stop_hook_active: false })).status).toBe(2);
    expect(run(command, event('Stop', { stop_hook_active: true })).status).toBe(1);
    // Python's json.dumps writes `": "`, as Deep Agents Code may.
    const spaced = '{"hook_event_name": "Stop", "stop_hook_active": true}';
    expect(run(command, spaced).status).toBe(1);
  });

  it('a tool input naming stop_hook_active cannot open a PreToolUse', () => {
    const command = formatLinkCommand(linkOf());
    const forged = event('PreToolUse', {
      tool_input: { hook_event_name: 'Stop', stop_hook_active: true },
    });
    expect(run(command, forged).status).toBe(2);
  });

  it('any other event is exit 1, a non-blocking error the agent shows', () => {
    const command = formatLinkCommand(linkOf());
    for (const name of ['PostToolUse', 'SessionStart', 'SubagentStop', 'Notification']) {
      const answer = run(command, event(name));
      expect(answer.status, name).toBe(1);
      expect(answer.stderr).toContain('hookpm fails closed:');
    }
  });

  it("Gemini CLI's names: BeforeTool and BeforeAgent block, AfterAgent is its Stop", () => {
    const command = formatLinkCommand(linkOf({ agent: 'gemini' }));
    expect(run(command, event('BeforeTool')).status).toBe(2);
    expect(run(command, event('BeforeAgent')).status).toBe(2);
    expect(run(command, event('AfterAgent', { stop_hook_active: false })).status).toBe(2);
    expect(run(command, event('AfterAgent', { stop_hook_active: true })).status).toBe(1);
    expect(run(command, event('AfterTool')).status).toBe(1);
    expect(run(command, event('BeforeTool')).stderr).toContain('`hookpm link gemini`');
  });

  it('hookpm gone, its node still there: the same answer', () => {
    const command = formatLinkCommand(
      linkOf({ node: process.execPath, hookpm: '/nonexistent/hookpm.js' }),
    );
    expect(run(command, event('PreToolUse')).status).toBe(2);
  });

  it('G3: the background entry blocks nothing', () => {
    const command = formatLinkCommand(linkOf({ background: true }));
    const answer = run(command, event('PreToolUse'));
    expect(answer.status).toBe(1);
    expect(answer.stderr).toContain('hookpm fails closed:');
  });

  it('with both files there the command is the run itself, replaced by hookpm (exec)', () => {
    const command = formatLinkCommand(linkOf({ node: process.execPath }));
    // A payload that tells no event is reported by hookpm itself (B7), not by the shell's answer.
    const answer = run(command, '[]');
    expect(answer.status).toBe(1);
    expect(answer.stderr).not.toContain('the node or the hookpm that this link runs is gone');
    expect(answer.stderr).toContain('hookpm');
  });
});

describe('the link command is told from any other', () => {
  it('round trip, and the bare run an earlier hookpm wrote', () => {
    const link = linkOf({ node: "/it's/node", home: "/h o'me" });
    expect(parseLinkCommand(formatLinkCommand(link))).toEqual(link);
    const background = linkOf({ background: true, deadline: 30 });
    expect(parseLinkCommand(formatLinkCommand(background))).toEqual(background);
    expect(parseLinkCommand(`'${GONE}' '${BIN}' wire claude --deadline 600`)).toEqual({
      ...linkOf(),
      unchecked: true,
    });
  });

  it('a command that checks other files than it runs, or answers otherwise, is no link', () => {
    const command = formatLinkCommand(linkOf());
    expect(parseLinkCommand(command.replace(`[ -x '${GONE}' ]`, "[ -x '/bin/true' ]"))).toBeNull();
    expect(parseLinkCommand(command.replace('exit $e', 'exit 0'))).toBeNull();
    expect(parseLinkCommand(command.replace('e=2;;', 'e=0;;'))).toBeNull();
    expect(parseLinkCommand(`${command}; rm -rf /`)).toBeNull();
  });

  it('security.md: a command of a settings file from a cloned project, with `; ` 20,000 times in its paths, is read in one pass (a try per `; ` took 4 s)', () => {
    const path = `'${'; '.repeat(20_000)}'`;
    const hostile = `[ -x ${path} ] && [ -f '/h' ] && exec ${path} '/h' wire claude; case $(cat) in x`;
    const start = performance.now();
    expect(parseLinkCommand(hostile)).toBeNull();
    expect(performance.now() - start).toBeLessThan(500);
  });
});
