import type { HookEventName } from '../events.js';
import { ifRuleHolds } from '../if-rule.js';
import { matchedValue, matcherAcceptsValue } from '../matcher.js';
import { payloadAtCwd } from '../payload-at-cwd.js';
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

/** How one invocation matches (matchHandlers); each field may be left out. */
export interface MatchOptions {
  /** Which handlers the host runs (plugins.md G3); default `engine`. */
  which?: HandlerSet;
  /** The agent's other names of the matched value (cli.md W4); default none. */
  aliases?: readonly string[];
  /** The user's home directory, which `~/` of a path rule names; null (default): none known. */
  home?: string | null;
  /**
   * The directory the handlers run in (X4), where an `if` path rule reads a relative path from,
   * beside the payload's own `cwd` when it differs (payload-at-cwd.ts); default the payload's.
   */
  cwd?: string;
}

/**
 * The handlers to run for one invocation, in configuration order (S3, X1): a group's matcher is
 * applied first (E1-E6, with the agent's aliases of the matched value: cli.md W4), then each
 * handler's `if` rule (F1-F3, with the same aliases, the home that `~/` of a path rule names, and
 * relative paths read from where the handlers run: MatchOptions). Only precompiled data is used,
 * so this does no parsing.
 */
export function matchHandlers(
  snapshot: Snapshot,
  event: HookEventName,
  input: Readonly<Record<string, unknown>>,
  how: MatchOptions = {},
): SnapshotHandler[] {
  const { which = 'engine', aliases = [], home = null } = how;
  const payload = payloadAtCwd(input, how.cwd);
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
