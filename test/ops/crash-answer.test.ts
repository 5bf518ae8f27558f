import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crashAnswer } from '../../src/ops/wire/crash-answer.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import { useTempDirs } from '../helpers/temp-dir.js';

// engine.md B7: the answer of `hookpm wire` when hookpm itself failed on an event it had read.
// Through the built binary with a damaged runner: test/e2e/wire-fail-closed.test.ts.

const tempDir = useTempDirs('hookpm-crash-answer-');
const CRASH = new Error('Unexpected identifier');
const claude = (event: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: 's', cwd: '/', hook_event_name: event, ...extra });

async function store() {
  return resolveStorePaths({ HOOKPM_HOME: join(await tempDir(), 'home') });
}

describe("crashAnswer (engine.md B7): a failure of hookpm's own fails closed", () => {
  it("B7, B2: Claude Code's own events: exit 2 with the reason where exit 2 blocks, a systemMessage elsewhere", async () => {
    const paths = await store();
    const blocked = crashAnswer('claude', claude('PreSkillShellCommand'), paths, CRASH)!;
    expect(blocked.exitCode).toBe(2);
    expect(blocked.stderr).toMatch(
      /^hookpm fails closed: hookpm itself failed while answering this event \(Unexpected identifier\)/,
    );
    const told = crashAnswer('claude', claude('PostModelSwitch'), paths, CRASH)!;
    expect(told.exitCode).toBe(0);
    expect(JSON.parse(told.stdout)).toEqual({
      systemMessage: expect.stringMatching(/^hookpm fails closed/),
    });
  });

  it('B7, B1: the shared events: a deny on PreToolUse, a UserPromptSubmit blocked (decision block for Claude Code, which erases the prompt), never a second continuation of a Stop', async () => {
    const paths = await store();
    const pre = crashAnswer(
      'claude',
      claude('PreToolUse', { tool_name: 'Bash', tool_input: {} }),
      paths,
      CRASH,
    )!;
    expect(JSON.parse(pre.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    const prompt = crashAnswer(
      'claude',
      claude('UserPromptSubmit', { prompt: 'hi' }),
      paths,
      CRASH,
    )!;
    expect(JSON.parse(prompt.stdout)).toMatchObject({ decision: 'block' });
    const again = crashAnswer('claude', claude('Stop', { stop_hook_active: true }), paths, CRASH)!;
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(again.stdout)).not.toHaveProperty('decision');
  });

  it('B6: settings.json `"failOpen": true` opens it: the call goes through with a systemMessage', async () => {
    const paths = await store();
    await mkdir(paths.config, { recursive: true });
    await writeFile(join(paths.config, 'settings.json'), JSON.stringify({ failOpen: true }));
    const open = crashAnswer(
      'claude',
      claude('PreToolUse', { tool_name: 'Bash', tool_input: {} }),
      paths,
      CRASH,
    )!;
    const out = JSON.parse(open.stdout);
    expect(out.hookSpecificOutput?.permissionDecision).toBeUndefined();
    expect(out.systemMessage).toMatch(/^hookpm fails closed: hookpm itself failed/);
  });

  it('B7: a payload that tells no event (not JSON, too long to read, not an object) has no answer here: the error is reported as before', async () => {
    const paths = await store();
    expect(crashAnswer('claude', 'not json', paths, CRASH)).toBeNull();
    expect(crashAnswer('claude', null, paths, CRASH)).toBeNull();
    expect(crashAnswer('claude', '[1]', paths, CRASH)).toBeNull();
  });
});
