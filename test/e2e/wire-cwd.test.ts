import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { FORCE_PUSH, GUARD, GUARD_REASON } from '../helpers/linked-agent.js';
import { useBubblewrap } from '../helpers/bubblewrap.js';

// docs/reference/rules/cli.md#w2: a payload whose `cwd` cannot be used (absent, not a
// string, not absolute, gone, a file) runs its handlers in the project root the session was pinned
// for (else where the agent started hookpm, else the home), says why (`cwd_unusable`, on stderr and
// in the decision log), and guards still decide.

// guard declares capabilities: its handlers run under bubblewrap.
useBubblewrap();

const ws = useBinWorkspace('e2e-wire-cwd');

async function ok(args: string[]): Promise<string> {
  const run = await ws.hookpm(args);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

/** A plugin that tells, as context, the directory its PreToolUse handler ran in. */
async function wherePlugin(): Promise<string> {
  const context = `printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"ran in %s"}}' "$(pwd)"`;
  return writeClaudePlugin(join(ws.dir, `plugins${ws.n}`, 'where'), 'where', {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: context }] }],
  });
}

function payload(session: string | null, event: string, fields: Record<string, unknown>) {
  return JSON.stringify({
    ...(session === null ? {} : { session_id: session }),
    transcript_path: join(ws.home, 't.jsonl'),
    hook_event_name: event,
    ...fields,
  });
}
const forcePush = (session: string | null, cwd: Record<string, unknown>) =>
  payload(session, 'PreToolUse', {
    ...cwd,
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command: FORCE_PUSH },
    tool_use_id: 'toolu_1',
  });

async function wire(body: string, cwd = ws.repo) {
  const run = await ws.hookpm(['wire', 'claude', '--deadline', '600'], { stdin: body, cwd });
  expect(run.code, run.stderr).toBe(0);
  const out = run.stdout === '' ? {} : (JSON.parse(run.stdout) as Record<string, any>);
  return { out, stderr: run.stderr };
}

describe('a payload cwd hookpm cannot use (cli.md W2)', () => {
  it('W2: absent, not a string, relative, gone, a file: the guard still denies, and handlers run in the project root the session was pinned for, with cwd_unusable on stderr', async () => {
    await ok(['install', GUARD, '--yes']);
    await ok(['install', await wherePlugin(), '--yes']);
    const sub = join(ws.repo, 'src', 'deep');
    await mkdir(sub, { recursive: true });
    await writeFile(join(ws.repo, 'a-file'), 'x');
    // The session starts in a subdirectory of the repository: its project root is the repository.
    await wire(payload('s1', 'SessionStart', { cwd: sub, source: 'startup' }));
    const odd: Array<[Record<string, unknown>, string]> = [
      [{}, 'the payload has no cwd'],
      [{ cwd: 42 }, "the payload's cwd is 42, not a path"],
      [{ cwd: 'src' }, "the payload's cwd is not an absolute path"],
      [{ cwd: join(ws.repo, 'gone') }, "the payload's cwd does not exist"],
      [{ cwd: join(ws.repo, 'a-file') }, "the payload's cwd is not a directory"],
    ];
    for (const [cwd, why] of odd) {
      // hookpm is started elsewhere than the project, so the pinned root is what decides.
      const { out, stderr } = await wire(forcePush('s1', cwd), ws.home);
      expect(out.hookSpecificOutput.permissionDecision, why).toBe('deny');
      expect(out.hookSpecificOutput.permissionDecisionReason).toMatch(GUARD_REASON);
      expect(out.hookSpecificOutput.additionalContext).toBe(`ran in ${ws.repo}`);
      expect(stderr).toContain(
        `cwd_unusable: ${why}; handlers run in ${ws.repo}, the project root this session was pinned for`,
      );
    }
  });

  it('W2: a cwd removed mid-session (the first event after it) still gets the deny, and the decision log says why', async () => {
    await ok(['install', GUARD, '--yes']);
    const work = join(ws.repo, 'worktree');
    await mkdir(work);
    await wire(payload('s2', 'SessionStart', { cwd: ws.repo, source: 'startup' }));
    await rm(work, { recursive: true });
    const { out } = await wire(forcePush('s2', { cwd: work }));
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    const log = JSON.parse(await ok(['log', '--json'])) as {
      entries: Array<{ notes?: Array<{ code: string; message: string }> }>;
    };
    expect(log.entries.at(-1)?.notes).toEqual([
      {
        code: 'cwd_unusable',
        message: `the payload's cwd does not exist; handlers run in ${ws.repo}, the project root this session was pinned for`,
      },
    ]);
    expect(await ok(['log'])).toContain('cwd_unusable: the payload');
  });

  it('W2: `reload --session` keeps the project root the session was pinned for', async () => {
    await ok(['install', await wherePlugin(), '--yes']);
    await wire(payload('s3', 'SessionStart', { cwd: ws.repo, source: 'startup' }));
    await ok(['reload', '--session', 's3']);
    const { out } = await wire(forcePush('s3', {}), ws.home);
    expect(out.hookSpecificOutput.additionalContext).toBe(`ran in ${ws.repo}`);
  });

  it('W2: with no session to fall back on, handlers run where the agent started hookpm', async () => {
    await ok(['install', GUARD, '--yes']);
    await ok(['install', await wherePlugin(), '--yes']);
    const agentDir = join(ws.home, 'agent-cwd');
    await mkdir(agentDir);
    const { out, stderr } = await wire(forcePush(null, { cwd: '/no/such/dir' }), agentDir);
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(out.hookSpecificOutput.additionalContext).toBe(`ran in ${agentDir}`);
    expect(stderr).toContain(`handlers run in ${agentDir}, where the agent started hookpm`);
  });

  // engine.md F2 with W2: an `if` path rule reads a relative path from where the handlers run.
  it('F2: a relative file path of a payload without a usable cwd is read from the pinned root', async () => {
    const deny = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"secret"}}'`;
    const rule = `Edit(/${ws.repo}/secret/**)`;
    const secret = await writeClaudePlugin(join(ws.dir, `plugins${ws.n}`, 'secret'), 'secret', {
      PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: deny, if: rule }] }],
    });
    await ok(['install', secret, '--yes']);
    await wire(payload('s3', 'SessionStart', { cwd: ws.repo, source: 'startup' }));
    const edit = (cwd: Record<string, unknown>) =>
      payload('s3', 'PreToolUse', {
        ...cwd,
        permission_mode: 'default',
        tool_name: 'Edit',
        tool_input: { file_path: 'secret/key', old_string: 'a', new_string: 'b' },
        tool_use_id: 'toolu_2',
      });
    for (const cwd of [{}, { cwd: 'src' }, { cwd: join(ws.repo, 'gone') }]) {
      const { out } = await wire(edit(cwd), ws.home);
      expect(out.hookSpecificOutput?.permissionDecision, JSON.stringify(cwd)).toBe('deny');
    }
    expect((await wire(edit({ cwd: ws.home }), ws.home)).out.hookSpecificOutput).toBeUndefined();
  });
});
