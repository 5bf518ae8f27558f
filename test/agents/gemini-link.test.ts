// The Gemini CLI link end to end: a real Gemini CLI (pinned, installed by the test setup into the
// agent cache outside the checkout: agent-cache.ts, gemini-cli.ts) running `gemini -p` against
// the loopback fake Gemini API, with guard installed by hookpm and `hookpm link gemini`. The
// commands asked for are harmless if a hook fails to stop them: `git push --force origin main` in
// a repository without remotes, and `echo`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startFakeGeminiApi } from './fake-gemini-api.js';
import { GEMINI_BASE_SETTINGS, installGeminiCli, runGeminiTurn } from './gemini-cli.js';
import { FORCE_PUSH, GUARD_REASON, useLinkedAgent } from '../helpers/linked-agent.js';
import { expectCleanTurn } from '../helpers/agent-process.js';

// The user's settings, with a hook of their own and a hooks setting that is not an event
// (`hooks.disabled`), which link and unlink must keep byte for byte.
const BEFORE = `{
  "security": ${JSON.stringify(GEMINI_BASE_SETTINGS.security)},
  "general": ${JSON.stringify(GEMINI_BASE_SETTINGS.general)},
  "privacy": ${JSON.stringify(GEMINI_BASE_SETTINGS.privacy)},
  "ui": {"theme": "GitHub"},
  "hooks": {
    "disabled": [],
    "AfterAgent": [{"hooks": [{"type": "command", "command": "true", "timeout": 5000}]}]
  }
}
`;

const gemini = useLinkedAgent({ agent: 'gemini', before: BEFORE, installAgent: installGeminiCli });
const { hookpm, settingsFile } = gemini;

async function turn(toolCommand: string): Promise<Record<string, unknown>[]> {
  const api = await startFakeGeminiApi(toolCommand);
  try {
    const run = await runGeminiTurn({
      home: gemini.home,
      cwd: gemini.repo,
      baseUrl: api.url,
      prompt: 'Run the command.',
      script: gemini.binary,
      timeoutMs: 80_000,
    });
    expectCleanTurn(run);
    return api.toolResponses();
  } finally {
    await api.close();
  }
}

describe('hookpm inside a real Gemini CLI (the link end to end)', () => {
  it("W1: link writes Gemini CLI's event names, the timeout in ms, and says which events are not linked", () => {
    expect(gemini.linkOutput).toContain('BeforeTool (PreToolUse)');
    expect(gemini.linkOutput).toMatch(/not linked.*BeforeModel, AfterModel, BeforeToolSelection/);
    const linked = JSON.parse(readFileSync(settingsFile(), 'utf8')) as {
      hooks: Record<string, { hooks: { timeout: number }[] }[]>;
      ui: unknown;
    };
    expect(linked.ui).toEqual({ theme: 'GitHub' });
    expect(linked.hooks['BeforeTool']?.[0]?.hooks[0]?.timeout).toBe(600_000);
    expect(Object.keys(linked.hooks)).not.toContain('PreToolUse');
    expect(Object.keys(linked.hooks)).not.toContain('BeforeModel');
  });

  it("a requested `git push --force` is blocked with guard's reason", async () => {
    const responses = await turn(FORCE_PUSH);
    expect(responses).toHaveLength(1);
    expect(String(responses[0]?.['error'])).toContain(`Tool execution blocked: ${GUARD_REASON}`);
  }, 90_000);

  it('an allowed command runs and its output reaches the model', async () => {
    const responses = await turn('echo hookpm-linked-ok');
    expect(responses[0]?.['error']).toBeUndefined();
    expect(String(responses[0]?.['output'])).toContain('hookpm-linked-ok');
  }, 90_000);

  it('after `hookpm disable guard`, a new session is not blocked (the command runs: git says there is no origin)', async () => {
    expect((await hookpm(['disable', 'guard'])).code).toBe(0);
    const responses = await turn(FORCE_PUSH);
    expect(JSON.stringify(responses[0])).not.toContain('blocked');
    expect(JSON.stringify(responses[0])).toMatch(/origin/);
    expect((await hookpm(['enable', 'guard', '--yes'])).code).toBe(0);
  }, 90_000);

  it('after `hookpm unlink gemini`, settings.json is byte-identical to before link, and guard no longer runs', async () => {
    expect((await hookpm(['unlink', 'gemini'])).code).toBe(0);
    expect(readFileSync(settingsFile(), 'utf8')).toBe(BEFORE);
    const responses = await turn(FORCE_PUSH);
    expect(JSON.stringify(responses[0])).not.toContain('blocked');
  }, 90_000);
});
