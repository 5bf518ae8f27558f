#!/usr/bin/env node
// PreToolUse and PostToolUse (all tools): appends one JSON line per call to
// $CLAUDE_PLUGIN_DATA/audit.jsonl: {time, event, session, tool, toolUseId, cwd, input[, ok]}.
// `input` is a one-line summary of the tool input, with obvious secrets masked, cut to
// MAX_SUMMARY characters. It never blocks: no output, exit 0, whatever happens.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const MAX_SUMMARY = 300;

try {
  const payload = JSON.parse(await readStdin());
  const dir = process.env.CLAUDE_PLUGIN_DATA || process.env.PLUGIN_DATA;
  if (!dir) throw new Error('CLAUDE_PLUGIN_DATA is not set; nothing logged');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // One write of one line with O_APPEND: concurrent handlers never interleave within a line.
  appendFileSync(join(dir, 'audit.jsonl'), `${JSON.stringify(record(payload))}\n`, { mode: 0o600 });
} catch (error) {
  process.stderr.write(`audit-log: ${error instanceof Error ? error.message : String(error)}\n`);
}
process.exit(0);

function record(payload) {
  const entry = {
    time: new Date().toISOString(),
    event: str(payload?.hook_event_name),
    session: str(payload?.session_id),
    tool: str(payload?.tool_name),
    toolUseId: str(payload?.tool_use_id),
    cwd: str(payload?.cwd),
    input: summarize(payload?.tool_name, payload?.tool_input),
  };
  if (payload?.hook_event_name === 'PostToolUse') entry.ok = !isFailure(payload.tool_response);
  return entry;
}

/** The primary input of well-known tools, else the compact JSON of the whole input. */
function summarize(tool, input) {
  if (input === undefined || input === null) return null;
  let text;
  if (tool === 'Bash' && typeof input.command === 'string') text = input.command;
  else if (typeof input.file_path === 'string') text = input.file_path;
  else if (typeof input.pattern === 'string') text = input.pattern;
  else if (typeof input.url === 'string') text = input.url;
  else text = JSON.stringify(input) ?? '';
  const masked = mask(text).replace(/\s+/g, ' ').trim();
  return masked.length > MAX_SUMMARY ? `${masked.slice(0, MAX_SUMMARY - 3)}...` : masked;
}

/** Masks values that look like credentials: KEY=..., token: ..., bearer ..., user:pass@ in URLs. */
function mask(text) {
  return text
    .replace(
      /([A-Za-z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD)[A-Za-z0-9_]*\s*[=:]\s*)("[^"]*"|'[^']*'|\S+)/gi,
      '$1***',
    )
    .replace(/(bearer\s+)[A-Za-z0-9._~+/-]+=*/gi, '$1***')
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1***@');
}

function isFailure(response) {
  if (response === null || typeof response !== 'object') return false;
  return response.success === false || response.is_error === true || response.interrupted === true;
}

function str(value) {
  return typeof value === 'string' ? value : null;
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
