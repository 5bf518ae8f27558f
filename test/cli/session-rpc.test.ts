import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serveRpc } from '../../src/cli/session/session-rpc.js';
import type { Session } from '../../src/ops/run/session.js';

/** A session whose `hooks` answers at once: serveRpc's framing is all that is under test. */
function fakeSession(): Session {
  const report = { snapshotId: 'x', handlers: 0, plugins: [], diagnostics: [] };
  return {
    report,
    hooks: async () => ({ snapshotId: 'x', handlers: [], diagnostics: [] }),
    close: async () => undefined,
  } as unknown as Session;
}

/** Serves `chunks` as the input, then its end; answers the output lines once the session closes. */
async function serve(
  chunks: Iterable<string | Buffer>,
  maxLineLength?: number,
): Promise<Array<Record<string, unknown>>> {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.setEncoding('utf8');
  output.on('data', (text: string) => (written += text));
  const limit = maxLineLength === undefined ? {} : { maxLineLength };
  const served = serveRpc(fakeSession(), { input, output, ...limit });
  for (const chunk of chunks) input.write(chunk);
  input.end();
  await served;
  return written
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function* paddedRequest(megabytes: number, chunkBytes: number): Iterable<string> {
  const pad = ' '.repeat(chunkBytes);
  for (let sent = 0; sent < megabytes * 1024 * 1024; sent += chunkBytes) yield pad;
  yield '{"jsonrpc":"2.0","id":1,"method":"hooks"}\n';
}

describe('hookpm session: lines of any length (cli.md section 4)', () => {
  it('cli.md section 4: a 32 MB line arriving in 8 KB chunks is answered in time proportional to its length, not its square', async () => {
    const started = performance.now();
    const messages = await serve(paddedRequest(32, 8 * 1024));
    expect(messages.map((m) => m['id'] ?? m['method'])).toEqual(['ready', 1]);
    expect(messages[1]).toMatchObject({ result: { handlers: [] } });
    // One pass over 32 MB takes well under a second; scanning the buffered text again at each
    // chunk takes minutes.
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 120_000);

  it('cli.md section 4: lines split anywhere across chunks, several per chunk, and a last line without its newline are each answered once', async () => {
    const one = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"hooks"}`;
    const text = `${one(1)}\n\n${one(2)}\r\n${one(3)}\n${one(4)}`;
    const chunks = [...text].map((_, i, all) => (i % 7 === 0 ? all.slice(i, i + 7).join('') : ''));
    const messages = await serve(chunks.filter((c) => c !== ''));
    expect(messages.map((m) => m['id'] ?? m['method'])).toEqual(['ready', 1, 2, 3, 4]);
  });

  it('cli.md section 4: a line longer than hookpm reads is answered with an invalid-request error, and the next line still is answered', async () => {
    const request = `{"jsonrpc":"2.0","id":2,"method":"hooks","params":{"pad":"${'x'.repeat(150)}"}}`;
    const messages = await serve(
      [
        'x'.repeat(60),
        'y'.repeat(60),
        '\n',
        '{"jsonrpc":"2.0","id":1,"method":"hooks"}\n',
        request,
      ],
      100,
    );
    expect(messages.map((m) => ('id' in m ? m['id'] : m['method']))).toEqual([
      'ready',
      null,
      1,
      null,
    ]);
    expect(messages[1]).toMatchObject({
      error: {
        code: -32600,
        message: 'Invalid Request: the line is longer than hookpm reads (100 bytes)',
      },
    });
  });
});

describe('hookpm session: request lines are UTF-8 (cli.md section 4)', () => {
  const hooks = (id: number, pad = '') =>
    `{"jsonrpc":"2.0","id":${id},"method":"hooks"${pad === '' ? '' : `,"pad":"${pad}"`}}\n`;

  it('cli.md section 4: a line that is not UTF-8 is answered with a parse error, never read with replacement characters; the next line still is answered', async () => {
    const [before, after] = hooks(1, '@').split('@') as [string, string];
    const invalid = Buffer.concat([
      Buffer.from(before),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(after),
    ]);
    const messages = await serve([invalid, hooks(2)]);
    expect(messages.map((m) => ('id' in m ? m['id'] : m['method']))).toEqual(['ready', null, 2]);
    expect(messages[1]).toMatchObject({
      error: { code: -32700, message: 'Parse error: the line is not valid UTF-8' },
    });
  });

  it('cli.md section 4: a character split between two chunks is read whole', async () => {
    const bytes = Buffer.from('{"jsonrpc":"2.0","id":"é😀","method":"hooks"}\n');
    const at = bytes.indexOf(0xc3) + 1;
    const messages = await serve([
      bytes.subarray(0, at),
      bytes.subarray(at, at + 3),
      bytes.subarray(at + 3),
    ]);
    expect(messages[1]).toMatchObject({ id: 'é😀', result: { handlers: [] } });
  });
});

describe('hookpm session: a host that does not read the replies (cli.md section 4)', () => {
  it('cli.md section 4: while the replies are not read, the session reads no more requests; once they are, every request is answered once', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const served = serveRpc(fakeSession(), { input, output });
    const count = 20_000;
    let text = '';
    for (let id = 1; id <= count; id++) text += `{"jsonrpc":"2.0","id":${id},"method":"hooks"}\n`;
    input.end(text);
    // Every reply the session would make without waiting for the host is made within a few turns.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const backlog = output.readableLength + output.writableLength;
    // 20,000 replies of about 100 bytes: about 2 MB if the session read on regardless.
    expect(backlog).toBeLessThan(256 * 1024);

    let written = '';
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => (written += chunk));
    await served;
    const ids = written
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { id?: number }).id);
    expect(ids.length).toBe(count + 1);
    expect(new Set(ids).size).toBe(count + 1);
  });
});

describe('hookpm session: error messages quote a bounded prefix (cli.md section 4)', () => {
  it('cli.md section 4: a 200 KB method name, event name or unknown params key is quoted cut short, not whole', async () => {
    const long = 'x'.repeat(200_000);
    const lines = [
      { jsonrpc: '2.0', id: 1, method: long },
      { jsonrpc: '2.0', id: 2, method: 'dispatch', params: { event: long } },
      { jsonrpc: '2.0', id: 3, method: 'dispatch', params: { event: 'Stop', [long]: 1, b: 2 } },
    ].map((m) => `${JSON.stringify(m)}\n`);
    const messages = await serve(lines);
    const errors = messages.slice(1).map((m) => m['error'] as { code: number; message: string });
    expect(errors.map((e) => e.code)).toEqual([-32601, -32602, -32602]);
    for (const { message } of errors) {
      expect(message).toContain('xxx...');
      expect(message.length).toBeLessThan(400);
    }
    expect(errors[2]!.message).toContain('(and 1 more)');
  });
});

describe('hookpm session: an input that can no longer be read (cli.md section 4)', () => {
  it('cli.md section 4: a read error on the input (a reset connection) ends the session as a shutdown does, never as an unhandled error', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let closed = 0;
    const session = { ...fakeSession(), close: async () => void (closed += 1) } as Session;
    let written = '';
    output.setEncoding('utf8');
    output.on('data', (text: string) => (written += text));
    const served = serveRpc(session, { input, output });
    input.write('{"jsonrpc":"2.0","id":1,"method":"hooks"}\n');
    await new Promise<void>((resolve) =>
      output.on('data', () => written.includes('"id":1') && resolve()),
    );
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    input.destroy(reset);
    await served;
    expect(closed).toBeGreaterThan(0);
    const ids = written
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id?: number; method?: string }).id ?? 'ready');
    expect(ids).toEqual(['ready', 1]);
  }, 5000);
});
