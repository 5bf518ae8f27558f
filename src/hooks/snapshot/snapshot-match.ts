import type { HookEventName } from '../events.js';
import { ifRuleHolds } from '../if-rule.js';
import { matchedValue, matcherAcceptsValue } from '../matcher.js';
import type { Snapshot } from './snapshot.js';
import type { SnapshotHandler } from '../types.js';

/**
 * plugins.md G3, which handlers a host runs: `engine` (hookpm's engine and every agent but Claude
 * Code) all but `async: true` ones; `claude` (`wire claude`) none of the background ones, which
 * Claude Code runs through the background entry; `background` (`wire claude --background`) those
 * alone.
 */
export type HandlerSet = 'engine' | 'claude' | 'background';

function inSet(handler: SnapshotHandler, which: HandlerSet): boolean {
  const background = handler.background;
  if (which === 'background') return background !== undefined;
  return background === undefined;
}

/**
 * The handlers to run for one invocation, in configuration order (S3, X1): a group's matcher is
 * applied first (E1-E6, with the agent's `aliases` of the matched value: cli.md W4), then each
 * handler's `if` rule (F1-F3, with the same aliases, and `home`, the user's home directory that
 * `~/` of a path rule names; null: none is known, and `~/p` holds under any directory). Only
 * precompiled data is used, so this does no parsing.
 */
export function matchHandlers(
  snapshot: Snapshot,
  event: HookEventName,
  payload: Readonly<Record<string, unknown>>,
  which: HandlerSet = 'engine',
  aliases: readonly string[] = [],
  home: string | null = null,
): SnapshotHandler[] {
  const matched: SnapshotHandler[] = [];
  const value = matchedValue(event, payload);
  for (const group of snapshot.groups[event] ?? []) {
    if (!matcherAcceptsValue(group.matcher, value, aliases)) continue;
    for (const entry of group.handlers) {
      if (!inSet(entry.handler, which)) continue;
      if (entry.rule === null || ifRuleHolds(entry.rule, event, payload, aliases, home))
        matched.push(entry.handler);
    }
  }
  return matched;
}
