import { constants } from 'node:buffer';
import type { Readable, Writable } from 'node:stream';
import { isHookpmError, redact } from '../../errors.js';
import { describeValue } from '../../json/describe-value.js';
import type { Session } from '../../ops/run/session.js';
import { describeError } from '../report-error.js';
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
import { createLineSplitter } from './line-splitter.js';
import { strictUtf8 } from '../../text/strict-utf8.js';

export interface RpcStreams {
  input: Readable;
  output: Writable;
  /**
   * The longest request line read, in bytes; a longer one is answered with an invalid-request
   * error and dropped. Default (and at most): the longest string Node can hold.
   */
  maxLineLength?: number;
}

/**
 * Serves `session` over JSON-RPC 2.0, one message per line (docs/reference/rules/cli.md#session).
 * The first line out is the notification `ready` with the start report. Requests are handled as
 * they arrive; replies are written as they settle, so concurrent dispatches are answered out of
 * order, matched by id. Every reply is one whole line in one write, so lines never interleave.
 * Blank lines are skipped. While the output is full (the host does not read the replies), or
 * MAX_IN_FLIGHT requests are in flight, no more lines are read: what the session holds for a host
 * stays bounded.
 *
 * End of input drains: nothing more is read, the requests in flight finish (each dispatch within
 * its handlers' deadlines) and are answered, then the session closes. Shutdown (a `shutdown`
 * request, or an output that can no longer be written, even while draining) kills instead: lines
 * after it are not read, running handlers are killed (Session.close), the replies of the
 * dispatches they belonged to are written, then `null` for each `shutdown`. An input that can no
 * longer be read (a read error) shuts down too. Either way resolves once the output is flushed;
 * the caller then exits 0.
 */
export function serveRpc(
  session: Session,
  { input, output, maxLineLength = constants.MAX_STRING_LENGTH }: RpcStreams,
): Promise<void> {
  const replies = createReplies(output, () => wake());
  const shutdownIds: RpcId[] = [];
  let finished: Promise<void> | null = null;
  let served: () => void = () => {};

  const finish = (how: 'drain' | 'kill'): Promise<void> => {
    if (finished !== null) return finished;
    input.removeListener('data', onData);
    input.pause();
    finished = how === 'drain' ? drain(session, replies) : shutDown(session, replies, shutdownIds);
    void finished.then(served);
    return finished;
  };
  const requestShutdown = (id: RpcId | undefined): void => {
    if (id !== undefined) shutdownIds.push(id);
    void finish('kill');
  };
  const lines = createLineSplitter({
    onLine: (line) => handleLine(line, { session, replies, requestShutdown }),
    onEnd: () => void finish('drain'),
    onOverlong: () =>
      replies.write(
        formatError(null, {
          code: RPC_ERROR.invalidRequest,
          message: `Invalid Request: the line is longer than hookpm reads (${maxLineLength} bytes)`,
        }),
      ),
    stopped: () => finished !== null,
    blocked: () => output.writableNeedDrain || replies.owed() >= MAX_IN_FLIGHT,
    maxLength: maxLineLength,
  });
  // Lines held while the output was full, or too many requests were in flight, go on.
  const wake = (): void => {
    lines.pump();
    if (finished === null && !lines.holding()) input.resume();
  };
  const onData = (chunk: string): void => {
    lines.push(chunk);
    if (lines.holding()) input.pause();
  };

  return new Promise((resolve) => {
    served = resolve;
    output.on('error', () => {
      replies.stop(); // the host stopped reading (EPIPE): nothing more can be said
      void session.close(); // a drain under way has no one left to answer either
      void finish('kill');
    });
    output.on('drain', wake);
    // An input that can no longer be read (a reset connection, EIO): the host is gone, as when
    // the output fails; the running handlers are killed and what can still be said is written.
    input.on('error', () => void finish('kill'));
    // One character a byte: lines are cut on bytes, and each is decoded strictly (handleLine).
    input.setEncoding('latin1');
    input.on('data', onData);
    input.on('end', () => lines.end());
    replies.write(formatNotification('ready', session.report));
  });
}

/**
 * The most requests answered later (dispatch, reload, hooks) that are read and not yet answered:
 * the next line is read as one is answered (docs/reference/rules/cli.md#session). With the output
 * full, this bounds what the session holds for a host that does not read its replies.
 */
export const MAX_IN_FLIGHT = 64;

/**
 * The shutdown sequence: running handlers are killed (Session.close), the replies of their
 * dispatches written, then `null` for each `shutdown` request; settles once the output is flushed.
 */
async function shutDown(session: Session, replies: Replies, shutdownIds: RpcId[]): Promise<void> {
  await session.close();
  await replies.settled();
  for (const id of shutdownIds) replies.reply(id, null);
  await replies.flush();
}

/**
 * docs/reference/rules/cli.md#session, end of input: the requests already read finish and are
 * answered (a dispatch ends within its handlers' deadlines, X6), then the session closes; settles
 * once flushed.
 */
async function drain(session: Session, replies: Replies): Promise<void> {
  await replies.settled();
  await session.close();
  await replies.flush();
}

/** The output side: whole-line replies while the output takes them, and the work still to answer. */
interface Replies {
  write(text: string): void;
  reply(id: RpcId | undefined, result: unknown): void;
  fail(id: RpcId | undefined, error: RpcFailure): void;
  /**
   * Answers `id` with the outcome of `work` when it settles; `takesParams`: an E_USAGE rejection
   * is about the request's params (a dispatch's), else it is a hookpm error like the others.
   */
  track(id: RpcId | undefined, work: Promise<unknown>, takesParams?: boolean): void;
  /** The replies tracked and not yet written. */
  owed(): number;
  /** Settles when every reply tracked so far is written. */
  settled(): Promise<void>;
  /** The output can no longer be written: later replies are dropped. */
  stop(): void;
  /** Resolves once everything written so far has been handed to the operating system. */
  flush(): Promise<void>;
}

/** `onWritten` runs after each tracked reply is written. */
function createReplies(output: Writable, onWritten: () => void): Replies {
  const pending = new Set<Promise<void>>();
  let writable = true;
  const replies: Replies = {
    write: (text) => {
      if (writable) output.write(text);
    },
    reply: (id, result) => {
      if (id !== undefined) replies.write(formatResult(id, result));
    },
    fail: (id, error) => {
      if (id !== undefined) replies.write(formatError(id, error));
    },
    track: (id, work, takesParams = false) => {
      const done = work.then(
        (result) => replies.reply(id, result),
        (error: unknown) => replies.fail(id, failureOf(error, takesParams)),
      );
      pending.add(done);
      void done.then(() => {
        pending.delete(done);
        onWritten();
      });
    },
    owed: () => pending.size,
    settled: () => Promise.all(pending).then(() => undefined),
    stop: () => {
      writable = false;
    },
    flush: () => flush(output, writable),
  };
  return replies;
}

interface RequestContext {
  session: Session;
  replies: Replies;
  /** A `shutdown` request (or notification, without id) arrived. */
  requestShutdown(id: RpcId | undefined): void;
}

/**
 * One input line, its bytes as latin1: blank lines are skipped, a bad one is answered with its
 * parse error, and so is one that is not UTF-8 (never read with replacement characters, which
 * would hand the plugins a payload the host did not send).
 */
function handleLine(bytes: string, ctx: RequestContext): void {
  const raw = strictUtf8(Buffer.from(bytes, 'latin1'), 'keep');
  if (raw === null) {
    const error = { code: RPC_ERROR.parse, message: 'Parse error: the line is not valid UTF-8' };
    ctx.replies.write(formatError(null, error));
    return;
  }
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line.trim() === '') return;
  const parsed = parseRequestLine(line);
  if (parsed.ok) handleRequest(parsed.request, ctx);
  else ctx.replies.write(formatError(parsed.id, parsed.error));
}

function handleRequest(
  request: RpcRequest,
  { session, replies, requestShutdown }: RequestContext,
): void {
  const { id, method, params } = request;
  if (method === 'dispatch') {
    const p = parseDispatchParams(params);
    if (!p.ok) return replies.fail(id, p.error);
    const { event, payload, continuationCount } = p.value;
    const opts = continuationCount === undefined ? {} : { continuationCount };
    return replies.track(id, session.dispatch(event, payload, opts), true);
  }
  if (!Object.hasOwn(NO_PARAM_METHODS, method)) {
    return replies.fail(id, {
      code: RPC_ERROR.methodNotFound,
      message: `Method not found: ${describeValue(method)}`,
    });
  }
  const p = parseNoParams(params);
  if (!p.ok) return replies.fail(id, p.error);
  if (method === 'reload') return replies.track(id, session.reload());
  if (method === 'hooks') return replies.track(id, session.hooks());
  requestShutdown(id);
}

const NO_PARAM_METHODS = { reload: true, hooks: true, shutdown: true } as const;

/**
 * A rejection as a JSON-RPC error: E_USAGE of a method that takes params is bad params; other
 * hookpm errors (a reload's E_USAGE for a directory gone among them) are -32000.
 */
function failureOf(error: unknown, takesParams: boolean): RpcFailure {
  const described = describeError(error);
  const message = redact(described.message);
  const data = {
    code: described.code,
    hint: described.hint === null ? null : redact(described.hint),
  };
  if (takesParams && isHookpmError(error, 'E_USAGE')) {
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
