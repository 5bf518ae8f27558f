import { join } from 'node:path';
import { formatLinkCommand, type LinkCommand } from '../../../agents/link-command.js';
import type { AgentId } from '../../../agents/agent.js';
import { AGENTS } from '../../../agents/agents.js';
import type { LinkHandler } from '../../../agents/link-edit.js';
import { PACKAGE_ROOT } from '../../../io/package-root.js';

/** This hookpm: the node binary running it and its `bin/hookpm.js`, both absolute. */
export interface HookpmPaths {
  node: string;
  hookpm: string;
  /** hookpm's home (`--home`, HOOKPM_HOME); null: the platform's directories. */
  home: string | null;
}

export function currentHookpm(home: string | null): HookpmPaths {
  return { node: process.execPath, hookpm: join(PACKAGE_ROOT, 'bin', 'hookpm.js'), home };
}

/** The handler `hookpm link` writes for `agent`, with the agent's deadline in its own unit. */
export function linkHandler(agent: AgentId, paths: HookpmPaths): LinkHandler {
  const command: LinkCommand = { ...paths, agent };
  return {
    type: 'command',
    command: formatLinkCommand(command),
    timeout: AGENTS[agent].linkTimeout,
  };
}
