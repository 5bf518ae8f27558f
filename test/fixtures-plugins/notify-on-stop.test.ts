import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPluginFiles } from './plugin-files.js';
import { payload, runHook, useSandboxes } from './run-hook.js';
import type { HookSandbox } from './run-hook.js';

const sandbox = useSandboxes('notify-on-stop');

/** A fake notifier that records each argument on its own line, then exits with `code`. */
function recorder(box: HookSandbox, name: string, code = 0): string {
  const log = join(box.base, `${name}.args`);
  box.addTool(name, {
    script: `for a in "$@"; do printf '%s\\n' "$a" >> '${log}'; done; exit ${code}`,
  });
  return log;
}

function stop(box: HookSandbox, fields: Record<string, unknown>): Record<string, unknown> {
  return payload('Stop', box.project, { stop_hook_active: false, ...fields });
}

describe('notify-on-stop (example plugin)', () => {
  it('P2, C1: its manifest and hooks.json are valid, with one Stop handler and no matcher (E5)', () => {
    checkPluginFiles('notify-on-stop', ['Stop']);
  });

  it('sends a desktop notification with notify-send, and never blocks: no output, exit 0 (O1)', async () => {
    const box = sandbox();
    const args = recorder(box, 'notify-send');
    const run = await runHook(
      box,
      'Stop',
      stop(box, { last_assistant_message: 'Refactor done.\nAll tests pass.' }),
    );
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(args, 'utf8').split('\n')).toEqual([
      '--app-name=hookpm',
      '--',
      'Agent finished',
      'project: Refactor done. All tests pass.',
      '',
    ]);
    expect(existsSync(join(box.data, 'notifications.log'))).toBe(false);
  });

  it('passes the message to osascript as an argument, never inside the AppleScript source', async () => {
    const box = sandbox();
    const args = recorder(box, 'osascript');
    const hostile = '" & (do shell script "touch /tmp/pwned") & "';
    const run = await runHook(box, 'Stop', stop(box, { last_assistant_message: hostile }));
    expect(run.code).toBe(0);
    const lines = readFileSync(args, 'utf8').split('\n');
    expect(lines.slice(0, 6)).toEqual([
      '-e',
      'on run argv',
      '-e',
      'display notification (item 1 of argv) with title (item 2 of argv)',
      '-e',
      'end run',
    ]);
    expect(lines[6]).toBe(`project: ${hostile}`);
  });

  it('falls back to $CLAUDE_PLUGIN_DATA/notifications.log without a notifier or a terminal', async () => {
    const box = sandbox();
    recorder(box, 'notify-send', 1); // installed, but no desktop session: it fails
    const run = await runHook(box, 'Stop', stop(box, {}), { detached: true });
    expect(run).toMatchObject({ code: 0, stdout: '' });
    const log = readFileSync(join(box.data, 'notifications.log'), 'utf8');
    expect(log).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z Agent finished: project: waiting for you\n$/);
  });

  it('O3: respects stop_hook_active: no notification while a Stop continuation runs', async () => {
    const box = sandbox();
    const args = recorder(box, 'notify-send');
    const run = await runHook(
      box,
      'Stop',
      stop(box, { stop_hook_active: true, last_assistant_message: 'x' }),
    );
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(args)).toBe(false);
    expect(existsSync(join(box.data, 'notifications.log'))).toBe(false);
  });

  it('X8: stdin that is not JSON is reported on stderr, and the handler still exits 0 without output', async () => {
    const box = sandbox();
    const run = await runHook(box, 'Stop', {}, { rawStdin: 'not json {' });
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(run.stderr).toMatch(/^notify-on-stop: /);
  });
});
