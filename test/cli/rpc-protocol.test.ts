import { describe, expect, it } from 'vitest';
import {
  formatError,
  formatResult,
  parseDispatchParams,
  parseNoParams,
  parseRequestLine,
} from '../../src/cli/session/rpc-protocol.js';

describe('JSON-RPC framing of hookpm session (cli.md section 4)', () => {
  it.each([
    ['{"jsonrpc":"2.0","id":', -32700, null],
    ['{"jsonrpc":"2.0","id":1,"id":2,"method":"hooks"}', -32700, null],
    ['[]', -32600, null],
    ['[{"jsonrpc":"2.0","id":1,"method":"hooks"}]', -32600, null],
    ['"hooks"', -32600, null],
    ['{"jsonrpc":"2.0","id":7}', -32600, 7],
    ['{"jsonrpc":"1.0","id":"x","method":"hooks"}', -32600, 'x'],
    ['{"jsonrpc":"2.0","id":{},"method":"hooks"}', -32600, null],
    ['{"jsonrpc":"2.0","id":1,"method":"hooks","params":"x"}', -32600, 1],
    // JSON-RPC 2.0: a number id a double cannot hold exactly would come back as another number.
    ['{"jsonrpc":"2.0","id":12345678901234567890,"method":"hooks"}', -32600, null],
    ['{"jsonrpc":"2.0","id":1.5,"method":"hooks"}', -32600, null],
    ['{"jsonrpc":"1.0","id":9007199254740993,"method":"hooks"}', -32600, null],
  ])('a malformed line %s gets error %i with id %j', (line, code, id) => {
    const parsed = parseRequestLine(line);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect([parsed.error.code, parsed.id]).toEqual([code, id]);
  });

  it('JSON-RPC 2.0: a request without id is a notification; id null is a request', () => {
    expect(parseRequestLine('{"jsonrpc":"2.0","method":"hooks"}')).toEqual({
      ok: true,
      request: { method: 'hooks', params: undefined },
    });
    const withNull = parseRequestLine('{"jsonrpc":"2.0","id":null,"method":"hooks","params":[]}');
    expect(withNull).toEqual({ ok: true, request: { id: null, method: 'hooks', params: [] } });
  });

  it('dispatch params: a known event, an object payload (absent is {}), a non-negative integer count', () => {
    expect(parseDispatchParams({ event: 'Stop' })).toEqual({
      ok: true,
      value: { event: 'Stop', payload: {} },
    });
    expect(parseDispatchParams({ event: 'Stop', payload: { a: 1 }, continuationCount: 3 })).toEqual(
      {
        ok: true,
        value: { event: 'Stop', payload: { a: 1 }, continuationCount: 3 },
      },
    );
    for (const bad of [
      { event: 'stop' },
      { event: 'Stop', payload: null },
      { event: 'Stop', payload: [1] },
      { event: 'Stop', continuationCount: -1 },
      { event: 'Stop', continuationCount: '2' },
      { event: 'Stop', session: 'x' },
      ['Stop'],
      undefined,
    ]) {
      const parsed = parseDispatchParams(bad);
      expect(parsed.ok, JSON.stringify(bad)).toBe(false);
      if (!parsed.ok) expect(parsed.error.code).toBe(-32602);
    }
  });

  it('a payload key named __proto__ stays an own key of the payload', () => {
    const line =
      '{"jsonrpc":"2.0","id":1,"method":"dispatch","params":{"event":"Stop","payload":{"__proto__":{"x":1}}}}';
    const parsed = parseRequestLine(line);
    if (!parsed.ok) throw new Error('Assertion failed: valid line rejected');
    const params = parseDispatchParams(parsed.request.params);
    if (!params.ok) throw new Error('Assertion failed: valid params rejected');
    expect(Object.hasOwn(params.value.payload, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(params.value.payload)).toBe(Object.prototype);
  });

  it('methods without params accept absent, {} and [] only', () => {
    expect(parseNoParams(undefined).ok).toBe(true);
    expect(parseNoParams({}).ok).toBe(true);
    expect(parseNoParams([]).ok).toBe(true);
    expect(parseNoParams({ a: 1 }).ok).toBe(false);
    expect(parseNoParams([1]).ok).toBe(false);
  });

  it('every reply is exactly one line, whatever the strings inside hold', () => {
    const result = formatResult(1, { text: 'a\nb\r\u2028c' });
    expect(result.endsWith('\n')).toBe(true);
    expect(result.slice(0, -1)).not.toMatch(/[\n\r]/);
    expect(JSON.parse(result)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { text: 'a\nb\r\u2028c' },
    });
    expect(JSON.parse(formatResult('s', null))).toEqual({ jsonrpc: '2.0', id: 's', result: null });
    const error = formatError(null, { code: -32700, message: 'Parse error' });
    expect(JSON.parse(error)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
  });
});
