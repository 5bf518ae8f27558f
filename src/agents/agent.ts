import type { DispatchResult } from '../engine/types.js';
import type { EventName } from '../hooks/events.js';
import type { HostDisplay } from '../engine/host-display.js';

/** The agents `hookpm link` knows. */
export const AGENT_IDS = ['claude', 'deepagents', 'codex', 'gemini'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

export function isAgentId(value: string): value is AgentId {
  return (AGENT_IDS as readonly string[]).includes(value);
}

/**
 * The agent's deadline for one linked event, in seconds, when `hookpm link --timeout` names none
 * (and for a link written without `--deadline`): the longest engine default
 * (docs/reference/rules/engine.md#events). Claude Code's own default is 60 s, Gemini CLI's
 * 60,000 ms. Under `wire`, every handler ends before it (docs/reference/rules/cli.md#w1).
 */
export const LINK_TIMEOUT_SEC = 600;

/** The `hookpm link --timeout` range, in seconds. */
export const LINK_TIMEOUT_RANGE = { min: 1, max: 86_400 } as const;

/** What the linked handler gives back to its agent: exit code, stdout and stderr. */
export interface WireAnswer {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** One engine event decoded from an agent's hook payload. */
export interface WireEvent {
  event: EventName;
  /** The event's fields, named as the engine and its plugins name them. */
  input: Record<string, unknown>;
  /** cli.md W4: the agent's other names of the tool, which matchers accept as its name. */
  matcherAliases?: readonly string[];
}

/**
 * An agent as `hookpm link` and `hookpm wire` see it: where its settings are, which events get a
 * hookpm handler, and its wire protocol (its payload in, the reduced result out).
 */
export interface Agent {
  id: AgentId;
  /** The agent's name, as its users know it. */
  name: string;
  /** The settings file below the user's home (user scope) or the project root (`--project`). */
  settingsFile: readonly string[];
  /**
   * The agent's own home variable (Codex's CODEX_HOME, Gemini CLI's GEMINI_CLI_HOME): when set, the
   * user-scope settings file is `file` below it instead of `settingsFile` below the user's home.
   */
  homeEnv: { name: string; file: readonly string[] } | null;
  /** The engine events linked: those the agent has and the engine has (docs/reference/rules/engine.md#events). */
  events: readonly EventName[];
  /** The names under `hooks` in the agent's settings that get a handler, in the order of `events`. */
  settingsEvents: readonly string[];
  /** The agent's events that have no engine event, so are not linked (`hookpm link` says which). */
  eventsNotLinked: readonly string[];
  /** Keys under `hooks` that are the agent's settings, not events (Gemini CLI's `disabled`, ...). */
  hooksConfigKeys: readonly string[];
  /** The agent's `timeout` units per second: 1 (seconds), 1000 (Gemini CLI: ms). */
  timeoutPerSecond: number;
  /**
   * Seconds: the agent's own caps of a handler's timeout on some events (by the names in its
   * settings): link writes no more there, and `wire` counts its deadline from no more there.
   */
  linkTimeoutCaps: Readonly<Record<string, number>>;
  /** What the user must do once before the agent runs new hooks of `scope`; null: nothing. */
  trustNote(scope: 'user' | 'project'): string | null;
  /**
   * Why the agent runs no hook at all by `settings` (its settings file, parsed), or null: a link
   * there is inert, and `hookpm doctor` says so (Claude Code's `disableAllHooks: true`).
   */
  hooksOff?(settings: Readonly<Record<string, unknown>>): string | null;
  /** The engine event of a payload the agent wrote to stdin; null for one hookpm does not link. */
  decode(payload: Readonly<Record<string, unknown>>): WireEvent | null;
  /** The reduced result in the agent's hook output format. */
  encode(result: DispatchResult): WireAnswer;
  /**
   * What the agent shows of handlers' output that others do not (engine/host-display.ts): Deep
   * Agents Code writes a handler's `terminalSequence` to its terminal (D8), so `wire` passes the
   * allowed ones on; Claude Code shows a `systemMessage` beside `suppressOutput: true` (M3).
   */
  display?: HostDisplay;
}

/**
 * The agent's deadline, in seconds, for hookpm's handler of `event` (an engine event): the one the
 * link command names (`wire <agent> --deadline <s>`; a link without one is LINK_TIMEOUT_SEC, what
 * such links wrote), less where the agent caps that event lower.
 */
export function agentDeadlineSec(agent: Agent, event: EventName, linked: number | null): number {
  const at = agent.events.indexOf(event);
  const name = at === -1 ? undefined : agent.settingsEvents[at];
  const cap = name === undefined ? undefined : agent.linkTimeoutCaps[name];
  const given = linked ?? LINK_TIMEOUT_SEC;
  return cap === undefined ? given : Math.min(given, cap);
}
