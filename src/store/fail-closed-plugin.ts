import type { FailClosed } from '../hooks/fail-closed-entry.js';
import { CLAUDE_CODE_EVENT_NAMES, isEventName, type HookEventName } from '../hooks/events.js';
import { HookpmError } from '../errors.js';
import { shellWord } from '../text/shell-word.js';
import { disableCommand, restoreAdvice } from './reinstall-command.js';

/** What a fail-closed entry needs to say of a plugin that cannot run as consented. */
export interface FailingPlugin {
  id: string;
  version: string;
  /** What it was installed from, for `hookpm install --force`. */
  source: string;
  /** A project's plugin: the project's root (restored by `hookpm ci` there, restoreAdvice). */
  project?: string | null;
  /**
   * plugins.md D15: a linked directory, read in place: never installed again (a reinstall would
   * replace the link with a copy); `hookpm enable` reviews what it declares now and consents.
   */
  linked?: boolean;
}

/**
 * docs/reference/rules/engine.md#fail-closed: the entry of an enabled, consented plugin hookpm
 * cannot run as consented (`why`: tampered, missing, unreadable), on `events` (the engine events
 * it was consented for, a state record's Q1 `events`; null: every event), with the commands that
 * fix it. Q1's events never name Claude Code's own (plugins.md G1), so without documents to tell
 * which of those it hooks, the entry holds every one of them: `wire claude` runs only those linked.
 */
export function failingPlugin(
  plugin: FailingPlugin,
  events: readonly string[] | null,
  why: string,
): FailClosed {
  return {
    plugin: plugin.id,
    events: events === null ? null : consentedEvents(events),
    reason: `hookpm fails closed: plugin ${plugin.id} ${plugin.version} cannot run as consented (${why}); ${adviceFor(plugin)}`,
  };
}

/** The commands that fix a plugin left out: restore its tree, or for a linked one consent again. */
function adviceFor(plugin: FailingPlugin): string {
  if (plugin.linked !== true) return restoreAdvice(plugin, plugin.project);
  return `run \`hookpm enable ${shellWord(plugin.id)}\` to review its hooks and consent, or \`${disableCommand(plugin.id, null)}\` to stop using it`;
}

function consentedEvents(events: readonly string[]): HookEventName[] {
  return [...events.filter((e) => isEventName(e)), ...CLAUDE_CODE_EVENT_NAMES];
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
