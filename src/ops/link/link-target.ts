import { join } from 'node:path';
import { AGENTS } from '../../agents/agents.js';
import type { Agent, AgentId } from '../../agents/agent.js';
import { findProjectRoot } from '../../workspace/find-project-root.js';

export type LinkScope = 'user' | 'project';

/** One settings file `hookpm link` edits: an agent's, at user scope or a project's. */
export interface LinkTarget {
  agent: Agent;
  scope: LinkScope;
  file: string;
}

export interface LinkTargetOptions {
  agent: AgentId;
  /** `--project`: the settings file of the project root (engine.md S2) of `cwd`. */
  project: boolean;
  home: string;
  cwd: string;
}

export async function linkTarget(options: LinkTargetOptions): Promise<LinkTarget> {
  const agent = AGENTS[options.agent];
  const base = options.project ? await findProjectRoot(options.cwd) : options.home;
  return {
    agent,
    scope: options.project ? 'project' : 'user',
    file: join(base, ...agent.settingsFile),
  };
}
