import type { Readable, Writable } from 'node:stream';
import { isHookpmError, redact } from '../errors.js';
import type { Session } from '../ops/session.js';
import { describeError } from './report-error.js';
import {
  formatError,
  formatNotification,
  formatResult,
  parseDispatchParams,
  parseNoParams,
  parseRequestLine,
  RPC_ERROR,
  type RpcFailure,
  type RpcId,
  type RpcRequest,
} from './rpc-protocol.js';

export interface RpcStreams {
  input: Readable;
  output: Writable;
}

/**
 * Serves `session` over JSON-RPC 2.0, one message per line (cli.md section 4). The first line out
 * is the notification `ready` with the start report. Requests are handled as they arrive; replies
 * are written as they settle, so concurrent dispatches are answered out of order, matched by id.
 * Every reply is one whole line in one write, so lines never interleave. Blank lines are skipped.
 *
 * Shutdown (a `shutdown` request, end of input, or an output that can no longer be written):
 * lines after it are not read, running handlers are killed (Session.close), the replies of the
 * dispatches they belonged to are written, then `null` for each `shutdown`. Resolves after that,
 * once the output is flushed; the caller then exits 0.
 */
export function serveRpc(session: Session, { input, output }: RpcStreams): Promise<void> {
  const pending = new Set<Promise<void>>();
  const shutdownIds: RpcId[] = [];
  let writable = true;
  let buffered = '';
  let finished: Promise<void> | null = null;

  const write = (text: string): void => {
    if (writable) output.write(text);
  };
  const reply = (id: RpcId | undefined, result: unknown): void => {
    if (id !== undefined) write(formatResult(id, result));
  };
  const fail = (id: RpcId | undefined, error: RpcFailure): void => {
    if (id !== undefined) write(formatError(id, error));
  };
  const track = (id: RpcId | undefined, work: Promise<unknown>): void => {
    const done = work.then(
      (result) => reply(id, result),
      (error: unknown) => fail(id, failureOf(error)),
    );
    pending.add(done);
    void done.then(() => pending.delete(done));
  };

  const handle = (request: RpcRequest): void => {
    const { id, method, params } = request;
    if (method === 'dispatch') {
      const p = parseDispatchParams(params);
      if (!p.ok) return fail(id, p.error);
      const { event, payload, continuationCount } = p.value;
      const opts = continuationCount === undefined ? {} : { continuationCount };
      return track(id, session.dispatch(event, payload, opts));
    }
    if (!Object.hasOwn(NO_PARAM_METHODS, method)) {
      return fail(id, { code: RPC_ERROR.methodNotFound, message: `Method not found: ${method}` });
    }
    const p = parseNoParams(params);
    if (!p.ok) return fail(id, p.error);
    if (method === 'reload') return track(id, session.reload());
    if (method === 'hooks') return track(id, session.hooks());
    if (id !== undefined) shutdownIds.push(id);
    void finish();
  };

  const onLine = (raw: string): void => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    const parsed = parseRequestLine(line);
    if (parsed.ok) handle(parsed.request);
    else write(formatError(parsed.id, parsed.error));
  };

  const onData = (chunk: string): void => {
    const text = buffered === '' ? chunk : buffered + chunk;
    let start = 0;
    let end = text.indexOf('\n');
    while (end !== -1 && finished === null) {
      onLine(text.slice(start, end));
      start = end + 1;
      end = text.indexOf('\n', start);
    }
    buffered = finished === null ? text.slice(start) : '';
  };

  let served: () => void = () => {};
  const finish = (): Promise<void> => {
    if (finished !== null) return finished;
    input.removeListener('data', onData);
    input.pause();
    finished = (async () => {
      await session.close();
      await Promise.all(pending);
      for (const id of shutdownIds) reply(id, null);
      await flush(output, writable);
    })();
    void finished.then(served);
    return finished;
  };

  return new Promise((resolve) => {
    served = resolve;
    output.on('error', () => {
      writable = false; // the host stopped reading (EPIPE): nothing more can be said
      void finish();
    });
    input.setEncoding('utf8');
    input.on('data', onData);
    input.on('end', () => {
      if (buffered !== '' && finished === null) onLine(buffered);
      buffered = '';
      void finish();
    });
    write(formatNotification('ready', session.report));
  });
}

const NO_PARAM_METHODS = { reload: true, hooks: true, shutdown: true } as const;

/** A rejection as a JSON-RPC error: E_USAGE is bad params; other hookpm errors are -32000. */
function failureOf(error: unknown): RpcFailure {
  const described = describeError(error);
  const message = redact(described.message);
  const data = {
    code: described.code,
    hint: described.hint === null ? null : redact(described.hint),
  };
  if (isHookpmError(error, 'E_USAGE')) {
    return { code: RPC_ERROR.invalidParams, message: `Invalid params: ${message}`, data };
  }
  const code = isHookpmError(error) ? RPC_ERROR.hookpm : RPC_ERROR.internal;
  return { code, message, data };
}

/** Resolves once everything written so far has been handed to the operating system. */
function flush(output: Writable, writable: boolean): Promise<void> {
  if (!writable) return Promise.resolve();
  // Chunks are written in order, so the callback of an empty one runs after all earlier ones.
  return new Promise((resolve) => output.write('', () => resolve()));
}
