import { AGENTS } from '../../agents/agents.js';
import type { Agent, WireAnswer } from '../../agents/agent.js';
import { BLOCKING_EVENTS } from '../../hooks/fail-closed-entry.js';

/** What `wire` answers to an event the agent's link does not cover. */
const NOTHING: WireAnswer = { exitCode: 0, stdout: '', stderr: '' };

/**
 * engine.md B10: the answer to a payload `agent` does not decode. An event name that is none of
 * `agent`'s own but a blocking event (B1) of another agent hookpm links means `agent`'s link was
 * copied into that agent's settings, where it would guard nothing: exit 2 with the reason on
 * stderr, which blocks in every such agent. A Stop already continued by a hook (`stop_hook_active`)
 * is told with exit 1, a non-blocking hook error, so it never loops (O3). Any other name (the
 * agent's own unlinked events, names no agent has yet, other agents' events that cannot block) is
 * answered with nothing. Only names are compared, from tables already loaded for `decode`.
 */
export function foreignEventAnswer(
  agent: Agent,
  payload: Readonly<Record<string, unknown>>,
): WireAnswer {
  const named = payload['hook_event_name'];
  if (typeof named !== 'string') return NOTHING;
  if (agent.settingsEvents.includes(named) || agent.eventsNotLinked.includes(named)) return NOTHING;
  const owners = Object.values(AGENTS).filter((other) => blockingEventOf(other, named) !== null);
  if (owners.length === 0) return NOTHING;
  const stop = owners.some((other) => blockingEventOf(other, named) === 'Stop');
  const exitCode = stop && payload['stop_hook_active'] === true ? 1 : 2;
  return { exitCode, stdout: '', stderr: `${reasonOf(agent, named, owners)}\n` };
}

/** The engine event of `name` in `agent`'s settings when it is a blocking one (B1), else null. */
function blockingEventOf(agent: Agent, name: string): string | null {
  const at = agent.settingsEvents.indexOf(name);
  const event = at === -1 ? undefined : agent.events[at];
  return event !== undefined && BLOCKING_EVENTS.has(event) ? event : null;
}

/** The reason: the link, the event, the agents whose event it is, and the fix. */
function reasonOf(agent: Agent, named: string, owners: readonly Agent[]): string {
  const one = owners.length === 1 ? owners[0] : undefined;
  const names = listed(owners.map((other) => other.name));
  const links = listed(owners.map((other) => `\`hookpm link ${other.id}\``));
  const where = one === undefined ? "that agent's settings" : `${one.name}'s settings`;
  const which = one === undefined ? ' (for the agent whose settings hold it)' : '';
  return (
    `hookpm fails closed: \`hookpm wire ${agent.id}\` got ${named}, an event of ${names} and not` +
    ` of ${agent.name}: this is ${agent.name}'s link in ${where}, where it would guard nothing;` +
    ` run ${links}${which} and remove the copied entry`
  );
}

/** `a`, `a or b`, `a, b or c`. */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}
