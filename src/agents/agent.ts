import type { DispatchResult } from '../engine/types.js';
import type { EventName } from '../hooks/events.js';

/** The agents `hookpm link` knows. */
export const AGENT_IDS = ['claude', 'deepagents'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

export function isAgentId(value: string): value is AgentId {
  return (AGENT_IDS as readonly string[]).includes(value);
}

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
  /** The events linked: those the agent has and the engine has (engine.md section 1). */
  events: readonly EventName[];
  /** The engine event of a payload the agent wrote to stdin; null for one hookpm does not link. */
  decode(payload: Readonly<Record<string, unknown>>): WireEvent | null;
  /** The reduced result in the agent's hook output format. */
  encode(result: DispatchResult): WireAnswer;
}
