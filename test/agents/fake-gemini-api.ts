// A scripted stand-in for the Gemini API on loopback, for driving a real Gemini CLI
// (GOOGLE_GEMINI_BASE_URL=<url>) through one tool call without any network (agents.md,
// "Gemini CLI").
//
// Contracts:
// - A real node:http server on 127.0.0.1, on a port the system picks; `url` has no trailing slash.
// - `POST /v1beta/models/<model>:generateContent` is Gemini CLI's routing question (no tools): the
//   answer is one JSON candidate whose text is the classifier's JSON (`complexity_reasoning`,
//   `complexity_score`, the fields Gemini CLI 0.61.0's NumericalClassifierStrategy reads).
// - `POST ...:streamGenerateContent?alt=sse` is the main loop: when no `functionResponse` part is
//   in the request's `contents`, the answer is a `functionCall` of `run_shell_command` with
//   `{"command": toolCommand}`; otherwise each functionResponse of the last content is recorded
//   (`toolResponses()`) and the answer is the text `done`. One SSE `data:` line, finishReason STOP.
// - `...:countTokens` answers `{"totalTokens": 1}`; anything else is 404.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Part {
  text?: string;
  functionResponse?: { name?: string; response?: Record<string, unknown> };
}

export interface FakeGeminiApi {
  url: string;
  /** The `response` of every functionResponse part Gemini CLI sent back, in order. */
  toolResponses(): Record<string, unknown>[];
  close(): Promise<void>;
}

export async function startFakeGeminiApi(toolCommand: string): Promise<FakeGeminiApi> {
  const responses: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const url = req.url ?? '';
      let contents: { parts?: Part[] }[] = [];
      try {
        contents = (JSON.parse(body) as { contents?: { parts?: Part[] }[] }).contents ?? [];
      } catch {
        contents = [];
      }
      const json = (value: unknown) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.method === 'POST' && url.includes(':streamGenerateContent')) {
        const returned = contents.some((c) => (c.parts ?? []).some((p) => p.functionResponse));
        for (const part of contents.at(-1)?.parts ?? [])
          if (part.functionResponse) responses.push(part.functionResponse.response ?? {});
        const parts = returned
          ? [{ text: 'done' }]
          : [{ functionCall: { name: 'run_shell_command', args: { command: toolCommand } } }];
        const chunk = {
          candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
        };
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify(chunk)}\n\n`);
      } else if (req.method === 'POST' && url.includes(':generateContent')) {
        const text = JSON.stringify({ complexity_reasoning: 'one command', complexity_score: 1 });
        json({
          candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }],
        });
      } else if (req.method === 'POST' && url.includes(':countTokens')) {
        json({ totalTokens: 1 });
      } else {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    toolResponses: () => [...responses],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
