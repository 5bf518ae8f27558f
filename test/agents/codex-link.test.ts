// Issue 17 acceptance, Codex: a real Codex (pinned, installed by the test setup into the agent
// cache outside the checkout: agent-cache.ts, codex.ts) running `codex exec` against the loopback
// fake Responses API, with guard installed by hookpm and `hookpm link codex`. The commands asked
// for are harmless if a hook fails to stop them: `git push --force origin main` in a repository
// without remotes, and `echo`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { GIT, requireTool } from '../helpers/system-package.js';
import { installCodex, runCodexTurn, writeCodexConfig } from './codex.js';
import { startFakeResponsesApi } from './fake-responses-api.js';

const GUARD = fileURLToPath(new URL('../../registry-fixtures/plugins/guard', import.meta.url));
const FORCE_PUSH = 'git push --force origin main';
const GUARD_REASON = 'guard: `git push --force` rewrites shared history';
// The user's own Codex hook, which link and unlink must keep byte for byte (Codex reads only
// `description` and `hooks` at the top: `HooksFile` refuses other keys, measured).
const BEFORE =
  '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": 5}]}]},\n  "description": "mine"}\n';

let launcher: string;
let root: string;
let home: string;
let repo: string;
let linkOutput: string;

const env = () => ({
  PATH: process.env.PATH ?? '',
  HOME: home,
  CODEX_HOME: join(home, '.codex'),
  HOOKPM_HOME: join(home, 'hookpm'),
  NO_COLOR: '1',
});
const hookpm = (args: string[]) => runBin(args, { cwd: repo, env: env() });
const hooksFile = () => join(home, '.codex', 'hooks.json');

beforeAll(async () => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), 'hookpm-codex-link-'));
  home = join(root, 'home');
  repo = join(root, 'repo');
  mkdirSync(join(home, '.codex'), { recursive: true });
  execFileSync(await requireTool(GIT), ['init', '-q', repo]);
  writeFileSync(hooksFile(), BEFORE);
  // The first install downloads about 420 MB into the agent cache.
  launcher = await installCodex();
  expect((await hookpm(['install', GUARD, '--yes'])).code).toBe(0);
  const link = await hookpm(['link', 'codex']);
  expect(link.code, link.stderr).toBe(0);
  linkOutput = link.stdout;
}, 600_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function turn(toolCommand: string, trusted: string[] = []): Promise<string[]> {
  const api = await startFakeResponsesApi(toolCommand);
  try {
    writeCodexConfig(join(home, '.codex'), api.url, trusted);
    const run = await runCodexTurn({
      home,
      cwd: repo,
      prompt: 'Run the command.',
      launcher,
      timeoutMs: 50_000,
    });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    // The linked SessionEnd handler asks for no more than Codex gives it (3 s).
    expect(run.stderr).not.toContain('clamping');
    return api.toolOutputs();
  } finally {
    await api.close();
  }
}

describe('hookpm inside a real Codex (issue 17 acceptance)', () => {
  it('issue 17 items 2-3: link says which Codex events are not linked and that Codex asks to trust the hooks once', () => {
    expect(linkOutput).toContain('not linked');
    expect(linkOutput).toMatch(/PostCompact, Interrupt/);
    expect(linkOutput).toMatch(/\/hooks/);
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

  it('issue 17 item 1: `link codex --project` writes <repo>/.codex/hooks.json, which Codex runs once it trusts the project', async () => {
    expect((await hookpm(['unlink', 'codex'])).code).toBe(0);
    const link = await hookpm(['link', 'codex', '--project']);
    expect(link.code, link.stderr).toBe(0);
    expect(link.stdout).toMatch(/trusted in Codex/);
    expect((await turn(FORCE_PUSH))[0]).not.toContain('blocked');
    expect((await turn(FORCE_PUSH, [repo]))[0]).toContain(
      `Command blocked by PreToolUse hook: ${GUARD_REASON}`,
    );
    expect((await hookpm(['unlink', 'codex', '--project'])).code).toBe(0);
    expect(existsSync(join(repo, '.codex', 'hooks.json'))).toBe(false);
    expect((await hookpm(['link', 'codex'])).code).toBe(0);
  }, 90_000);

  it('after `hookpm unlink codex`, hooks.json is byte-identical to before link, and guard no longer runs', async () => {
    expect((await hookpm(['unlink', 'codex'])).code).toBe(0);
    expect(readFileSync(hooksFile(), 'utf8')).toBe(BEFORE);
    const outputs = await turn(FORCE_PUSH);
    expect(outputs[0]).not.toContain('blocked');
  }, 60_000);
});
