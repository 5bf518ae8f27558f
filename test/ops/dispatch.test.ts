import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHooksDocument } from '../../src/hooks/parse-document.js';
import { buildSnapshot } from '../../src/hooks/snapshot/snapshot.js';
import { dispatchEvent } from '../../src/engine/dispatch.js';
import { KILL_GRACE_MS } from '../../src/engine/process-groups.js';
import { isAlive, readPid, waitUntil } from '../engine/runner-fixtures.js';
import {
  argv,
  codes,
  fixture,
  group,
  makeTempDir,
  printsJson,
  removeDir,
  sh,
  snapshotOf,
  userSnapshot,
} from './dispatch-helpers.js';
import { neutralResult } from '../helpers/neutral-result.js';
import { formatDispatchLine } from '../../src/ops/steps/decision-log/dispatch-line.js';
import type { DispatchRecord } from '../../src/engine/dispatch-options.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('dispatch');
let n = 0;
/** A fresh file path under the test directory. */
const file = (label: string): string => join(tmp.dir, `${label}-${(n += 1)}`);

describe('dispatchEvent: running handlers (engine.md section 7)', () => {
  it('X1: two handlers of one event run at the same time: each starts before the other ends', async () => {
    // Overlap, not a wall-clock bound: a busy machine may slow both, never serialise them.
    const marks = [file('a'), file('b')];
    const run = (mark: string) =>
      sh(`date +%s%N > '${mark}.start'; sleep 0.5; date +%s%N > '${mark}.end'`);
    const snapshot = userSnapshot(tmp.dir, {
      Stop: [group(null, run(marks[0]!)), group(null, run(marks[1]!))],
    });
    const result = await dispatchEvent(snapshot, 'Stop', {});
    expect(result.runs.map((r) => r.exitCode)).toEqual([0, 0]);
    const at = (path: string) => BigInt(readFileSync(path, 'utf8').trim());
    const [a, b] = marks.map((m) => ({ start: at(`${m}.start`), end: at(`${m}.end`) }));
    expect(a!.start < b!.end && b!.start < a!.end).toBe(true);
  });

  it('X1: when the first configured handler finishes last, its stopReason still wins', async () => {
    const first = printsJson({ continue: false, stopReason: 'first' });
    const second = printsJson({ continue: false, stopReason: 'second' });
    const snapshot = userSnapshot(tmp.dir, {
      UserPromptSubmit: [group(null, sh(`sleep 0.3; ${first}`), sh(second))],
    });
    const result = await dispatchEvent(snapshot, 'UserPromptSubmit', { prompt: 'hi' });
    expect(result.continue).toBe(false);
    expect(result.stopReason).toBe('first');
    expect(result.runs.map((r) => r.handler)).toEqual([
      'UserPromptSubmit:0:0',
      'UserPromptSubmit:0:1',
    ]);
    expect(result.runs[0]!.durationMs).toBeGreaterThan(result.runs[1]!.durationMs);
    expect(codes(result)).toEqual(['additional_stop_reason']);
  });

  it('X1: there is no short-circuit: a handler after a deny still runs', async () => {
    const marker = file('ran');
    const snapshot = userSnapshot(tmp.dir, {
      PreToolUse: [group('Bash', sh('echo no >&2; exit 2')), group(null, argv(['touch', marker]))],
    });
    const result = await dispatchEvent(snapshot, 'PreToolUse', { tool_name: 'Bash' });
    expect(result.permission).toEqual({ decision: 'deny', reason: 'no', interrupt: false });
    expect(existsSync(marker)).toBe(true);
  });

  it('X2: a payload containing $(touch pwned), backticks and quotes reaches the handler byte-exact and creates nothing', async () => {
    const cwd = makeTempDir('dispatch-cwd');
    try {
      const viaArgv = file('stdin-argv');
      const viaShell = file('stdin-sh');
      const hostile = `$(touch pwned) \`touch pwned\` "double" 'single' \\ ; touch pwned`;
      const snapshot = userSnapshot(tmp.dir, {
        PreToolUse: [
          group('Bash', argv([fixture('stdin-to-file.sh'), viaArgv]), sh(`cat > '${viaShell}'`)),
        ],
      });
      const input = { tool_name: 'Bash', tool_input: { command: hostile } };
      await dispatchEvent(snapshot, 'PreToolUse', input, { cwd, sessionId: 's-1' });
      const expected = JSON.stringify({
        session_id: 's-1',
        cwd,
        permission_mode: 'default',
        hook_event_name: 'PreToolUse',
        ...input,
      });
      expect(readFileSync(viaArgv, 'utf8')).toBe(expected);
      expect(readFileSync(viaShell, 'utf8')).toBe(expected);
      expect(existsSync(join(cwd, 'pwned'))).toBe(false);
      expect(existsSync(join(tmp.dir, 'pwned'))).toBe(false);
      expect(existsSync(join(process.cwd(), 'pwned'))).toBe(false);
    } finally {
      removeDir(cwd);
    }
  });

  it('X2: a library payload JSON cannot hold (a BigInt) rejects with E_USAGE naming the event, and starts no handler', async () => {
    const marker = file('ran');
    const snapshot = userSnapshot(tmp.dir, {
      PreToolUse: [group('Bash', argv(['touch', marker]))],
    });
    await expect(
      dispatchEvent(snapshot, 'PreToolUse', { tool_name: 'Bash', size: 10n }),
    ).rejects.toMatchObject({
      code: 'E_USAGE',
      message: expect.stringContaining('the PreToolUse payload cannot be written as JSON'),
    });
    expect(existsSync(marker)).toBe(false);
  });

  it('X2: the common fields come from the host; stop_hook_active is continuationCount > 0 on Stop', async () => {
    const out = file('stop-stdin');
    const snapshot = userSnapshot(tmp.dir, {
      Stop: [group(null, argv([fixture('stdin-to-file.sh'), out]))],
    });
    await dispatchEvent(
      snapshot,
      'Stop',
      { session_id: 'from-input' },
      {
        cwd: tmp.dir,
        continuationCount: 2,
        transcriptPath: '/t.jsonl',
        permissionMode: 'plan',
      },
    );
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({
      session_id: 'from-input',
      transcript_path: '/t.jsonl',
      cwd: tmp.dir,
      permission_mode: 'plan',
      hook_event_name: 'Stop',
      stop_hook_active: true,
    });
  });

  it('X3: argv runs directly with ${CLAUDE_PROJECT_DIR} substituted and nothing else expanded; a command expands variables itself', async () => {
    const snapshot = userSnapshot(tmp.dir, {
      UserPromptSubmit: [
        group(
          null,
          argv([fixture('print-args.mjs'), '${CLAUDE_PROJECT_DIR}', '$HOME', '$(echo x)', '*']),
          sh('printf "%s" "$CLAUDE_PROJECT_DIR"'),
        ),
      ],
    });
    const result = await dispatchEvent(snapshot, 'UserPromptSubmit', {});
    expect(JSON.parse(result.context[0]!)).toEqual([tmp.dir, '$HOME', '$(echo x)', '*']);
    expect(result.context[1]).toBe(tmp.dir);
  });

  it('X4: a handler runs in the invocation cwd, as the leader of its own process group', async () => {
    const cwd = makeTempDir('dispatch-x4');
    try {
      const snapshot = userSnapshot(tmp.dir, {
        UserPromptSubmit: [group(null, sh('pwd'), argv([fixture('group-info.sh')]))],
      });
      const result = await dispatchEvent(snapshot, 'UserPromptSubmit', {}, { cwd });
      expect(result.context[0]).toBe(cwd);
      const [pid, pgid] = result.context[1]!.split(' ');
      expect(pid).toBe(pgid);
      expect(Number(pgid)).not.toBe(process.pid);
    } finally {
      removeDir(cwd);
    }
  });

  it('X5: OPENAI_API_KEY set in the parent is absent in the handler; CLAUDE_PROJECT_DIR and plugin variables are present', async () => {
    process.env.OPENAI_API_KEY = 'sk-parent-secret';
    process.env.GITHUB_TOKEN = 'ghp-parent-secret';
    try {
      const plugin = {
        id: 'envy@test',
        root: join(tmp.dir, 'plugin-root'),
        data: join(tmp.dir, 'plugin-data'),
      };
      const snapshot = snapshotOf(
        tmp.dir,
        { origin: 'user', hooks: { UserPromptSubmit: [group(null, sh('env'))] } },
        { origin: 'plugin', plugin, hooks: { UserPromptSubmit: [group(null, sh('env'))] } },
      );
      const result = await dispatchEvent(snapshot, 'UserPromptSubmit', {});
      const [user, fromPlugin] = result.context.map((text) => text.split('\n'));
      for (const lines of [user!, fromPlugin!]) {
        expect(lines.some((l) => l.startsWith('OPENAI_API_KEY='))).toBe(false);
        expect(lines.some((l) => l.startsWith('GITHUB_TOKEN='))).toBe(false);
        expect(lines).toContain(`CLAUDE_PROJECT_DIR=${tmp.dir}`);
        expect(lines).toContain(`PATH=${process.env.PATH}`);
      }
      expect(user!.some((l) => l.startsWith('CLAUDE_PLUGIN_ROOT='))).toBe(false);
      expect(fromPlugin).toContain(`CLAUDE_PLUGIN_ROOT=${plugin.root}`);
      expect(fromPlugin).toContain(`CLAUDE_PLUGIN_DATA=${plugin.data}`);
    } finally {
      delete process.env.OPENAI_API_KEY;
      delete process.env.GITHUB_TOKEN;
    }
  });

  it('X6: a grandchild that keeps stdout open and ignores SIGTERM, with timeout 1, settles within 2.5 s as a timeout and no process of its group survives', async () => {
    const handlerPid = file('handler-pid');
    const grandchildPid = file('grandchild-pid');
    const block = printsJson({ decision: 'block', reason: 'too late' });
    const command = `echo $$ > '${handlerPid}'; ${block}; exec '${fixture('hold-pipes.sh')}' '${grandchildPid}'`;
    const snapshot = userSnapshot(tmp.dir, {
      PreToolUse: [group(null, sh(command, { timeout: 1 }))],
    });
    const started = performance.now();
    const result = await dispatchEvent(snapshot, 'PreToolUse', { tool_name: 'Bash' });
    expect(performance.now() - started).toBeLessThan(2500);
    expect(result.runs[0]).toMatchObject({ timedOut: true, exitCode: null });
    expect(codes(result)).toEqual(['timeout']);
    expect(result.diagnostics[0]).toMatchObject({ handler: 'PreToolUse:0:0', origin: 'user' });
    // No output is applied and a timeout never blocks.
    expect(result.permission).toBeNull();
    const pids = [await readPid(handlerPid), await readPid(grandchildPid)];
    // The SIGKILL was sent before the result settled; on a loaded machine the kernel may take a
    // few milliseconds more to finish the process off.
    await waitUntil(() => pids.every((pid) => !isAlive(pid)), 500, 'the group to be gone');
  });

  it('X6: a handler forking a child that ignores SIGTERM is timed out, and the child is SIGKILLed after the grace', async () => {
    const pidFile = file('child-pid');
    const snapshot = userSnapshot(tmp.dir, {
      Notification: [
        group(null, argv([fixture('ignore-term-child.sh'), pidFile], { timeout: 0.5 })),
      ],
    });
    const result = await dispatchEvent(snapshot, 'Notification', { notification_type: 'x' });
    expect(result.runs[0]!.timedOut).toBe(true);
    const child = await readPid(pidFile);
    await waitUntil(
      () => !isAlive(child),
      KILL_GRACE_MS + 1000,
      'the SIGTERM-ignoring child to die',
    );
  });

  it('X6, B8: aborting the signal kills every running handler of the dispatch, which then settles without output, failing closed', async () => {
    const pidFiles = [file('abort-a'), file('abort-b')];
    const snapshot = userSnapshot(tmp.dir, {
      Stop: pidFiles.map((pidFile) =>
        group(null, argv([fixture('record-pid-and-sleep.sh'), pidFile])),
      ),
    });
    const controller = new AbortController();
    const pending = dispatchEvent(snapshot, 'Stop', {}, { signal: controller.signal });
    const pids = await Promise.all(pidFiles.map(readPid));
    const started = performance.now();
    controller.abort();
    const result = await pending;
    expect(performance.now() - started).toBeLessThan(KILL_GRACE_MS + 1000);
    expect(result.runs.map((r) => r.exitCode)).toEqual([null, null]);
    // B2 on Stop: the turn goes on once, told that the two guards were stopped before deciding.
    expect(result.continueLoop).toBe(true);
    expect(result.feedback).toEqual(
      ['Stop:0:0', 'Stop:1:0'].map(
        (id) =>
          `hookpm fails closed: handler ${id} of user hooks was killed before it decided, as its dispatch was stopped by its caller's signal; retry the event`,
      ),
    );
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('B8: a guard that answers the stop with exit 0 (a SIGTERM trap) did not decide: a deny, never an allow', async () => {
    const ready = file('trap-ready');
    // The trap runs only once the shell is back from `wait`: it exits 0, no output, an allow.
    const command = `trap 'exit 0' TERM; : > ${ready}; sleep 30 & wait`;
    const snapshot = userSnapshot(tmp.dir, { PreToolUse: [group(null, sh(command))] });
    const controller = new AbortController();
    const pending = dispatchEvent(
      snapshot,
      'PreToolUse',
      { tool_name: 'Bash', tool_input: { command: 'ls' } },
      { signal: controller.signal },
    );
    await waitUntil(() => existsSync(ready), 5000, 'the trap to be set');
    controller.abort();
    const result = await pending;
    expect(result.permission).toMatchObject({ decision: 'deny' });
    expect(result.permission?.reason).toMatch(
      /^hookpm fails closed: handler PreToolUse:0:0 of user hooks was killed before it decided/,
    );
  });

  it('B8: a guard its already stopped dispatch never started fails closed, its reason saying so', async () => {
    const snapshot = userSnapshot(tmp.dir, { PreToolUse: [group(null, sh('exit 0'))] });
    const controller = new AbortController();
    controller.abort();
    const result = await dispatchEvent(
      snapshot,
      'PreToolUse',
      { tool_name: 'Bash', tool_input: { command: 'ls' } },
      { signal: controller.signal },
    );
    expect(result.permission).toMatchObject({ decision: 'deny' });
    expect(result.permission?.reason).toMatch(
      /^hookpm fails closed: handler PreToolUse:0:0 of user hooks was not started, as its dispatch was stopped/,
    );
  });

  it('B8: the decision log counts a guard that answers the stop with exit 0 as failed: it was killed', async () => {
    const ready = file('trap-log-ready');
    const command = `trap 'exit 0' TERM; : > ${ready}; sleep 30 & wait`;
    const snapshot = userSnapshot(tmp.dir, { PreToolUse: [group(null, sh(command))] });
    const controller = new AbortController();
    let record: DispatchRecord | null = null;
    const pending = dispatchEvent(
      snapshot,
      'PreToolUse',
      { tool_name: 'Bash', tool_input: { command: 'ls' } },
      { signal: controller.signal, log: (r) => (record = r) },
    );
    await waitUntil(() => existsSync(ready), 5000, 'the trap to be set');
    controller.abort();
    await pending;
    const line = JSON.parse(formatDispatchLine(record!, { source: 'session', text: false }));
    expect(line).toMatchObject({ decision: 'deny', runs: [{ exitCode: 0, failed: true }] });
  });

  it('X7: a handler printing 10 MB completes with stdout_truncated, and its plain output is capped at 10,000 characters (M7)', async () => {
    const snapshot = userSnapshot(tmp.dir, {
      UserPromptSubmit: [
        group(
          null,
          argv([fixture('print-bulk.mjs'), 'stdout', '10000000']),
          argv([fixture('print-bulk.mjs'), 'stderr', '10000000']),
        ),
      ],
    });
    const result = await dispatchEvent(snapshot, 'UserPromptSubmit', {});
    expect(result.runs.map((r) => r.exitCode)).toEqual([0, 0]);
    expect(codes(result)).toEqual(['stdout_truncated', 'output_capped', 'stderr_truncated']);
    expect(result.context).toEqual(['a'.repeat(10_000)]);
  });

  it('X8: a launch failure and a blank command only add diagnostics and never block', async () => {
    const config = {
      PreToolUse: [
        {
          matcher: null,
          hooks: [
            {
              type: 'command' as const,
              command: '/nonexistent/program',
              argv: ['/nonexistent/program'],
            },
          ],
        },
        {
          matcher: null,
          hooks: [
            {
              type: 'command' as const,
              command: fixture('not-executable.sh'),
              argv: [fixture('not-executable.sh')],
            },
          ],
        },
        { matcher: null, hooks: [{ type: 'command' as const, command: '   ' }] },
      ],
    };
    const snapshot = buildSnapshot({
      projectDir: tmp.dir,
      sources: [{ origin: 'user', file: 'u.json', config }],
    });
    const result = await dispatchEvent(snapshot, 'PreToolUse', { tool_name: 'Bash' });
    expect(codes(result)).toEqual(['launch_failed', 'launch_failed', 'invalid_command']);
    expect(result.diagnostics.map((d) => d.handler)).toEqual([
      'PreToolUse:0:0',
      'PreToolUse:1:0',
      'PreToolUse:2:0',
    ]);
    expect(result.permission).toBeNull();
    expect(result.continue).toBe(true);
  });
});

describe('dispatchEvent: matching and order through dispatch', () => {
  it('E6: when the payload lacks the matcher field, only match-all groups run', async () => {
    const snapshot = userSnapshot(tmp.dir, {
      PostToolUse: [
        group('Bash', sh('echo bash')),
        group(
          '*',
          sh(
            printsJson({
              hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'all' },
            }),
          ),
        ),
        group('mcp__.*', sh('echo regex')),
        group('.*', sh('echo everything')),
      ],
    });
    const result = await dispatchEvent(snapshot, 'PostToolUse', { tool_response: {} });
    // E1: ".*" matches every string, so it is a match-all group too.
    expect(result.runs.map((r) => r.handler)).toEqual(['PostToolUse:1:0', 'PostToolUse:3:0']);
    expect(result.context).toEqual(['all']);
  });

  it('S3: results are reduced project, user, then plugins by id, whatever the source order', async () => {
    const say = (text: string) => ({ UserPromptSubmit: [group(null, sh(`echo ${text}`))] });
    const binding = (id: string) => ({
      id,
      root: join(tmp.dir, id),
      data: join(tmp.dir, `${id}-data`),
    });
    const snapshot = snapshotOf(
      tmp.dir,
      { origin: 'plugin', plugin: binding('zeta@r'), hooks: say('zeta') },
      { origin: 'user', hooks: say('user') },
      { origin: 'plugin', plugin: binding('alpha@r'), hooks: say('alpha') },
      { origin: 'project', hooks: say('project') },
    );
    const result = await dispatchEvent(snapshot, 'UserPromptSubmit', { prompt: 'x' });
    expect(result.context).toEqual(['project', 'user', 'alpha', 'zeta']);
    expect(result.runs.map((r) => [r.origin, r.plugin])).toEqual([
      ['project', null],
      ['user', null],
      ['plugin', 'alpha@r'],
      ['plugin', 'zeta@r'],
    ]);
  });

  it('C4: a legacy handler gets its legacy stdin instead of the payload, and its output is ignored', async () => {
    const out = file('legacy-stdin');
    const parsed = parseHooksDocument(
      {
        hooks: [
          {
            command: ['sh', '-c', `cat > '${out}'; echo '{"decision":"block"}'; exit 3`],
            events: ['session.end'],
          },
        ],
      },
      { file: 'legacy.json', legacy: true },
    );
    const snapshot = buildSnapshot({
      projectDir: tmp.dir,
      sources: [{ origin: 'user', file: 'legacy.json', config: parsed.config! }],
    });
    const result = await dispatchEvent(snapshot, 'SessionEnd', { reason: 'exit' });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ event: 'session.end' });
    expect(result.runs[0]!.exitCode).toBe(3);
    expect(result.diagnostics).toEqual([]);
  });

  it('X1: a dispatch that matches nothing runs nothing and returns the neutral result (cli.md 3)', async () => {
    const snapshot = userSnapshot(tmp.dir, { PreToolUse: [group('Write', sh('exit 2'))] });
    const result = await dispatchEvent(snapshot, 'PreToolUse', { tool_name: 'Bash' });
    expect(result).toEqual(neutralResult('PreToolUse', snapshot.id));
  });

  it('O3: a continuationCount that is not a non-negative integer is a usage error', async () => {
    const snapshot = userSnapshot(tmp.dir, {});
    await expect(
      dispatchEvent(snapshot, 'Stop', {}, { continuationCount: -1 }),
    ).rejects.toMatchObject({
      code: 'E_USAGE',
    });
  });
});
