/**
 * engine.md F2 through `hookpm wire claude`: a guard with `if: "Bash(git push*)"` runs, and
 * denies, for the command a shell -c or eval runs, and for a quoted or path-named `git`; hookpm
 * fails closed, so no spelling of the same command skips it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { claudeBashPayload } from '../helpers/claude-payload.js';

const ws = useBinWorkspace('e2e-wire-if-shell-string');

async function wireBash(command: string) {
  const payload = claudeBashPayload(ws, `s${ws.n}`, command);
  return ws.hookpm(['wire', 'claude'], { stdin: payload });
}

describe('hookpm wire claude: a Bash if rule reads shell strings (engine.md F2)', () => {
  it('F2: a guard on Bash(git push*) denies bash -c \'git push\', eval, "git" push and /usr/bin/git push', async () => {
    const hooks = {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'command', if: 'Bash(git push*)', command: 'echo no push >&2; exit 2' }],
        },
      ],
    };
    const root = await writeClaudePlugin(join(ws.dir, 'guard'), 'guard', hooks);
    const install = await ws.hookpm(['install', root, '--yes']);
    expect(install.code, install.stderr).toBe(0);
    for (const command of [
      "bash -c 'git push origin'",
      'sh -c "cd /tmp && git push"',
      "eval 'git push'",
      '"git" push',
      '/usr/bin/git push',
    ]) {
      const run = await wireBash(command);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout).hookSpecificOutput, command).toMatchObject({
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no push',
      });
    }
    const other = await wireBash("bash -c 'git status'");
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toBe('');
  });
});
