// The Codex link end to end: a real Codex (pinned, installed by the test setup into the agent
// cache outside the checkout: agent-cache.ts, codex.ts) running `codex exec` against the loopback
// fake Responses API, with guard installed by hookpm and `hookpm link codex`. The commands asked
// for are harmless if a hook fails to stop them: `git push --force origin main` in a repository
// without remotes, and `echo`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installCodex, runCodexTurn, writeCodexConfig } from './codex.js';
import { startFakeResponsesApi } from './fake-responses-api.js';
import { FORCE_PUSH, GUARD_REASON, useLinkedAgent } from '../helpers/linked-agent.js';
import { expectCleanTurn } from '../helpers/agent-process.js';

// The user's own Codex hook, which link and unlink must keep byte for byte (Codex reads only
// `description` and `hooks` at the top: `HooksFile` refuses other keys, measured).
const BEFORE =
  '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": 5}]}]},\n  "description": "mine"}\n';

const codex = useLinkedAgent({ agent: 'codex', before: BEFORE, installAgent: installCodex });
const { hookpm } = codex;
const hooksFile = codex.settingsFile;

async function turn(toolCommand: string, trusted: string[] = []): Promise<string[]> {
  const api = await startFakeResponsesApi(toolCommand);
  try {
    writeCodexConfig(join(codex.home, '.codex'), api.url, trusted);
    const run = await runCodexTurn({
      home: codex.home,
      cwd: codex.repo,
      prompt: 'Run the command.',
      launcher: codex.binary,
      timeoutMs: 50_000,
    });
    expectCleanTurn(run);
    // The linked SessionEnd handler asks for no more than Codex gives it (3 s).
    expect(run.stderr).not.toContain('clamping');
    return api.toolOutputs();
  } finally {
    await api.close();
  }
}

describe('hookpm inside a real Codex (the link end to end)', () => {
  it('link says which Codex events are not linked and that Codex asks to trust the hooks once', () => {
    expect(codex.linkOutput).toContain('not linked');
    expect(codex.linkOutput).toMatch(/PostCompact, Interrupt/);
    expect(codex.linkOutput).toMatch(/\/hooks/);
    const linked = JSON.parse(readFileSync(hooksFile(), 'utf8')) as {
      hooks: Record<string, unknown[]>;
      description: string;
    };
    expect(linked.description).toBe('mine');
    expect(Object.keys(linked.hooks)).toContain('PreToolUse');
    expect(Object.keys(linked.hooks)).not.toContain('PostCompact');
  });

  it("a requested `git push --force` is blocked with guard's reason", async () => {
    const outputs = await turn(FORCE_PUSH);
    expect(outputs).toHaveLength(1);
    expect(outputs[0]).toContain(`Command blocked by PreToolUse hook: ${GUARD_REASON}`);
  }, 60_000);

  it('an allowed command runs and its output reaches the model', async () => {
    const outputs = await turn('echo hookpm-linked-ok');
    expect(outputs[0]).toContain('hookpm-linked-ok');
    expect(outputs[0]).not.toContain('blocked');
  }, 60_000);

  it('after `hookpm disable guard`, a new session is not blocked (the command runs: git says there is no origin)', async () => {
    expect((await hookpm(['disable', 'guard'])).code).toBe(0);
    const outputs = await turn(FORCE_PUSH);
    expect(outputs[0]).not.toContain('blocked');
    expect(outputs[0]).toMatch(/origin/);
    expect((await hookpm(['enable', 'guard', '--yes'])).code).toBe(0);
  }, 60_000);

  it('`link codex --project` writes <repo>/.codex/hooks.json, which Codex runs once it trusts the project', async () => {
    expect((await hookpm(['unlink', 'codex'])).code).toBe(0);
    const link = await hookpm(['link', 'codex', '--project']);
    expect(link.code, link.stderr).toBe(0);
    expect(link.stdout).toMatch(/trusted in Codex/);
    expect((await turn(FORCE_PUSH))[0]).not.toContain('blocked');
    expect((await turn(FORCE_PUSH, [codex.repo]))[0]).toContain(
      `Command blocked by PreToolUse hook: ${GUARD_REASON}`,
    );
    expect((await hookpm(['unlink', 'codex', '--project'])).code).toBe(0);
    expect(existsSync(join(codex.repo, '.codex', 'hooks.json'))).toBe(false);
    expect((await hookpm(['link', 'codex'])).code).toBe(0);
  }, 90_000);

  it('after `hookpm unlink codex`, hooks.json is byte-identical to before link, and guard no longer runs', async () => {
    expect((await hookpm(['unlink', 'codex'])).code).toBe(0);
    expect(readFileSync(hooksFile(), 'utf8')).toBe(BEFORE);
    const outputs = await turn(FORCE_PUSH);
    expect(outputs[0]).not.toContain('blocked');
  }, 60_000);
});
