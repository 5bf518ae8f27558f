import { canonicalJson } from '../json/canonical-json.js';
import { isPlainObject } from '../json/describe-value.js';
import { editJson, type JsonEdit } from './json-text-edit.js';
import { parseLinkCommand } from './link-command.js';
import { handlersOf, type HandlerAt } from './settings-document.js';

/**
 * The text edits of `hookpm link` and `unlink` on a checked settings document (settings-document.ts),
 * made with json-text-edit.ts: only the bytes of hookpm's own handlers change; every other key
 * keeps its bytes (layout, number forms, escapes, key order).
 */

/** The hookpm handler an agent gets per linked event: no matcher, so it sees every event. */
export interface LinkHandler {
  type: 'command';
  command: string;
  /** The agent's deadline for hookpm, in the agent's unit (`hookpm link --timeout`, cli.md W1). */
  timeout: number;
  /** plugins.md G3: Claude Code runs this entry in the background (`wire claude --background`). */
  async?: true;
  /** plugins.md G3: its exit 2 wakes the model (a background handler asked for `asyncRewake`). */
  asyncRewake?: true;
}

/** The handlers of `agent`'s link in a document, in file order. */
export function linkHandlersOf(settings: Record<string, unknown>, agent: string): HandlerAt[] {
  return handlersOf(settings).filter((at) => {
    const command = isPlainObject(at.value) ? at.value['command'] : undefined;
    return parseLinkCommand(command)?.agent === agent;
  });
}

/**
 * Whether the group of a handler lets every event through to it: no matcher, or `""` or `"*"`
 * (engine.md E1, as the agents read them). A link handler in a group with any other matcher runs
 * hookpm on some of the event's calls only, so it is not the link of that event.
 */
export function seesEveryEvent(settings: Record<string, unknown>, at: HandlerAt): boolean {
  const group = hooksOf(settings)[at.event]?.[at.group];
  const matcher = isPlainObject(group) ? group['matcher'] : undefined;
  return matcher === undefined || matcher === null || matcher === '' || matcher === '*';
}

export interface LinkEditInput {
  /** The file's text; null when the file does not exist. */
  text: string | null;
  settings: Record<string, unknown>;
  agent: string;
  events: readonly string[];
  handler: LinkHandler;
  /** The timeout of the handler of an event, where the agent caps it lower (Codex's SessionEnd). */
  timeouts?: Readonly<Record<string, number>>;
  /**
   * plugins.md G3: the events that get a second, background link entry (Claude Code), each with
   * its handler; absent or empty: none.
   */
  background?: ReadonlyArray<{ event: string; handler: LinkHandler }>;
  /** The document before the agent's first link, when known (see applyUnlink). */
  before?: Record<string, unknown> | null;
}

/** One link entry the file must hold: its event, whether it is the background one, its handler. */
interface Slot {
  event: string;
  background: boolean;
  handler: LinkHandler;
}

const slotKey = (event: string, background: boolean): string =>
  `${event}\u0000${background ? 'background' : 'foreground'}`;

/**
 * The text with exactly one `handler` per event of `events` (and one background handler per
 * entry of `background`), each in a group of its own appended to the event's list; a link handler
 * of `agent` already there is kept when equal, else replaced in place, and one on an event outside
 * these, a second one, or one in a group with a matcher (seesEveryEvent) is taken out. Returns the
 * same string when nothing changes (linking twice changes nothing).
 */
export function applyLink(input: LinkEditInput): string {
  const { settings, agent, events } = input;
  const handler = (event: string): LinkHandler => {
    const timeout = input.timeouts?.[event];
    return timeout === undefined ? input.handler : { ...input.handler, timeout };
  };
  const slots: Slot[] = [
    ...events.map((event) => ({ event, background: false, handler: handler(event) })),
    ...(input.background ?? []).map((b) => ({ ...b, background: true })),
  ];
  const wanted = new Map(slots.map((slot) => [slotKey(slot.event, slot.background), slot]));
  if (input.text === null) return `${JSON.stringify({ hooks: groupsFor(slots) }, null, 2)}\n`;
  const existing = linkHandlersOf(settings, agent);
  const keyOf = (at: HandlerAt): string => {
    const command = isPlainObject(at.value) ? at.value['command'] : undefined;
    return slotKey(at.event, parseLinkCommand(command)?.background === true);
  };
  const kept = new Set<string>();
  const extra: HandlerAt[] = [];
  for (const at of existing) {
    const key = keyOf(at);
    if (!wanted.has(key) || kept.has(key) || !seesEveryEvent(settings, at)) extra.push(at);
    else kept.add(key);
  }
  // Two passes, each one parse of the text: the handlers out of place go, then what is left is
  // replaced where it differs and the missing handlers are appended.
  const text = removeHandlers(input.text, settings, extra, input.before ?? null);
  const current = text === input.text ? settings : (JSON.parse(text) as Record<string, unknown>);
  const edits: JsonEdit[] = [];
  for (const at of linkHandlersOf(current, agent)) {
    const slot = wanted.get(keyOf(at))!;
    if (sameHandler(at.value, slot.handler)) continue;
    const path = ['hooks', at.event, at.group, 'hooks', at.handler];
    edits.push({ op: 'replace', path, value: slot.handler });
  }
  const missing = slots.filter((slot) => !kept.has(slotKey(slot.event, slot.background)));
  if (missing.length > 0 && !Object.hasOwn(current, 'hooks'))
    edits.push({ op: 'append', path: [], key: 'hooks', value: groupsFor(missing) });
  else if (missing.length > 0) {
    const hooks = hooksOf(current);
    const listed = missing.filter((slot) => Array.isArray(hooks[slot.event]));
    for (const slot of listed)
      edits.push({ op: 'append', path: ['hooks', slot.event], value: { hooks: [slot.handler] } });
    const unlisted = groupsFor(missing.filter((slot) => !listed.includes(slot)));
    for (const [event, groups] of Object.entries(unlisted))
      edits.push({ op: 'append', path: ['hooks'], key: event, value: groups });
  }
  return editJson(text, edits);
}

/**
 * The text without `agent`'s link handlers; a group left with no handler goes, then an event left
 * with no group, then a `hooks` left empty, unless `before` (the document before the agent's first
 * link, when known) had that event's list or `hooks`: what the user had stays, emptied. Returns the
 * same string when there is no link handler.
 */
export function applyUnlink(
  text: string,
  settings: Record<string, unknown>,
  agent: string,
  before: Record<string, unknown> | null = null,
): string {
  return removeHandlers(text, settings, linkHandlersOf(settings, agent), before);
}

/** `text` (whose value is `settings`) without `handlers`, in one pass (applyUnlink's `before`). */
function removeHandlers(
  text: string,
  settings: Record<string, unknown>,
  handlers: readonly HandlerAt[],
  before: Record<string, unknown> | null,
): string {
  if (handlers.length === 0) return text;
  const had = before === null ? {} : hooksOf(before);
  const hooks = hooksOf(settings);
  const edits: JsonEdit[] = [];
  let eventsLeft = Object.keys(hooks).length;
  // The handlers by event, then by group, in one pass: a file may hold any number of them.
  const byEvent = new Map<string, Map<number, number[]>>();
  for (const at of handlers) {
    const groupsOf = byEvent.get(at.event) ?? new Map<number, number[]>();
    byEvent.set(at.event, groupsOf);
    const taken = groupsOf.get(at.group);
    if (taken === undefined) groupsOf.set(at.group, [at.handler]);
    else taken.push(at.handler);
  }
  for (const [event, mine] of byEvent) {
    const groups = hooks[event] ?? [];
    const inEvent: JsonEdit[] = [];
    let left = groups.length;
    for (const [g, taken] of mine) {
      const group = groups[g];
      const size =
        isPlainObject(group) && Array.isArray(group['hooks']) ? group['hooks'].length : 0;
      if (taken.length >= size) {
        inEvent.push({ op: 'remove', path: ['hooks', event, g] });
        left -= 1;
      } else
        for (const h of taken)
          inEvent.push({ op: 'remove', path: ['hooks', event, g, 'hooks', h] });
    }
    if (left > 0 || Array.isArray(had[event])) edits.push(...inEvent);
    else {
      edits.push({ op: 'remove', path: ['hooks', event] });
      eventsLeft -= 1;
    }
  }
  const hooksGo = eventsLeft === 0 && (before === null || !Object.hasOwn(before, 'hooks'));
  return editJson(text, hooksGo ? [{ op: 'remove', path: ['hooks'] }] : edits);
}

function groupsFor(slots: readonly Slot[]): Record<string, unknown> {
  const groups: Record<string, unknown[]> = {};
  for (const slot of slots) (groups[slot.event] ??= []).push({ hooks: [slot.handler] });
  return groups;
}

/**
 * Whether a handler in the file is `handler`, whatever the order of its keys (a file whose keys
 * were sorted holds the same link, which linking again leaves as it is).
 */
function sameHandler(value: unknown, handler: LinkHandler): boolean {
  return canonicalJson(value) === canonicalJson(handler);
}

/** The `hooks` object of a checked settings document (settings-document.ts). */
function hooksOf(settings: Record<string, unknown>): Record<string, unknown[]> {
  const hooks = settings['hooks'];
  return isPlainObject(hooks) ? (hooks as Record<string, unknown[]>) : {};
}
