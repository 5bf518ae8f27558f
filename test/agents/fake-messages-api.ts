// A scripted stand-in for the Anthropic Messages API on loopback, for driving a real Claude Code
// (ANTHROPIC_BASE_URL=<url>) through one tool call without any network.
//
// Contracts:
// - A real node:http server on 127.0.0.1, on a port the system picks; `url` has no trailing slash.
// - `POST /v1/messages` (any query, e.g. `?beta=true`) whose `tools` include one named `Bash` is
//   the agent's main loop. If the last user message carries no `tool_result` block, the answer is a
//   `tool_use` call of `Bash` with input `{"command": toolCommand}` (stop_reason `tool_use`) — at
//   most `maxToolCalls` times, plain text after that. If it carries tool_result blocks, each is
//   recorded (see `toolResults()`) and the answer is the text `finalText` (stop_reason `end_turn`).
// - Any other `POST /v1/messages` (a title or summary request: no tools, or no Bash) gets the text
//   `sideText` with end_turn, so it cannot start a tool call.
// - Streaming (`stream: true`) answers are server-sent events as the real API sends them
//   (message_start, content_block_start/delta/stop, message_delta, message_stop); otherwise one
//   JSON message object.
// - `POST /v1/messages/count_tokens` answers `{"input_tokens": <a rough count>}`; `GET /v1/models`
//   a one-model list; `HEAD`/`GET /` 200. Anything else is 404 with an API-style error body.
// - Every request is recorded in order in `requests` (method, url, headers, parsed JSON body or
//   null), whatever the endpoint, before it is answered.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeMessagesApiOptions {
  /** The `command` of every Bash call the fake model makes. */
  toolCommand: string;
  /** The main loop's text after a tool_result (default `done`). */
  finalText?: string;
  /** The text of every other messages request (default `ok`). */
  sideText?: string;
  /** Main-loop requests answered with a tool call, at most (default: no limit). */
  maxToolCalls?: number;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; null for an empty or non-JSON body. */
  body: unknown;
  /** How it was answered: `tool_use` / `final` (main loop), `side`, or the endpoint's name. */
  answer: string;
}

export interface RecordedToolResult {
  tool_use_id: string;
  /** The block's content as text (text parts of an array content joined with `\n`). */
  content: string;
  is_error: boolean;
  /** The index in `requests` of the request that carried it. */
  requestIndex: number;
}

export interface FakeMessagesApi {
  /** `http://127.0.0.1:<port>`, for ANTHROPIC_BASE_URL. */
  url: string;
  requests: RecordedRequest[];
  /** The main-loop requests only (those whose tools include Bash), in order. */
  mainRequests(): RecordedRequest[];
  /** Every tool_result block the main loop sent back, in order. */
  toolResults(): RecordedToolResult[];
  close(): Promise<void>;
}

interface ContentBlock {
  type: string;
  [key: string]: unknown;
}
interface Message {
  role: string;
  content: string | ContentBlock[];
}
interface MessagesBody {
  model?: string;
  stream?: boolean;
  tools?: { name?: string }[];
  messages?: Message[];
}

type Reply =
  | { kind: 'tool_use'; id: string; command: string }
  | { kind: 'text'; text: string; answer: string };

export async function startFakeMessagesApi(opts: FakeMessagesApiOptions): Promise<FakeMessagesApi> {
  const requests: RecordedRequest[] = [];
  const results: RecordedToolResult[] = [];
  let toolCalls = 0;
  let ids = 0;

  function decide(body: MessagesBody, index: number): Reply {
    const isMain = (body.tools ?? []).some((tool) => tool.name === 'Bash');
    if (!isMain) return { kind: 'text', text: opts.sideText ?? 'ok', answer: 'side' };
    const last = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
    const blocks = Array.isArray(last?.content) ? last.content : [];
    const carried = blocks.filter((block) => block.type === 'tool_result');
    if (carried.length > 0) {
      for (const block of carried) results.push(toRecorded(block, index));
      return { kind: 'text', text: opts.finalText ?? 'done', answer: 'final' };
    }
    if (toolCalls >= (opts.maxToolCalls ?? Infinity)) {
      return { kind: 'text', text: opts.finalText ?? 'done', answer: 'final' };
    }
    toolCalls += 1;
    ids += 1;
    return {
      kind: 'tool_use',
      id: `toolu_fake_${String(ids).padStart(4, '0')}`,
      command: opts.toolCommand,
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const body = parseJson(raw);
    const path = (req.url ?? '/').split('?')[0];
    const record: RecordedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body,
      answer: '',
    };
    requests.push(record);
    const index = requests.length - 1;
    if (req.method === 'POST' && path === '/v1/messages') {
      const messages = (body ?? {}) as MessagesBody;
      const reply = decide(messages, index);
      record.answer = reply.kind === 'tool_use' ? 'tool_use' : reply.answer;
      const model = messages.model ?? 'claude-fake';
      if (messages.stream) sendStream(res, model, reply);
      else sendJson(res, 200, messageObject(model, reply));
    } else if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      record.answer = 'count_tokens';
      sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(raw.length / 4)) });
    } else if (req.method === 'GET' && path === '/v1/models') {
      record.answer = 'models';
      const model = {
        type: 'model',
        id: 'claude-fake',
        display_name: 'Fake',
        created_at: '2025-01-01T00:00:00Z',
      };
      sendJson(res, 200, { data: [model], has_more: false, first_id: model.id, last_id: model.id });
    } else if ((req.method === 'HEAD' || req.method === 'GET') && path === '/') {
      record.answer = 'root';
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(req.method === 'HEAD' ? undefined : 'ok');
    } else {
      record.answer = 'not_found';
      sendJson(res, 404, {
        type: 'error',
        error: { type: 'not_found_error', message: `no ${path}` },
      });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: String(err) } });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mainRequests: () => requests.filter((r) => r.answer === 'tool_use' || r.answer === 'final'),
    toolResults: () => [...results],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function toRecorded(block: ContentBlock, requestIndex: number): RecordedToolResult {
  const content = block.content;
  const text = Array.isArray(content)
    ? content
        .map((part: { type?: string; text?: string }) =>
          part.type === 'text' ? (part.text ?? '') : '',
        )
        .join('\n')
    : String(content ?? '');
  return {
    tool_use_id: String(block.tool_use_id ?? ''),
    content: text,
    is_error: block.is_error === true,
    requestIndex,
  };
}

function messageObject(model: string, reply: Reply): Record<string, unknown> {
  const content =
    reply.kind === 'tool_use'
      ? [{ type: 'tool_use', id: reply.id, name: 'Bash', input: { command: reply.command } }]
      : [{ type: 'text', text: reply.text }];
  return {
    id: `msg_fake_${Date.now().toString(36)}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: reply.kind === 'tool_use' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

/** The answer as the API's server-sent events, one content block at index 0. */
function sendStream(res: ServerResponse, model: string, reply: Reply): void {
  const whole = messageObject(model, reply);
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const event = (type: string, data: Record<string, unknown>): void => {
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  event('message_start', {
    message: {
      ...whole,
      content: [],
      stop_reason: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  });
  if (reply.kind === 'tool_use') {
    event('content_block_start', {
      index: 0,
      content_block: { type: 'tool_use', id: reply.id, name: 'Bash', input: {} },
    });
    const json = JSON.stringify({ command: reply.command });
    event('content_block_delta', {
      index: 0,
      delta: { type: 'input_json_delta', partial_json: json },
    });
  } else {
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply.text } });
  }
  event('content_block_stop', { index: 0 });
  event('message_delta', {
    delta: { stop_reason: whole.stop_reason, stop_sequence: null },
    usage: { output_tokens: 5 },
  });
  event('message_stop', {});
  res.end();
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function parseJson(raw: string): unknown {
  if (raw === '') return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}
