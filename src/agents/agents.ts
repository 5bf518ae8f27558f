import type { Agent, AgentId } from './agent.js';
import { CLAUDE } from './claude.js';
import { DEEPAGENTS } from './deepagents.js';

/** Every agent `hookpm link` knows, by id, in the order `hookpm link` lists them. */
export const AGENTS: Readonly<Record<AgentId, Agent>> = {
  claude: CLAUDE,
  deepagents: DEEPAGENTS,
};
