// Issue 13 acceptance: a real Claude Code (pinned, installed by the test setup into a cache outside
// the checkout: agent-cache.ts) running `claude -p` against the loopback fake Messages API, with
// guard installed by hookpm and `hookpm link claude`. The commands asked for are harmless if a hook
// fails to stop them: `git push --force origin main` in a repository without remotes, and `echo`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { GIT, requireTool } from '../helpers/system-package.js';
import { installClaudeCode, runClaudeTurn } from './claude-code.js';
import { startFakeMessagesApi, type FakeMessagesApi } from './fake-messages-api.js';

const GUARD = fileURLToPath(new URL('../../registry-fixtures/plugins/guard', import.meta.url));
const FORCE_PUSH = 'git push --force origin main';
const GUARD_REASON = 'guard: `git push --force` rewrites shared history';

interface Result {
  session_id: string;
  permission_denials: Array<{ tool_name: string; tool_input: { command?: string } }>;
}

let binary: string;
let root: string;
let home: string;
let repo: string;
let apis: FakeMessagesApi[] = [];
const BEFORE =
  '{\n  "model": "claude-sonnet-4-5",\n  "permissions": {"allow": ["Bash(ls:*)"]},\n  "env": {"FOO": "1"}\n}\n';

const env = () => ({
  PATH: process.env.PATH ?? '',
  HOME: home,
  HOOKPM_HOME: join(home, 'hookpm'),
  NO_COLOR: '1',
});
const hookpm = (args: string[]) => runBin(args, { cwd: repo, env: env() });
const settingsFile = () => join(home, '.claude', 'settings.json');

beforeAll(async () => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), 'hookpm-claude-link-'));
  home = join(root, 'home');
  repo = join(root, 'repo');
  mkdirSync(join(home, '.claude'), { recursive: true });
  execFileSync(await requireTool(GIT), ['init', '-q', repo]);
  writeFileSync(settingsFile(), BEFORE);
  // The first install downloads about 400 MB into the agent cache.
  binary = await installClaudeCode();
  expect((await hookpm(['install', GUARD, '--yes'])).code).toBe(0);
  const link = await hookpm(['link', 'claude']);
  expect(link.code, link.stderr).toBe(0);
}, 600_000);
afterEach(async () => {
  await Promise.all(apis.map((api) => api.close()));
  apis = [];
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function turn(toolCommand: string) {
  const api = await startFakeMessagesApi({ toolCommand, maxToolCalls: 2 });
  apis.push(api);
  const run = await runClaudeTurn({
    home,
    cwd: repo,
    baseUrl: api.url,
    prompt: 'Run the command.',
    binary,
    allowedTools: ['Bash'],
    timeoutMs: 50_000,
  });
  expect(run.timedOut, run.stderr).toBe(false);
  expect(run.exitCode, run.stderr).toBe(0);
  return { results: api.toolResults(), result: run.result as Result };
}

describe('hookpm inside a real Claude Code (issue 13 acceptance)', () => {
  it("a requested `git push --force` is denied with guard's reason", async () => {
    const { results, result } = await turn(FORCE_PUSH);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ is_error: true });
    expect(results[0]?.content).toContain(`PreToolUse:Bash hook error: ${GUARD_REASON}`);
    expect(result.permission_denials).toEqual([
      expect.objectContaining({
        tool_name: 'Bash',
        tool_input: expect.objectContaining({ command: FORCE_PUSH }),
      }),
    ]);
  }, 60_000);

  it('an allowed command runs and its output reaches the model', async () => {
    const { results, result } = await turn('echo hookpm-linked-ok');
    expect(results[0]).toMatchObject({ is_error: false });
    expect(results[0]?.content).toContain('hookpm-linked-ok');
    expect(result.permission_denials).toEqual([]);
  }, 60_000);

  it('after `hookpm disable guard`, a new session is not denied (the command runs: git says there is no origin)', async () => {
    expect((await hookpm(['disable', 'guard'])).code).toBe(0);
    const { results, result } = await turn(FORCE_PUSH);
    expect(result.permission_denials).toEqual([]);
    expect(results[0]?.content).not.toContain('hook error');
    expect(results[0]?.content).toMatch(/origin/);
    expect((await hookpm(['enable', 'guard', '--yes'])).code).toBe(0);
  }, 60_000);

  it('after `hookpm unlink claude`, settings.json is byte-identical to before link, and guard no longer runs', async () => {
    expect((await hookpm(['unlink', 'claude'])).code).toBe(0);
    expect(readFileSync(settingsFile(), 'utf8')).toBe(BEFORE);
    const { result } = await turn(FORCE_PUSH);
    expect(result.permission_denials).toEqual([]);
  }, 60_000);
});
