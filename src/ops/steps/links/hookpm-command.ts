import { join } from 'node:path';
import { formatLinkCommand, type LinkCommand } from '../../../agents/link-command.js';
import { LINK_TIMEOUT_RANGE, type AgentId } from '../../../agents/agent.js';
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

/**
 * The handler `hookpm link` writes for `agent`: the agent's deadline of `timeoutSec` as its
 * `timeout`, in the agent's unit, and on the command line, so that `wire` ends its handlers in time.
 */
export function linkHandler(agent: AgentId, paths: HookpmPaths, timeoutSec: number): LinkHandler {
  const command: LinkCommand = { ...paths, agent, deadline: timeoutSec };
  return {
    type: 'command',
    command: formatLinkCommand(command),
    timeout: timeoutSec * AGENTS[agent].timeoutPerSecond,
  };
}

/**
 * The timeouts, in the agent's unit, of the events where the agent caps a handler's lower than
 * `timeoutSec` (Codex's SessionEnd), for applyLink.
 */
export function cappedTimeouts(agent: AgentId, timeoutSec: number): Record<string, number> {
  const { linkTimeoutCaps, timeoutPerSecond } = AGENTS[agent];
  return Object.fromEntries(
    Object.entries(linkTimeoutCaps).map(([event, cap]) => [
      event,
      Math.min(cap, timeoutSec) * timeoutPerSecond,
    ]),
  );
}

/**
 * plugins.md G3: the background link entry of an event with background handlers: Claude Code runs
 * it with `async: true` (the event goes on at once), `asyncRewake: true` when one of the handlers
 * asks for it, and the longest handler's timeout (within LINK_TIMEOUT_RANGE) as both its
 * `timeout` and `wire --deadline`.
 */
export function backgroundLinkHandler(
  paths: HookpmPaths,
  plan: { rewake: boolean; timeoutSec: number },
): LinkHandler {
  const seconds = Math.min(
    LINK_TIMEOUT_RANGE.max,
    Math.max(LINK_TIMEOUT_RANGE.min, Math.ceil(plan.timeoutSec)),
  );
  const command: LinkCommand = { ...paths, agent: 'claude', deadline: seconds, background: true };
  return {
    type: 'command',
    command: formatLinkCommand(command),
    timeout: seconds,
    async: true,
    ...(plan.rewake ? { asyncRewake: true as const } : {}),
  };
}
