/**
 * engine.md L1: the reader of a handler's JSON output (and zod with it) is loaded by a dispatch
 * only when a run may have printed JSON (src/engine/wire-output-reader.ts).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { HandlerRun } from '../../src/engine/types.js';
import { mayHoldJson } from '../../src/engine/wire-output-reader.js';
import { makeHandler, makeRun } from './helpers.js';

const DIST = fileURLToPath(new URL('../../dist/engine/', import.meta.url));

describe('the JSON output reader (L1)', () => {
  it.each([
    ['', false],
    ['plain text\n', false],
    ['{"continue": false}', true],
    ['  \n{"decision": "block"', true],
    ['context, then {braces}', true],
  ])('L1: stdout %j may hold JSON: %s', (stdout, expected) => {
    expect(mayHoldJson(makeRun(makeHandler('PreToolUse'), { stdout }))).toBe(expected);
  });

  it('L1: in a fresh process, an output with no JSON parses without the reader (and without zod), and JSON read before the reader is loaded is an assertion', () => {
    const run = (over: Partial<HandlerRun>) =>
      JSON.stringify(makeRun(makeHandler('PreToolUse'), over));
    const script = `
      const { parseHandlerOutput } = await import(${JSON.stringify(`${DIST}parse-output.js`)});
      const blocked = parseHandlerOutput(${run({ exitCode: 2 })}, 'PreToolUse').block;
      const plain = parseHandlerOutput(${run({ stdout: 'ok\n' })}, 'PreToolUse').diagnostics.map((d) => d.code);
      const zod = globalThis.__zod_globalConfig !== undefined;
      let thrown = null;
      try { parseHandlerOutput(${run({ stdout: '{"continue": false}' })}, 'PreToolUse'); } catch (e) { thrown = e.message; }
      console.log(JSON.stringify({ blocked, plain, zod, thrown }));
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(child.status, child.stderr).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({
      blocked: { reason: 'Hook blocked the operation', generic: true },
      plain: ['malformed_json'],
      zod: false,
      thrown: 'Assertion failed: a JSON output is read before loadWireOutputReader',
    });
  });
});
