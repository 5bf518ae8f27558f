/** Drives a real `node bin/hookpm.js session` process over its stdin and stdout, line by line. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { BIN } from './session-workspace.js';

export interface RpcMessage {
  jsonrpc: '2.0';
  id?: string | number | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export interface RpcSession {
  proc: ChildProcessWithoutNullStreams;
  /** Every message received so far, in arrival order. */
  messages: RpcMessage[];
  /** Writes raw text (add the newline yourself). */
  send: (text: string) => void;
  /** Sends a request and resolves with its reply (matched by id). */
  call: (method: string, params?: unknown) => Promise<RpcMessage>;
  /** Resolves with the first message (seen or future) that satisfies `test`. */
  waitFor: (test: (m: RpcMessage) => boolean, timeoutMs?: number) => Promise<RpcMessage>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
}

let nextId = 1000;

export function startRpcSession(
  cwd: string,
  env: Record<string, string>,
  args: string[] = [],
): RpcSession {
  const proc = spawn(process.execPath, [BIN, 'session', ...args], { cwd, env, stdio: 'pipe' });
  const messages: RpcMessage[] = [];
  const wakers = new Set<() => void>();
  let partial = '';
  let err = '';
  let closed = false;
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    // Every line must be one whole JSON message: a torn or interleaved line fails here.
    for (const line of parts) messages.push(JSON.parse(line) as RpcMessage);
    for (const wake of wakers) wake();
  });
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (chunk: string) => (err += chunk));
  proc.stdin.on('error', () => {});
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('close', (code, signal) => {
      closed = true;
      for (const wake of wakers) wake();
      resolve({ code, signal });
    }),
  );
  const waitFor = (test: (m: RpcMessage) => boolean, timeoutMs = 10_000): Promise<RpcMessage> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = messages.find(test);
        if (found !== undefined) done(() => resolve(found));
        else if (closed) done(() => reject(new Error(`session exited; stderr=${err}`)));
      };
      const timer = setTimeout(
        () =>
          done(() =>
            reject(new Error(`no such message; got ${JSON.stringify(messages)} stderr=${err}`)),
          ),
        timeoutMs,
      );
      const done = (then: () => void): void => {
        clearTimeout(timer);
        wakers.delete(check);
        then();
      };
      wakers.add(check);
      check();
    });
  const send = (text: string): void => void proc.stdin.write(text);
  const call = (method: string, params?: unknown): Promise<RpcMessage> => {
    nextId += 1;
    const id = nextId;
    send(
      `${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })}\n`,
    );
    return waitFor((m) => m.id === id && m.method === undefined);
  };
  return { proc, messages, send, call, waitFor, exited, stderr: () => err };
}
