import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_COMMANDS,
  REASON_CHARS,
  judge,
} from '../../registry-fixtures/plugins/guard/scripts/judge.mjs';
import { checkPluginFiles, expectGroupMatches } from './plugin-files.js';
import { PLUGINS_DIR, makeSandbox, payload, readHooksFile, runHook } from './run-hook.js';
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

  it('engine onFailure: both handlers declare onFailure "block", so a guard that crashes or times out denies', () => {
    const groups = readHooksFile(join(PLUGINS_DIR, 'guard')).hooks['PreToolUse'] ?? [];
    expect(groups).toHaveLength(2);
    for (const group of groups) expect(group.hooks[0]).toMatchObject({ onFailure: 'block' });
  });
});

/**
 * The CPU milliseconds (user + system) of one run of `work`: CPU time, as wall time would count
 * the other processes of a busy machine.
 */
function cpuMs(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

describe('guard on hostile commands', () => {
  const MB = 1_000_000;
  const fill = (unit: string, tail = '') =>
    unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB - tail.length) + tail;
  const ctx = { project: '/home/u/project', cwd: '/home/u/project/src/deep', home: '/home/u' };
  // A long run of each character a check repeats over, alone and then followed by a denied command.
  const units = [
    'a',
    ':',
    '/',
    ' ',
    '(',
    ')',
    '{',
    '}',
    '|',
    '&',
    ';',
    '-',
    'f',
    'r',
    '"',
    "'",
    '\\',
    '$',
    '$(',
    '`',
    '#',
    '>',
    '<',
    '~',
    '.',
    '*',
    '\n',
    'é',
    '😀',
    'sudo ',
    'A=1 ',
    'sh -c ',
    'eval ',
    'f(){ ',
    ':(){ :|:',
    ':|:& ',
    'rm -rf a ',
    'rm -rf ../a ',
    'rm -rf a/ ',
    '../',
    '-rf ',
    '"\\"',
    'x()',
    '~/',
    '>/dev/',
    'git push -',
  ];
  const prefixes = ['', 'rm -rf /', 'git push ', 'chmod -R 777 ', 'sh -c "'];

  // 100 ms of CPU on an idle machine; on a busy one CPU time grows too, so a case fails only when
  // it is over 100 ms and also more than 40 times its 100 KB version (10 when linear, ~100 when quadratic;
  // garbage collection on a busy machine puts linear cases near 25).
  // Each size is judged once, and again (up to three rounds, the best of each kept) only while the
  // pair would fail: a linear case over 100 ms is not judged three times at 1 MB for nothing.
  it('is linear: no 1 MB command, whatever it repeats, takes over 100 ms of CPU to judge', () => {
    const slow: string[] = [];
    const passes = (ms: number, small: number) => ms <= 100 || ms <= 40 * Math.max(small, 1);
    units.forEach((unit, i) => {
      const prefix = prefixes[i % prefixes.length] ?? '';
      for (const tail of ['x', '; rm -rf /']) {
        const text = prefix + fill(unit, tail);
        const tenth = prefix + fill(unit, tail).slice(-MB / 10);
        let ms = cpuMs(() => judge(text, ctx));
        let small = ms > 100 ? cpuMs(() => judge(tenth, ctx)) : 0;
        for (let round = 1; round < 3 && !passes(ms, small); round += 1) {
          ms = Math.min(
            ms,
            cpuMs(() => judge(text, ctx)),
          );
          small = Math.min(
            small,
            cpuMs(() => judge(tenth, ctx)),
          );
        }
        if (!passes(ms, small))
          slow.push(
            `${JSON.stringify(prefix + unit + tail)}: ${ms.toFixed(0)} ms (100 KB: ${small.toFixed(0)} ms)`,
          );
      }
    });
    expect(slow).toEqual([]);
  }, 120_000);

  it('still finds the denied command at the end of 1 MB of anything', () => {
    for (const unit of ['a', ' ', ':', 'f', '(x) ', '$x ', 'echo ok; '])
      expect(judge(fill(unit, '; rm -rf /'), ctx)).toMatch(/whole file system|too many to check/);
    expect(judge(fill('echo ok ', '&& git push --force'), ctx)).toMatch(/git push --force/);
  });

  it(`denies a line of more than ${MAX_COMMANDS} simple commands unread rather than let it through`, () => {
    expect(judge('true; '.repeat(MAX_COMMANDS), ctx)).toBeNull();
    expect(judge('true; '.repeat(MAX_COMMANDS + 1), ctx)).toMatch(/too many to check/);
  });

  it('engine.md X6: 150 KB of text then `; rm -rf /` is denied by the real script well inside its timeout', async () => {
    for (const command of [
      `echo ${'a'.repeat(150_000)}; rm -rf /`,
      `${':'.repeat(150_000)}; rm -rf /`,
      `f(){ ${'f'.repeat(150_000)}; rm -rf /`,
      `${'"'.repeat(150_000)}; rm -rf /`,
      `echo "${'\\"'.repeat(75_000)}"; rm -rf /`,
      `echo "${"'".repeat(150_000)}"; rm -rf /`,
    ]) {
      const started = Date.now();
      const run = await runHook(box, 'PreToolUse', bash(command));
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(run.json.hookSpecificOutput.permissionDecision).toBe('deny');
      expect(run.json.hookSpecificOutput.permissionDecisionReason).toMatch(/whole file system/);
    }
  });

  it(`X7: rm -rf of a 60 KB path gives a parseable deny whose reason is at most ${REASON_CHARS} characters`, async () => {
    for (const path of [
      `/${'a/'.repeat(30_000)}`,
      `/etc/${'x'.repeat(60_000)}`,
      `${'../'.repeat(20_000)}`,
    ]) {
      const run = await runHook(box, 'PreToolUse', bash(`rm -rf '${path}'`));
      expect(run.json.hookSpecificOutput.permissionDecision).toBe('deny');
      const reason = run.json.hookSpecificOutput.permissionDecisionReason as string;
      expect(reason.length).toBeLessThanOrEqual(REASON_CHARS);
      expect(reason).toMatch(/^guard: `rm -r .*…/);
      expect(run.stdout.length).toBeLessThan(2_000);
    }
  });

  it('judges quotes nested in sh -c, and a fork bomb spelled with long names', () => {
    expect(judge(`sh -c "bash -c 'rm -rf ~'"`, ctx)).toMatch(/home directory/);
    expect(judge(`echo "sh -c 'rm -rf /'"`, ctx)).toBeNull();
    const name = `b${'o'.repeat(50_000)}mb`;
    expect(judge(`${name}() { ${name} | ${name} & }; ${name}`, ctx)).toMatch(/fork bomb/);
    expect(judge(`${name}() { echo ${name} | ${name}x & }`, ctx)).toBeNull();
  });
});
