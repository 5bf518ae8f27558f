import type { FailClosed } from '../hooks/fail-closed-entry.js';
import { isEventName, type EventName } from '../hooks/events.js';
import { HookpmError } from '../errors.js';

/** What a fail-closed entry needs to say of a plugin that cannot run as consented. */
export interface FailingPlugin {
  id: string;
  version: string;
  /** What it was installed from, for `hookpm install --force`. */
  source: string;
}

/**
 * docs/reference/rules/engine.md#fail-closed: the entry of an enabled, consented plugin hookpm
 * cannot run as consented (`why`: tampered, missing, unreadable), on `events` (the events it was
 * consented for; null: every event), with the commands that fix it.
 */
export function failingPlugin(
  plugin: FailingPlugin,
  events: readonly string[] | null,
  why: string,
): FailClosed {
  const reinstall = `hookpm install --force ${plugin.source}`;
  const disable = `hookpm disable ${plugin.id}`;
  return {
    plugin: plugin.id,
    events: events === null ? null : events.filter((e): e is EventName => isEventName(e)),
    reason: `hookpm fails closed: plugin ${plugin.id} ${plugin.version} cannot run as consented (${why}); run \`${reinstall}\` to restore it, or \`${disable}\` to stop using it`,
  };
}

/**
 * docs/reference/rules/engine.md#fail-closed: the entry of a state (or store) hookpm cannot read,
 * on every event: it cannot know which plugins would run. The reason names the file (the error's
 * message does) and the fix (its hint, else `hookpm doctor`).
 */
export function failingState(error: unknown): FailClosed {
  const why = error instanceof Error ? error.message : String(error);
  const hint = error instanceof HookpmError && error.hint !== undefined ? ` ${error.hint}` : '';
  const fix = hint === '' ? ' Run `hookpm doctor` to see how to recover.' : hint;
  return {
    plugin: null,
    events: null,
    reason: `hookpm fails closed: it cannot read its plugin state, so it cannot know which plugins would run: ${why}.${fix}`,
  };
}
