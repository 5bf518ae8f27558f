import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPluginFiles, expectGroupMatches } from './plugin-files.js';
import { makeSandbox, payload, runHook } from './run-hook.js';
import type { HookSandbox } from './run-hook.js';

let box: HookSandbox;
beforeAll(() => {
  box = makeSandbox('guard');
});
afterAll(() => box.cleanup());

function bash(command: string): Record<string, unknown> {
  return payload('PreToolUse', box.project, {
    tool_name: 'Bash',
    tool_input: { command, description: 'run it' },
    tool_use_id: 'toolu_01',
  });
}

describe('guard (example plugin)', () => {
  it('P2, C1, E1-E2: its manifest and hooks.json are valid, with one PreToolUse handler matching Bash', () => {
    checkPluginFiles('guard', ['PreToolUse']);
    expectGroupMatches('guard', 'PreToolUse', ['Bash'], ['BashOutput', 'Write']);
  });

  const denied: Array<[string, RegExp]> = [
    ['rm -rf /', /whole file system/],
    ['sudo rm -rf /*', /whole file system/],
    ['rm -rf --no-preserve-root /', /no-preserve-root/],
    ['rm -rf ~', /home directory/],
    ['rm -fr "$HOME"', /home directory/],
    ['rm -r -f ~/', /home directory/],
    ['rm -rf .', /working directory/],
    ['rm -rf *', /working directory/],
    ['rm -rf ./*', /working directory/],
    ['rm -rf ..', /working directory or its parent/],
    ['rm -rf /etc/nginx', /\/etc\/nginx, outside the project/],
    ['rm -rf ../other-project', /outside the project/],
    [
      'rm -rf /tmp/../etc',
      /^guard: `rm -r \/tmp\/..\/etc` would delete \/etc, outside the project/,
    ],
    ['rm --recursive --force ~/Documents', /outside the project/],
    ['npm test && rm -rf /', /whole file system/],
    ['bash -c "rm -rf /"', /whole file system/],
    ["sh -lc 'cd / && rm -rf *'", /working directory/],
    ['git push --force origin main', /git push --force/],
    ['git push -f', /git push --force/],
    ['git -C repo push origin +main', /git push --force/],
    ['git reset --hard HEAD~3', /git reset --hard/],
    ['mkfs.ext4 /dev/sdb1', /formats a file system/],
    ['dd if=/dev/zero of=/dev/sda bs=1M', /overwrites a device/],
    ['chmod -R 777 /', /chmod -R 777/],
    [':(){ :|:& };:', /fork bomb/],
    ['cat image.iso > /dev/sda', /disk device/],
  ];

  for (const [command, reason] of denied) {
    it.concurrent(
      `denies ${JSON.stringify(command)} with permissionDecision deny and a reason (engine.md L2)`,
      async () => {
        const run = await runHook(box, 'PreToolUse', bash(command));
        expect(run.code).toBe(0);
        expect(run.json.hookSpecificOutput.hookEventName).toBe('PreToolUse');
        expect(run.json.hookSpecificOutput.permissionDecision).toBe('deny');
        expect(run.json.hookSpecificOutput.permissionDecisionReason).toMatch(reason);
        expect(Object.keys(run.json)).toEqual(['hookSpecificOutput']);
      },
    );
  }

  const allowed = [
    'ls -la',
    'rm -rf node_modules dist',
    'rm -rf ./build/',
    'rm -rf /tmp/build-cache',
    'rm notes.txt',
    'git push --force-with-lease origin feature',
    'git push origin main',
    'git reset --soft HEAD~1',
    'dd if=/dev/zero of=./disk.img bs=1M count=1',
    'chmod -R 755 src',
    'echo "rm -rf /"',
    "grep -rn 'git push --force' docs",
    'rm -rf "$BUILD_DIR/cache"',
  ];

  for (const command of allowed) {
    it.concurrent(
      `allows ${JSON.stringify(command)} silently: exit 0 and no output (engine.md K1)`,
      async () => {
        const run = await runHook(box, 'PreToolUse', bash(command));
        expect(run).toMatchObject({ code: 0, stdout: '', json: null });
      },
    );
  }

  it('judges relative paths from the payload cwd: rm -rf .. inside a subdirectory stays in the project', async () => {
    const input = bash('rm -rf ../generated');
    input['cwd'] = join(box.project, 'src');
    mkdirSync(join(box.project, 'src'), { recursive: true });
    const run = await runHook(box, 'PreToolUse', input);
    expect(run).toMatchObject({ code: 0, stdout: '' });
  });

  it('denies deleting the project root by its absolute path, or any directory above it', async () => {
    for (const target of [box.project, join(box.project, '..')]) {
      const run = await runHook(box, 'PreToolUse', bash(`rm -rf '${target}'`));
      expect(run.json.hookSpecificOutput.permissionDecisionReason).toMatch(/the whole project/);
    }
  });

  it('K1: a payload without a command, or stdin that is not JSON, is allowed silently', async () => {
    const noCommand = payload('PreToolUse', box.project, { tool_name: 'Bash', tool_input: {} });
    expect(await runHook(box, 'PreToolUse', noCommand)).toMatchObject({ code: 0, stdout: '' });
  });
});
