// A real Claude Code for tests: the pinned npm package from the agent cache (agent-cache.ts), run
// for one non-interactive turn (`claude -p`) against a loopback model (fake-messages-api.ts).
//
// MEASURED FACTS (Claude Code 2.1.332, Linux x64, as root, `claude -p ... --output-format json`,
// a fake model making one Bash call). claude-code.test.ts pins the request and hook behaviours;
// the install, TMPDIR, hook-environment and transcript facts were observed by hand.
// - Install: ~385 MB; 10 s from the npm registry with an empty npm cache, 7-9 s with npm's cache
//   warm; a cache hit costs only the `--version` check. A warm turn takes 0.6-1.1 s. The
//   postinstall hard-links the platform package's `claude` to
//   `node_modules/@anthropic-ai/claude-code/bin/claude.exe`. It honours TMPDIR (it writes
//   `$TMPDIR/claude-<uid>/` and `$TMPDIR/cc-socks/<pid>.sock`), so runClaudeTurn gives it a
//   private one.
// - Requests: only `POST /v1/messages?beta=true` (stream: true, 12 tools incl. Bash), one per
//   model step; no count_tokens, models or side (title) requests. `messages` may hold entries
//   with `role: "system"` besides user/assistant.
// - Events that fire in a `-p` turn whose Bash call is allowed (`--allowedTools Bash`), in order:
//   SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, SessionEnd. Notification,
//   PreCompact, SubagentStart, SubagentStop do not. PermissionRequest fires (after PreToolUse,
//   instead of PostToolUse) when the call is not allowed: without --allowedTools, `touch x` is
//   denied in -p mode (listed in permission_denials; `echo` is allowed as read-only).
//   PostToolUseFailure fires instead of PostToolUse when the command fails (`exit 3`).
// - Payload keys (stdin JSON) — all carry session_id (the same in every event of the turn),
//   transcript_path, cwd (the turn's cwd), hook_event_name:
//     SessionStart      + source ("startup")
//     UserPromptSubmit  + prompt_id, permission_mode ("default"), prompt
//     PreToolUse        + prompt_id, permission_mode, effort ({level}), tool_name ("Bash"),
//                         tool_input ({command}), tool_use_id
//     PermissionRequest + prompt_id, permission_mode, effort, tool_name, tool_input,
//                         permission_suggestions
//     PostToolUse       + prompt_id, permission_mode, effort, tool_name, tool_input, tool_use_id,
//                         tool_response ({stdout, stderr, interrupted, isImage, noOutputExpected}),
//                         duration_ms
//     PostToolUseFailure + prompt_id, permission_mode, effort, tool_name, tool_input, tool_use_id,
//                          error ("Exit code 3"), is_interrupt, duration_ms
//     Stop              + prompt_id, permission_mode, effort, stop_hook_active,
//                         last_assistant_message, background_tasks, session_crons
//     SessionEnd        + prompt_id, reason ("other")
//   prompt_id is the same from UserPromptSubmit on. Hooks run with cwd = the turn's cwd and env
//   CLAUDE_PROJECT_DIR (= cwd), CLAUDE_CODE_SESSION_ID, CLAUDECODE=1,
//   CLAUDE_CODE_ENTRYPOINT=sdk-cli.
// - Dedupe: the same command string in ~/.claude/settings.json and <cwd>/.claude/settings.json
//   (or twice in one file, seen by hand) runs ONCE per event; commands that differ (even by a
//   trailing space) run each.
// - PreToolUse deny (stdout JSON hookSpecificOutput.permissionDecision "deny", exit 0): the
//   command does not run; the model gets tool_result {is_error: true, content:
//   "PreToolUse:Bash hook error: <reason>"} exactly; the result lists {tool_name, tool_use_id,
//   tool_input} under permission_denials; the turn goes on (the model is asked again).
// - PreToolUse exit 2: blocks like a deny; the model gets is_error content
//   "PreToolUse:Bash hook error: [<hook command>]: <stderr as written, trailing newline kept>";
//   also listed in permission_denials. Exit 1: non-blocking — the command runs, its stderr
//   reaches neither the model nor claude's stderr (only the transcript, "Failed with
//   non-blocking status code: <stderr>").
// - PreToolUse stdout {"continue": false, "stopReason": "x"}: does NOT block — the command runs;
//   then the turn ends with no further model request: result {terminal_reason: "hook_stopped",
//   stop_reason: "tool_use", result: "", is_error: false, subtype: "success"}, exit code 0; the
//   stopReason is in neither the stdout JSON nor any request (transcript only).
// - Stop stdout {"decision": "block", "reason": "r"}: the turn continues with another model
//   request whose last user message is a string containing "Stop hook feedback:\nr" (inside a
//   <system-reminder>), followed by a role "system" message 'Stop hook blocking error from
//   command: "<hook command>": r'; the next Stop payload has stop_hook_active: true.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  cachedAgentInstaller,
  expectCleanTurn,
  runAgentProcess,
  type AgentTurn,
} from '../helpers/agent-process.js';
import { startFakeMessagesApi, type FakeMessagesApi } from './fake-messages-api.js';

export const CLAUDE_CODE_VERSION = '2.1.332';

/**
 * The path of the runnable `claude` binary (the native executable the package's postinstall puts
 * at `bin/claude.exe`), installing the package into the agent cache first if needed. Checked by
 * running `claude --version`, which must print CLAUDE_CODE_VERSION.
 */
export const installClaudeCode = cachedAgentInstaller({
  package: '@anthropic-ai/claude-code',
  version: CLAUDE_CODE_VERSION,
  file: 'bin/claude.exe',
  env: () => ({ DISABLE_AUTOUPDATER: '1' }),
});

export interface ClaudeTurnOptions {
  /** The private HOME (its `.claude/settings.json` is the user scope). */
  home: string;
  /** The working directory (the project: `<cwd>/.claude/settings.json`). */
  cwd: string;
  /** ANTHROPIC_BASE_URL, e.g. a fake Messages API's `url`. */
  baseUrl: string;
  prompt: string;
  /** `--allowedTools`, e.g. `['Bash']` to run a Bash call without a question. */
  allowedTools?: string[];
  /** Added to (and overriding) the clean environment. */
  extraEnv?: Record<string, string>;
  /** The process group is killed (SIGKILL) after this long; default 60 s. */
  timeoutMs?: number;
  /** The binary; default: installClaudeCode()'s. */
  binary?: string;
  /** More arguments after the usual ones (e.g. `--debug-file <file>`). */
  extraArgs?: string[];
}

export interface ClaudeTurn extends AgentTurn {
  /** stdout parsed as the `--output-format json` result object; null when it is not JSON. */
  result: unknown;
}

/**
 * One `claude -p <prompt> --output-format json` turn. The environment is clean: PATH (and SHELL
 * when set) kept, HOME private, TMPDIR `<home>/tmp` (created), ANTHROPIC_BASE_URL and a dummy
 * ANTHROPIC_API_KEY, no non-essential traffic, no auto-updater, no telemetry, NO_COLOR; then
 * extraEnv. stdin is /dev/null. The binary runs in its own process group, which is killed
 * (SIGKILL, hooks included) on timeout and once the turn is over. Rejects only when the binary
 * cannot be started; for a failed turn, look at exitCode, timedOut and result.
 */
export async function runClaudeTurn(opts: ClaudeTurnOptions): Promise<ClaudeTurn> {
  const binary = opts.binary ?? (await installClaudeCode());
  const args = ['-p', opts.prompt, '--output-format', 'json'];
  if (opts.allowedTools?.length) args.push('--allowedTools', opts.allowedTools.join(','));
  args.push(...(opts.extraArgs ?? []));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: opts.home,
    ANTHROPIC_BASE_URL: opts.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-hookpm-fake-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    NO_COLOR: '1',
    ...(process.env.SHELL ? { SHELL: process.env.SHELL } : {}),
    TMPDIR: join(opts.home, 'tmp'),
    ...opts.extraEnv,
  };
  mkdirSync(env.TMPDIR ?? join(opts.home, 'tmp'), { recursive: true });
  const turn = await runAgentProcess(binary, args, {
    cwd: opts.cwd,
    env,
    timeoutMs: opts.timeoutMs,
  });
  return { ...turn, result: parseResult(turn.stdout) };
}

function parseResult(stdout: string): unknown {
  try {
    return JSON.parse(stdout.trim()) as unknown;
  } catch {
    return null;
  }
}

/**
 * One `-p` turn in which the model (a fresh fake Messages API, added to `apis` for the caller to
 * close) asks to run `toolCommand` as a Bash call, up to `maxToolCalls` times, on the prompt "Run
 * the command.". Fails the test unless Claude Code ended the turn cleanly (expectCleanTurn).
 */
export async function commandTurn(
  opts: Omit<ClaudeTurnOptions, 'baseUrl' | 'prompt'> & {
    toolCommand: string;
    maxToolCalls: number;
    apis: FakeMessagesApi[];
  },
): Promise<{ api: FakeMessagesApi; run: ClaudeTurn }> {
  const { toolCommand, maxToolCalls, apis, ...turn } = opts;
  const api = await startFakeMessagesApi({ toolCommand, maxToolCalls });
  apis.push(api);
  const run = await runClaudeTurn({ ...turn, baseUrl: api.url, prompt: 'Run the command.' });
  expectCleanTurn(run);
  return { api, run };
}
