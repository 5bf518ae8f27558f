import { describe, expect, it, beforeAll } from 'vitest';
import { CUT_MARK, MAX_DEPTH, readCutJsonObject } from '../../src/engine/cut-json.js';
import { CAPTURE_LIMIT_BYTES, createOutputCapture } from '../../src/engine/output-capture.js';
import { parseHandlerOutput } from '../../src/engine/parse-output.js';
import { loadWireOutputReader } from '../../src/engine/wire-output-reader.js';
import type { EventName } from '../../src/hooks/events.js';
import { makeHandler, makeRun } from './helpers.js';

/** stdout as the engine keeps it when the handler printed `output` whole (X7). */
function captured(output: string): { stdout: string; stdoutTruncated: boolean } {
  const capture = createOutputCapture();
  capture.push(Buffer.from(output));
  const { text, truncated } = capture.finish();
  return { stdout: text, stdoutTruncated: truncated };
}

function parseCut(event: EventName, output: unknown) {
  const run = makeRun(makeHandler(event), captured(JSON.stringify(output)));
  expect(run.stdoutTruncated).toBe(true);
  return parseHandlerOutput(run, event);
}

const LONG = 'x'.repeat(CAPTURE_LIMIT_BYTES * 2);
const codes = (out: { diagnostics: { code: string; severity: string }[] }) =>
  out.diagnostics.map((d) => `${d.code}:${d.severity}`);

// L1: a dispatch loads the JSON reader before it parses output; these tests parse directly.
beforeAll(loadWireOutputReader);

describe('X7: an output cut at the capture limit', () => {
  it('X7, L2: a PreToolUse deny whose reason was cut still denies, with the reason that arrived', () => {
    const out = parseCut('PreToolUse', {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: `guard: rm -r /${LONG}`,
      },
    });
    expect(out.permission?.decision).toBe('deny');
    expect(out.permission?.reason).toMatch(/^guard: rm -r \/x+…$/);
    expect(codes(out)).toEqual(['stdout_truncated:warning', 'stdout_truncated:warning']);
  });

  it('X7, L1: a decision "block" whose reason was cut still blocks on Stop', () => {
    const out = parseCut('Stop', { decision: 'block', reason: `tests fail: ${LONG}` });
    expect(out.block?.reason).toMatch(/^tests fail: x+…$/);
  });

  it('X7, M1: continue false before the cut still stops, with its stop reason', () => {
    const out = parseCut('PostToolUse', {
      continue: false,
      stopReason: 'halt',
      systemMessage: LONG,
    });
    expect(out).toMatchObject({ continue: false, stopReason: 'halt', systemMessage: null });
  });

  it('X7: a cut allow, context or message is dropped and the run is an error: what was cut could have changed it', () => {
    const allow = parseCut('PreToolUse', {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        additionalContext: LONG,
      },
    });
    expect(allow).toMatchObject({ permission: null, context: [], block: null, continue: true });
    expect(codes(allow)).toEqual(['stdout_truncated:warning', 'stdout_truncated:error']);
    const message = parseCut('SessionStart', { systemMessage: LONG });
    expect(message.systemMessage).toBeNull();
    expect(codes(message)).toContain('stdout_truncated:error');
  });

  it('X7, X9: a cut allow of a handler that declares onFailure "block" is a block naming the cut', () => {
    const handler = makeHandler('PreToolUse', 0, { plugin: 'guard@examples', onFailure: 'block' });
    const output = {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
      systemMessage: LONG,
    };
    const out = parseHandlerOutput(
      makeRun(handler, captured(JSON.stringify(output))),
      'PreToolUse',
    );
    expect(out.permission).toBeNull();
    expect(out.block?.reason).toMatch(
      /^hookpm: handler .* of plugin guard@examples failed \(stdout_truncated: stdout was cut .*\) and declares onFailure "block"$/,
    );
  });

  it('X7: a deny printed after the cut is not seen, and the run is an error, never an allow', () => {
    const out = parseCut('PreToolUse', {
      systemMessage: LONG,
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
    });
    expect(out.permission).toBeNull();
    expect(codes(out)).toContain('stdout_truncated:error');
  });

  it('K1: a whole output is read as before, and cut plain text stays plain text', () => {
    const whole = makeRun(makeHandler('PreToolUse'), { stdout: '{"decision":"block"}' });
    expect(parseHandlerOutput(whole, 'PreToolUse').block).not.toBeNull();
    const plain = makeRun(makeHandler('UserPromptSubmit'), captured(`notes ${LONG}`));
    expect(parseHandlerOutput(plain, 'UserPromptSubmit').context[0]).toMatch(/^notes x+$/);
  });
});

describe('readCutJsonObject (X7)', () => {
  it('keeps whole members, ends a cut string with the cut mark, drops a cut number or literal', () => {
    expect(readCutJsonObject('{"a":1,"b":"hel')).toEqual({ a: 1, b: `hel${CUT_MARK}` });
    expect(readCutJsonObject('{"a":[1,{"b":true}],"c":12')).toEqual({ a: [1, { b: true }] });
    expect(readCutJsonObject('{"a":{"b":"x\\"y","c":nu')).toEqual({ a: { b: 'x"y' } });
    expect(readCutJsonObject('{"a":"\\u00e9\\u00')).toEqual({ a: `é${CUT_MARK}` });
    expect(readCutJsonObject('{"a":1,"b')).toEqual({ a: 1 });
  });

  it('is undefined for a syntax error, a whole object with text after it, or nesting past MAX_DEPTH', () => {
    expect(readCutJsonObject('{"a" 1')).toBeUndefined();
    expect(readCutJsonObject('{"a":1} and more')).toBeUndefined();
    expect(readCutJsonObject('[1,2')).toBeUndefined();
    expect(readCutJsonObject(`{"a":${'['.repeat(MAX_DEPTH + 5)}`)).toBeUndefined();
    expect(readCutJsonObject(`{"a":${'['.repeat(MAX_DEPTH - 2)}`)).toBeDefined();
  });

  it('keeps a "__proto__" key as data, never as the prototype', () => {
    const read = readCutJsonObject('{"__proto__":{"polluted":true},"x":"y');
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.hasOwn(read ?? {}, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
