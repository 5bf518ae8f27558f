// A real Gemini CLI for tests: the pinned npm package from the agent cache (agent-cache.ts), run
// for one non-interactive turn (`gemini -p`) against a loopback model (fake-gemini-api.ts).
//
// MEASURED FACTS (Gemini CLI 0.61.0, Linux x64, Node 20, as root, by hand and in
// gemini-link.test.ts):
// - Install: 100 MB (a Node bundle; the optional native node-pty and keytar are not built);
//   12.1 s from the npm registry. A turn with one tool call takes 5-9 s (most of it start-up).
// - `gemini -p "<prompt>" --yolo < /dev/null` with GOOGLE_GEMINI_BASE_URL, GEMINI_API_KEY and
//   `~/.gemini/settings.json` choosing the API key and no folder trust (agents.md): one
//   `:generateContent` (routing), then `:streamGenerateContent?alt=sse` per model step.
// - Events in such a turn, in order: SessionStart (source "startup"), BeforeAgent (prompt),
//   PreCompress (trigger "auto", before each model step, even with nothing to compress),
//   BeforeTool, AfterTool, AfterAgent (prompt, prompt_response, stop_hook_active), SessionEnd
//   (reason "exit"); one session_id throughout. Every payload has session_id, transcript_path, cwd,
//   hook_event_name, timestamp. BeforeTool: tool_name "run_shell_command", tool_input {command};
//   AfterTool adds tool_response {llmContent, returnDisplay}.
// - A BeforeTool `{"decision": "deny", "reason": r}` reaches the model as the functionResponse
//   `{"error": "Tool execution blocked: <r>"}`; an allowed command's as `{"output": "...<out>..."}`.
// - Handler timeouts are milliseconds; hooks run with GEMINI_PROJECT_DIR, GEMINI_SESSION_ID and
//   CLAUDE_PROJECT_DIR (= cwd) set.
import { cachedAgentInstaller, runAgentProcess, type AgentTurn } from '../helpers/agent-process.js';

export const GEMINI_CLI_VERSION = '0.61.0';

/**
 * The settings Gemini CLI needs to run a turn here: the API key as its auth, folder trust off
 * (agents.md); no update check (it would ask the npm registry) and no usage statistics.
 */
export const GEMINI_BASE_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
};

/** The `gemini` script (bundle/gemini.js, run with node), installing the package first if needed. */
export const installGeminiCli = cachedAgentInstaller({
  package: '@google/gemini-cli',
  version: GEMINI_CLI_VERSION,
  file: 'bundle/gemini.js',
  env: (dir) => ({ HOME: dir }),
  timeout: 60_000,
});

export type GeminiTurn = AgentTurn;

/**
 * One `gemini -p <prompt> --yolo` turn in `cwd`, HOME `home` (its `.gemini/settings.json` is the
 * user scope), model requests to `baseUrl`. Clean environment, stdin /dev/null; its own process
 * group, killed on timeout and once the turn is over.
 */
export async function runGeminiTurn(opts: {
  home: string;
  cwd: string;
  baseUrl: string;
  prompt: string;
  script: string;
  timeoutMs?: number;
}): Promise<GeminiTurn> {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: opts.home,
    GOOGLE_GEMINI_BASE_URL: opts.baseUrl,
    GEMINI_API_KEY: 'hookpm-fake-gemini-key',
    NO_COLOR: '1',
  };
  return runAgentProcess(process.execPath, [opts.script, '-p', opts.prompt, '--yolo'], {
    cwd: opts.cwd,
    env,
    timeoutMs: opts.timeoutMs,
  });
}
