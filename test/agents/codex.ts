// A real Codex for tests: the pinned npm package from the agent cache (agent-cache.ts), run for
// one non-interactive turn (`codex exec`) against a loopback model (fake-responses-api.ts).
//
// MEASURED FACTS (Codex 0.171.0, Linux x64, as root, by hand and in codex-link.test.ts):
// - Install: 424 MB (the package and its platform package @openai/codex-linux-x64 with the native
//   binary); 11.4 s from the npm registry. A turn with one tool call takes 1.3-1.6 s.
// - `codex exec --skip-git-repo-check --dangerously-bypass-hook-trust "<prompt>"` with CODEX_HOME
//   holding config.toml (a custom provider: agents.md) sends two `POST /v1/responses`.
// - The tools of a model Codex has no metadata for (as here): exec_command, write_stdin,
//   request_user_input, view_image, a multi_agent_v1 namespace, get/create/update_goal and
//   web_search; no apply_patch (a custom_tool_call of it is answered "unsupported custom tool
//   call"), so every edit goes through exec_command, which hooks see as Bash.
// - Events in such a turn, in order: SessionStart (source "startup"), UserPromptSubmit, PreToolUse,
//   PostToolUse, Stop, SessionEnd (reason "other"); one session_id throughout. Payload keys:
//     SessionStart      session_id, transcript_path, cwd, hook_event_name, model, permission_mode,
//                       source
//     UserPromptSubmit  + turn_id, prompt
//     PreToolUse        session_id, turn_id, transcript_path, cwd, hook_event_name, model,
//                       permission_mode, tool_name ("Bash"), tool_input ({command}), tool_use_id
//     PostToolUse       + tool_response (the command's output as a string)
//     Stop              session_id, turn_id, ..., stop_hook_active, last_assistant_message
//     SessionEnd        session_id, transcript_path, cwd, hook_event_name, reason
// - A PreToolUse deny reaches the model as the function_call_output
//   `Command blocked by PreToolUse hook: <reason>. Command: <command>`.
// - `<project>/.codex/hooks.json` runs only when config.toml trusts the project
//   (`[projects."<dir>"] trust_level = "trusted"`); an untrusted project's hooks are not read.
// - Codex warns "clamping SessionEnd hook timeout to 3s" for a longer SessionEnd timeout (link
//   writes 3 there).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedAgentInstaller, runAgentProcess, type AgentTurn } from '../helpers/agent-process.js';

export const CODEX_VERSION = '0.171.0';

/** The `codex` launcher (bin/codex.js, run with node), installing the package first if needed. */
export const installCodex = cachedAgentInstaller({
  package: '@openai/codex',
  version: CODEX_VERSION,
  file: 'bin/codex.js',
});

/**
 * Writes `<codexHome>/config.toml`: a model provider at `baseUrl` (a fake Responses API), no
 * retries, no approval question or sandbox (agents.md), and `trustedProjects` trusted.
 */
export function writeCodexConfig(
  codexHome: string,
  baseUrl: string,
  trustedProjects: readonly string[] = [],
): void {
  mkdirSync(codexHome, { recursive: true });
  const config = [
    'model = "gpt-hookpm-fake"',
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    '',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = "${baseUrl}"`,
    'wire_api = "responses"',
    'env_key = "HOOKPM_FAKE_OPENAI_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    // A project's .codex/ (its hooks.json) is read only when the project is trusted.
    ...trustedProjects.flatMap((dir) => [
      `[projects.${JSON.stringify(dir)}]`,
      'trust_level = "trusted"',
      '',
    ]),
  ].join('\n');
  writeFileSync(join(codexHome, 'config.toml'), config);
}

export type CodexTurn = AgentTurn;

/**
 * One `codex exec` turn in `cwd`, HOME `home`, CODEX_HOME `<home>/.codex` (its config.toml written
 * by writeCodexConfig), with `--dangerously-bypass-hook-trust` (hooks run without the trust review
 * a user does once in `/hooks`). Clean environment; its own process group, killed on timeout.
 */
export async function runCodexTurn(opts: {
  home: string;
  cwd: string;
  prompt: string;
  launcher: string;
  timeoutMs?: number;
}): Promise<CodexTurn> {
  const args = [
    opts.launcher,
    'exec',
    '--skip-git-repo-check',
    '--dangerously-bypass-hook-trust',
    opts.prompt,
  ];
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: opts.home,
    CODEX_HOME: join(opts.home, '.codex'),
    HOOKPM_FAKE_OPENAI_KEY: 'sk-hookpm-fake',
    NO_COLOR: '1',
  };
  return runAgentProcess(process.execPath, args, { cwd: opts.cwd, env, timeoutMs: opts.timeoutMs });
}
