import { isPlainObject } from '../json/describe-value.js';
import { promptUrls } from '../text/prompt-urls.js';
import type { WireEvent } from './agent.js';
import { GEMINI_EVENT_OF, GEMINI_NOTIFICATION_TYPES, GEMINI_TOOLS } from './gemini-names.js';

/**
 * A Gemini CLI hook payload (`createBaseInput` and the `fire*Event` methods of
 * packages/core/src/hooks/hookEventHandler.ts in github:google-gemini/gemini-cli: `session_id`,
 * `transcript_path`, `cwd`, `hook_event_name`, `timestamp`, then the event's fields) as the engine
 * event plugins match on: the event renamed (gemini-names.ts), the tool and its arguments as Claude
 * Code names them (an MCP tool, `mcp_<server>_<tool>` there, as `mcp__<server>__<tool>` from its
 * `mcp_context`, since a server name may hold `_`), AfterAgent's `prompt_response` also as
 * `last_assistant_message`, an AfterTool whose `tool_response.error` is set as PostToolUseFailure
 * with that `error`. Gemini's own fields stay beside them. An event outside GEMINI_EVENT_OF: null.
 */
export function decodeGeminiPayload(payload: Readonly<Record<string, unknown>>): WireEvent | null {
  const name = payload['hook_event_name'];
  if (typeof name !== 'string' || !Object.hasOwn(GEMINI_EVENT_OF, name)) return null;
  let event = GEMINI_EVENT_OF[name]!;
  const input: Record<string, unknown> = { ...payload, hook_event_name: event };
  const tool = payload['tool_name'];
  if (typeof tool === 'string' && Object.hasOwn(GEMINI_TOOLS, tool)) {
    const known = GEMINI_TOOLS[tool]!;
    input['tool_name'] = known.name;
    const args = payload['tool_input'];
    if (isPlainObject(args)) input['tool_input'] = renamedArguments(args, known.fields);
    if (tool === 'web_fetch' && isPlainObject(args)) input['tool_input'] = withFetchedUrl(args);
  }
  const mcp = payload['mcp_context'];
  if (typeof tool === 'string' && tool.startsWith('mcp_') && isPlainObject(mcp)) {
    const server = mcp['server_name'];
    const name = mcp['tool_name'];
    if (typeof server === 'string' && typeof name === 'string')
      input['tool_name'] = `mcp__${server}__${name}`;
  }
  const response = payload['tool_response'];
  if (event === 'PostToolUse' && isPlainObject(response) && response['error'] != null) {
    event = 'PostToolUseFailure';
    input['hook_event_name'] = event;
    input['error'] = describeError(response['error']);
  }
  if (event === 'Stop' && typeof payload['prompt_response'] === 'string')
    input['last_assistant_message'] = payload['prompt_response'];
  const type = payload['notification_type'];
  if (typeof type === 'string' && Object.hasOwn(GEMINI_NOTIFICATION_TYPES, type))
    input['notification_type'] = GEMINI_NOTIFICATION_TYPES[type];
  return { event, input };
}

/**
 * A Gemini CLI tool's arguments under Claude Code's names (`fields`: Gemini CLI's name to Claude
 * Code's), the others as they are. A renamed argument replaces one the model wrote under its new
 * name (`dir_path` replaces a `path` beside it): it is what Gemini CLI reads, so a plugin judges
 * what runs. Only `fields`' own keys rename (`constructor` keeps its name).
 */
function renamedArguments(
  args: Readonly<Record<string, unknown>>,
  fields: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const entries = Object.entries(args);
  const kept = entries.filter(([key]) => !Object.hasOwn(fields, key));
  const renamed = entries.flatMap(([key, value]) =>
    Object.hasOwn(fields, key) ? [[fields[key]!, value] as const] : [],
  );
  return Object.fromEntries([...kept, ...renamed]);
}

/**
 * Gemini CLI's `web_fetch` takes no `url`: it fetches the http(s) URLs its `prompt` names
 * (`parsePrompt` in packages/core/src/tools/web-fetch.ts of github:google-gemini/gemini-cli: each
 * whitespace-separated word holding `://` that parses as a URL). Claude Code's WebFetch has the one
 * `url` it fetches, which a plugin's guard and its `if` rule (engine.md F2: `WebFetch(pattern)` is
 * matched against `url`) judge: a prompt naming exactly one URL gets it as `url`, as Gemini CLI
 * normalises it, unless the model wrote a `url` argument itself (Gemini CLI ignores it, so it is
 * replaced). A prompt naming several URLs gets none, as one `url` would hide the others; the `if`
 * rule then judges every URL of the prompt (if-rule.ts).
 */
function withFetchedUrl(args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { url: _ignored, ...rest } = args;
  const prompt = args['prompt'];
  const urls = typeof prompt === 'string' ? promptUrls(prompt) : [];
  return urls.length === 1 ? { ...rest, url: urls[0] } : rest;
}

function describeError(error: unknown): string {
  if (typeof error === 'string') return error;
  if (isPlainObject(error) && typeof error['message'] === 'string') return error['message'];
  return JSON.stringify(error);
}
