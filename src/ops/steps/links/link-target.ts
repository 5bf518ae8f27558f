import { join, resolve } from 'node:path';
import { AGENTS } from '../../../agents/agents.js';
import type { Agent, AgentId } from '../../../agents/agent.js';
import { findProjectRoot } from '../../../workspace/find-project-root.js';

export type LinkScope = 'user' | 'project';

/** One settings file `hookpm link` edits: an agent's, at user scope or a project's. */
export interface LinkTarget {
  agent: Agent;
  scope: LinkScope;
  file: string;
  /** The project root, for the project scope: the file must be written inside it (J2). */
  root?: string;
}

export interface LinkTargetOptions {
  agent: AgentId;
  /** `--project`: the settings file of the project root (engine.md S2) of `cwd`. */
  project: boolean;
  home: string;
  cwd: string;
  /** Where the agent's home variable is read (Agent.homeEnv); default: this process's. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The settings file of `agent`: below the project root with `project`; else below the agent's home
 * variable when it is set and not empty (CODEX_HOME, GEMINI_CLI_HOME; a relative one from `cwd`,
 * as the agent itself resolves it from where it starts), else below `home`.
 */
export async function linkTarget(options: LinkTargetOptions): Promise<LinkTarget> {
  const agent = AGENTS[options.agent];
  if (options.project) {
    const root = await findProjectRoot(options.cwd);
    return { agent, scope: 'project', file: join(root, ...agent.settingsFile), root };
  }
  const own = agent.homeEnv === null ? undefined : (options.env ?? process.env)[agent.homeEnv.name];
  const file =
    own !== undefined && own !== '' && agent.homeEnv !== null
      ? resolve(options.cwd, own, ...agent.homeEnv.file)
      : join(options.home, ...agent.settingsFile);
  return { agent, scope: 'user', file };
}
