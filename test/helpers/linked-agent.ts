import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { binEnv } from './bin-workspace.js';
import { ensureBuilt, runBin, type BinRun } from './built-bin.js';
import { BWRAP, GIT, requireTool } from './system-package.js';

/** The guard fixture plugin, the command it denies, and the start of the reason it gives. */
export const GUARD = fileURLToPath(
  new URL('../../registry-fixtures/plugins/guard', import.meta.url),
);
export const FORCE_PUSH = 'git push --force origin main';
export const GUARD_REASON = 'guard: `git push --force` rewrites shared history';

/** A real agent with guard installed by hookpm and `hookpm link <agent>` done, in a temp HOME. */
export interface LinkedAgent {
  /** HOME of hookpm and of the agent. */
  home: string;
  /** A git repository without remotes: the agent's working directory. */
  repo: string;
  /** What `installAgent` returned (the agent's binary, launcher or script). */
  binary: string;
  /** The stdout of `hookpm link <agent>`. */
  linkOutput: string;
  /** The agent's user settings file, which held `before` when link ran. */
  settingsFile: () => string;
  /** Runs `hookpm ...args` in the repository. */
  hookpm: (args: string[]) => Promise<BinRun>;
}

/** The user settings file, under HOME, that `hookpm link <agent>` edits. */
const SETTINGS = {
  claude: join('.claude', 'settings.json'),
  codex: join('.codex', 'hooks.json'),
  gemini: join('.gemini', 'settings.json'),
};

export interface LinkedAgentOptions {
  /** The agent name `hookpm link` takes. */
  agent: keyof typeof SETTINGS;
  /** What the settings file holds before link (the user's own configuration). */
  before: string;
  /** Installs the agent into the agent cache, answering its binary. */
  installAgent: () => Promise<string>;
}

/** hookpm's environment: Codex's home (CODEX_HOME) is `<home>/.codex`, as Codex's default. */
const agentEnv = (agent: string, home: string): Record<string, string> =>
  agent === 'codex' ? { CODEX_HOME: join(home, '.codex') } : {};

/**
 * Registers the hooks that build dist/, install the agent (the first install downloads hundreds of
 * MB into the agent cache, hence the long timeout), install guard, link the agent, and remove the
 * temporary directory after all tests.
 */
export function useLinkedAgent(opts: LinkedAgentOptions): LinkedAgent {
  let root = '';
  const agent: LinkedAgent = {
    home: '',
    repo: '',
    binary: '',
    linkOutput: '',
    settingsFile: () => join(agent.home, SETTINGS[opts.agent]),
    hookpm: (args) =>
      runBin(args, { cwd: agent.repo, env: binEnv(agent.home, agentEnv(opts.agent, agent.home)) }),
  };
  beforeAll(async () => {
    ensureBuilt();
    root = mkdtempSync(join(tmpdir(), `hookpm-${opts.agent}-link-`));
    agent.home = join(root, 'home');
    agent.repo = join(root, 'repo');
    mkdirSync(dirname(agent.settingsFile()), { recursive: true });
    execFileSync(await requireTool(GIT), ['init', '-q', agent.repo]);
    writeFileSync(agent.settingsFile(), opts.before);
    agent.binary = await opts.installAgent();
    // guard declares capabilities: its handlers run under bubblewrap (security.md Z4).
    await requireTool(BWRAP);
    expect((await agent.hookpm(['install', GUARD, '--yes'])).code).toBe(0);
    const link = await agent.hookpm(['link', opts.agent]);
    expect(link.code, link.stderr).toBe(0);
    agent.linkOutput = link.stdout;
  }, 600_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return agent;
}
