import { access } from 'node:fs/promises';
import { AGENT_IDS, type AgentId } from '../../../agents/agent.js';
import { parseLinkCommand, type LinkCommand } from '../../../agents/link-command.js';
import { linkHandlersOf, seesEveryEvent } from '../../../agents/link-edit.js';
import { isPlainObject } from '../../../json/describe-value.js';
import type { HookpmPaths } from './hookpm-command.js';
import { linkTarget, type LinkScope } from './link-target.js';
import { readSettingsText } from './settings-text.js';
import { assertReadInside } from '../../../workspace/inside-root.js';
import { clip } from '../../../text/clip.js';

/**
 * A link's state: `linked` (every event of the agent has this hookpm's handler), `partial` (some
 * have), `moved` (the handler names a node or hookpm that is not there any more), `other` (it
 * names another hookpm, which exists), `unlinked`, or `unreadable` (a file hookpm cannot edit).
 */
export type LinkState = 'linked' | 'partial' | 'moved' | 'other' | 'unlinked' | 'unreadable';

export interface LinkStatus {
  agent: AgentId;
  name: string;
  scope: LinkScope;
  file: string;
  state: LinkState;
  /** Events with a hookpm handler that sees every call of the event (seesEveryEvent). */
  events: string[];
  /** The events of the agent without one. */
  missing: string[];
  /** What the handlers run, when linked; the first one when they differ. */
  command: LinkCommand | null;
  problem: string | null;
  /** Why the agent runs no hook by this file, linked or not (Agent.hooksOff); else null. */
  hooksOff: string | null;
}

export interface LinkStatusOptions {
  home: string;
  cwd: string;
  /** Where the agents' home variables are read (CODEX_HOME, ...); default: this process's. */
  env?: Readonly<Record<string, string | undefined>>;
  /** This hookpm (currentHookpm): a link to another one is `other`. */
  hookpm: HookpmPaths;
}

/** `hookpm link` alone and `hookpm doctor`: every agent, at user scope and for the project of cwd. */
export async function listLinks(options: LinkStatusOptions): Promise<LinkStatus[]> {
  const hookpm = options.hookpm;
  const all: Promise<LinkStatus>[] = [];
  for (const agent of AGENT_IDS)
    for (const project of [false, true]) all.push(statusOf(agent, project, options, hookpm));
  const found = await Promise.all(all);
  // A project whose root is the home directory has one file for both scopes: list it once.
  return found.filter(
    (s, i) => s.scope === 'user' || found.findIndex((o) => o.file === s.file) === i,
  );
}

async function statusOf(
  agent: AgentId,
  project: boolean,
  options: LinkStatusOptions,
  hookpm: HookpmPaths,
): Promise<LinkStatus> {
  const target = await linkTarget({ agent, project, ...options });
  const status: LinkStatus = {
    agent,
    name: target.agent.name,
    scope: target.scope,
    file: target.file,
    state: 'unlinked',
    events: [],
    missing: [...target.agent.settingsEvents],
    command: null,
    problem: null,
    hooksOff: null,
  };
  let settings: Record<string, unknown>;
  try {
    // registry.md J2: a project's file that a symlink leads out of the project is not read.
    if (target.root !== undefined) assertReadInside(target.root, target.file, 'the project');
    settings = (await readSettingsText(target.file, target.agent.hooksConfigKeys)).settings;
  } catch (error) {
    // E_AGENT_SETTINGS, or a file that cannot be read at all: the link's state says why.
    if (!(error instanceof Error)) throw error;
    return { ...status, state: 'unreadable', problem: error.message };
  }
  status.hooksOff = target.agent.hooksOff?.(settings) ?? null;
  const handlers = linkHandlersOf(settings, agent);
  if (handlers.length === 0) return status;
  const commands = handlers.map((h) =>
    parseLinkCommand(isPlainObject(h.value) ? h.value['command'] : undefined),
  );
  const command = commands[0] ?? null;
  // An event counts when a handler of the link decides it: one that sees every call of it (no
  // narrowing matcher) and that the agent waits for (a background entry, or one marked `async`,
  // runs after the event went on, plugins.md G3: no guard decides there).
  const events = [
    ...new Set(
      handlers.filter((h) => seesEveryEvent(settings, h) && decides(h.value)).map((h) => h.event),
    ),
  ];
  const linked = {
    ...status,
    events,
    missing: status.missing.filter((e) => !events.includes(e)),
    command,
  };
  if (command === null) return linked;
  if (!(await exists(command.node)) || !(await exists(command.hookpm)))
    return {
      ...linked,
      state: 'moved',
      // The paths are the file's text, of any length: a message quotes bounded prefixes.
      problem: `the handler runs ${clip(command.hookpm)} with ${clip(command.node)}, which is not there any more`,
    };
  const same = commands.every(
    (c) => c?.node === hookpm.node && c.hookpm === hookpm.hookpm && c.home === hookpm.home,
  );
  if (!same) return { ...linked, state: 'other' };
  return { ...linked, state: linked.missing.length === 0 ? 'linked' : 'partial' };
}

/** Whether the agent waits for a link handler's answer: not the background entry, not `async`. */
function decides(handler: unknown): boolean {
  if (!isPlainObject(handler) || handler['async'] === true) return false;
  return parseLinkCommand(handler['command'])?.background !== true;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
