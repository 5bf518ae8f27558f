import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dispatchEvent } from '../../src/engine/dispatch.js';
import { isHookpmError } from '../../src/errors.js';
import { group, printsJson, sh, userSnapshot } from '../ops/dispatch-helpers.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('dispatch-call');

const DENY = printsJson({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: 'deny',
    permissionDecisionReason: 'blocked',
  },
});

/** A user snapshot whose Bash guard denies every call, and one matching every tool. */
const guarded = () =>
  userSnapshot(tmp.dir, { PreToolUse: [group('Bash', sh(DENY)), group(null, sh('true'))] });

/** How a call ended: `throw` when it threw before returning a promise. */
async function outcome(call: () => Promise<unknown>): Promise<unknown> {
  let promise: Promise<unknown>;
  try {
    promise = call();
  } catch (error) {
    return { threw: error };
  }
  return promise.then(
    (result) => ({ resolved: result }),
    (error: unknown) => ({ rejected: error }),
  );
}

function expectUsage(found: unknown, message: string): void {
  expect(found).toHaveProperty('rejected');
  const error = (found as { rejected: unknown }).rejected;
  expect(isHookpmError(error, 'E_USAGE')).toBe(true);
  expect((error as Error).message).toContain(message);
  expect((error as Error).message.length).toBeLessThan(200);
}

describe('dispatchEvent at the library boundary (engine.md fail closed)', () => {
  it('an unknown event name rejects with E_USAGE, never a result without a decision nor a throw', async () => {
    const snapshot = guarded();
    const input = { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } };
    for (const event of ['pretooluse', 'toString', '__proto__', 'x'.repeat(200_000), 10n]) {
      expectUsage(
        await outcome(() => dispatchEvent(snapshot, event as never, input)),
        'unknown event',
      );
    }
  });

  it('an input that is not a plain object rejects with E_USAGE: null, a string, an array, a Map, a class instance', async () => {
    const snapshot = guarded();
    const map = new Map([['tool_name', 'Bash']]);
    const inherited = Object.create({ tool_name: 'Bash' }) as object;
    for (const input of [null, undefined, 'Bash', ['Bash'], map, new Date(), inherited]) {
      const found = await outcome(() => dispatchEvent(snapshot, 'PreToolUse', input as never));
      expectUsage(found, 'the PreToolUse payload must be a JSON object');
    }
    const bare = Object.assign(Object.create(null) as object, { tool_name: 'Bash' });
    const result = await dispatchEvent(snapshot, 'PreToolUse', bare as never);
    expect(result.permission?.decision).toBe('deny');
  });

  it('a getter of the input that throws rejects the dispatch with E_USAGE, before any handler starts', async () => {
    const snapshot = guarded();
    const matcherField = {
      get tool_name(): string {
        throw new Error('no name');
      },
    };
    expectUsage(
      await outcome(() => dispatchEvent(snapshot, 'PreToolUse', matcherField)),
      'payload cannot be read: "no name"',
    );
    const payloadField = {
      tool_name: 'Bash',
      get session_id(): string {
        throw new Error('no id');
      },
    };
    expectUsage(
      await outcome(() => dispatchEvent(snapshot, 'PreToolUse', payloadField)),
      'payload cannot be read: "no id"',
    );
  });

  it('options that are null, or a signal that is not an AbortSignal, reject with E_USAGE instead of crashing the host', async () => {
    const snapshot = guarded();
    const input = { tool_name: 'Bash' };
    expectUsage(
      await outcome(() => dispatchEvent(snapshot, 'PreToolUse', input, null as never)),
      'options must be an object',
    );
    // Before: the handler started, and the exit listener threw an uncaught TypeError.
    expectUsage(
      await outcome(() => dispatchEvent(snapshot, 'PreToolUse', input, { signal: {} as never })),
      'signal must be an AbortSignal',
    );
  });
});

describe('the host log sink (docs/guides/decision-log.md)', () => {
  it('an async log that rejects is ignored: the dispatch resolves and the host sees no unhandled rejection', async () => {
    const snapshot = guarded();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      const log = (): Promise<void> => Promise.reject(new Error('sink down'));
      const matched = await dispatchEvent(snapshot, 'PreToolUse', { tool_name: 'Bash' }, { log });
      expect(matched.permission?.decision).toBe('deny');
      const unmatched = await dispatchEvent(snapshot, 'Stop', {}, { log });
      expect(unmatched.runs).toEqual([]);
      // Unhandled rejections are reported after the microtask queue drains.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe("dispatchEvent's working directory (engine.md X4, cli.md W2)", () => {
  it('an input cwd that is gone runs the handlers in the project root with a cwd_unusable warning, so the guard still denies', async () => {
    const snapshot = guarded();
    const input = {
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf /' },
      cwd: join(tmp.dir, 'removed-since'),
    };
    const result = await dispatchEvent(snapshot, 'PreToolUse', input);
    expect(result.permission).toMatchObject({ decision: 'deny', reason: 'blocked' });
    expect(result.diagnostics[0]).toMatchObject({
      code: 'cwd_unusable',
      severity: 'warning',
      message: expect.stringContaining(
        `the payload's cwd does not exist; handlers run in ${snapshot.projectDir}, the project root`,
      ),
    });
    expect(result.diagnostics.map((d) => d.code)).not.toContain('launch_failed');
  });

  it('a cwd option that is gone, a file or not a path runs the handlers in the project root with a cwd_unusable warning, so the guard still denies', async () => {
    const snapshot = guarded();
    const input = { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } };
    const file = join(tmp.dir, 'a-file');
    writeFileSync(file, '');
    for (const [cwd, problem] of [
      [join(tmp.dir, 'removed-since'), 'the cwd option does not exist'],
      [file, 'the cwd option is not a directory'],
      [42, 'the cwd option is 42, not a path'],
    ] as const) {
      const result = await dispatchEvent(snapshot, 'PreToolUse', input, { cwd: cwd as string });
      expect(result.permission).toMatchObject({ decision: 'deny', reason: 'blocked' });
      expect(result.diagnostics[0]).toMatchObject({
        code: 'cwd_unusable',
        severity: 'warning',
        message: `${problem}; handlers run in ${snapshot.projectDir}, the project root`,
      });
      expect(result.diagnostics.map((d) => d.code)).not.toContain('launch_failed');
    }
  });

  it('a usable input cwd is where handlers run, and the payload they read says it', async () => {
    const here = join(tmp.dir, 'sub');
    mkdirSync(here);
    const snapshot = userSnapshot(tmp.dir, {
      PreToolUse: [group(null, sh(`pwd >"${join(tmp.dir, 'ran-in')}"`))],
    });
    const result = await dispatchEvent(snapshot, 'PreToolUse', { tool_name: 'X', cwd: here });
    expect(result.diagnostics.map((d) => d.code)).not.toContain('cwd_unusable');
    expect(readFileSync(join(tmp.dir, 'ran-in'), 'utf8').trim()).toBe(realpathSync(here));
  });
});
