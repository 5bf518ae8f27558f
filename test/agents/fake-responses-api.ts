// A scripted stand-in for the OpenAI Responses API on loopback, for driving a real Codex through
// one tool call without any network (agents.md, "Codex").
//
// Contracts:
// - A real node:http server on 127.0.0.1, on a port the system picks; `url` ends in `/v1`, for a
//   custom model provider's `base_url`.
// - `POST /v1/responses` (Codex sends `stream: true`): when the request's `input` holds no
//   `function_call_output` item, the answer is a `function_call` of `exec_command` with arguments
//   `{"cmd": toolCommand}`; otherwise each such item is recorded (`toolOutputs()`) and the answer is
//   an assistant `message` with the `output_text` `done`. Both as server-sent events:
//   response.created, response.output_item.added, response.output_item.done, response.completed
//   (with `usage`).
// - Anything else is 404. Every request is counted in `requests`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeResponsesApi {
  url: string;
  requests: number;
  /** The `output` of every `function_call_output` item Codex sent back, in order. */
  toolOutputs(): string[];
  close(): Promise<void>;
}

interface InputItem {
  type?: string;
  output?: unknown;
}

export async function startFakeResponsesApi(toolCommand: string): Promise<FakeResponsesApi> {
  const outputs: string[] = [];
  let requests = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      requests += 1;
      if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      let input: InputItem[] = [];
      try {
        input = ((JSON.parse(body) as { input?: InputItem[] }).input ?? []).filter(Boolean);
      } catch {
        input = [];
      }
      const returned = input.filter((item) => item.type === 'function_call_output');
      for (const item of returned)
        outputs.push(typeof item.output === 'string' ? item.output : JSON.stringify(item.output));
      const n = requests;
      const item =
        returned.length === 0
          ? {
              type: 'function_call',
              id: `fc_${n}`,
              call_id: `call_${n}`,
              name: 'exec_command',
              arguments: JSON.stringify({ cmd: toolCommand }),
            }
          : {
              type: 'message',
              id: `msg_${n}`,
              role: 'assistant',
              content: [{ type: 'output_text', text: 'done', annotations: [] }],
            };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (type: string, fields: object) =>
        res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`);
      const response = { id: `resp_${n}` };
      send('response.created', { response });
      send('response.output_item.added', { output_index: 0, item });
      send('response.output_item.done', { output_index: 0, item });
      const usage = { input_tokens: 1, output_tokens: 1, total_tokens: 2 };
      send('response.completed', { response: { ...response, usage } });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests;
    },
    toolOutputs: () => [...outputs],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
