import type { Agent, AgentId } from './agent.js';
import { CLAUDE } from './claude.js';
import { CODEX } from './codex.js';
import { DEEPAGENTS } from './deepagents.js';
import { GEMINI } from './gemini.js';

/** Every agent `hookpm link` knows, by id, in the order `hookpm link` lists them. */
export const AGENTS: Readonly<Record<AgentId, Agent>> = {
  claude: CLAUDE,
  deepagents: DEEPAGENTS,
  codex: CODEX,
  gemini: GEMINI,
};
