import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { useBubblewrap } from '../helpers/bubblewrap.js';
import { claudeBashPayload } from '../helpers/claude-payload.js';

// A deny that does not fit under the 100,000-byte output limit (engine.md X7), and guard's answer
// on hostile commands, as Claude Code receives them from `hookpm wire claude`.

const GUARD = fileURLToPath(new URL('../../registry-fixtures/plugins/guard', import.meta.url));

// guard declares capabilities: its handlers run under bubblewrap.
useBubblewrap();

const ws = useBinWorkspace('e2e-wire-cut');

async function wire(body: string) {
  const run = await ws.hookpm(['wire', 'claude'], { stdin: body });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { hookSpecificOutput: Record<string, string> };
}

/** A handler that prints a PreToolUse deny whose reason is 300,000 characters long. */
const HUGE_DENY = `node -e "process.stdout.write(JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'too big: ' + 'x'.repeat(300000)}}))"`;

describe('hookpm wire claude: outputs cut at the limit, hostile commands', () => {
  it('X7: a deny cut at 100,000 bytes still reaches Claude Code as a deny, with the reason that arrived', async () => {
    const dir = await writeClaudePlugin(join(ws.dir, 'plugins', 'loud'), 'loud', {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: HUGE_DENY }] }],
    });
    const install = await ws.hookpm(['install', dir, '--yes']);
    expect(install.code, install.stderr).toBe(0);
    const out = await wire(claudeBashPayload(ws, 'cut-1', 'ls'));
    expect(out.hookSpecificOutput['permissionDecision']).toBe('deny');
    expect(out.hookSpecificOutput['permissionDecisionReason']).toMatch(/^too big: x+/);
  });

  it('X6, X7: guard denies 150 KB of text then `; rm -rf /`, and rm -rf of a 60 KB path, with a short reason', async () => {
    const install = await ws.hookpm(['install', GUARD, '--yes']);
    expect(install.code, install.stderr).toBe(0);
    for (const command of [
      `echo ${'a'.repeat(150_000)}; rm -rf /`,
      `rm -rf /${'a/'.repeat(30_000)}`,
    ]) {
      const out = await wire(claudeBashPayload(ws, 'cut-1', command));
      expect(out.hookSpecificOutput['permissionDecision']).toBe('deny');
      expect(out.hookSpecificOutput['permissionDecisionReason']).toMatch(/^guard: `rm -r /);
      expect(out.hookSpecificOutput['permissionDecisionReason']?.length).toBeLessThan(1_000);
    }
  });
});
