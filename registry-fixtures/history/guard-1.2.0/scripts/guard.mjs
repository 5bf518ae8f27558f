#!/usr/bin/env node
// PreToolUse (Bash): denies destructive shell commands with a reason; allows everything else
// silently (exit 0, no output). The payload arrives on stdin and is never executed; the checks
// are in judge.mjs. A crash exits non-zero, which the handler's `onFailure: "block"` turns into a
// deny: guard never fails open.
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { decide } from './judge.mjs';

const input = await readStdin();
let payload;
try {
  payload = JSON.parse(input);
} catch {
  process.exit(0); // not a hook payload: nothing to judge
}
const command = payload?.tool_input?.command;
if (typeof command !== 'string' || command.trim() === '') process.exit(0);

const context = {
  project: resolve(process.env.CLAUDE_PROJECT_DIR || payload.cwd || process.cwd()),
  cwd: resolve(
    typeof payload.cwd === 'string' ? payload.cwd : process.env.CLAUDE_PROJECT_DIR || process.cwd(),
  ),
  home: process.env.HOME || homedir(),
};
const output = decide(command, context);
if (output !== null) process.stdout.write(`${JSON.stringify(output)}\n`);
process.exit(0);

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
