import type { HookEventName } from '../../hooks/events.js';
import type { SessionPin } from '../../store/session-pin-schema.js';
import { collectStalePins, readPin, writePin } from '../../store/session-pins.js';
import type { StorePaths } from '../../store/store-paths.js';

/**
 * engine.md R1 for an agent session: the pin its events run on. A session's SessionStart pins the
 * plugins that may run now (a `compact` start is the same session going on, and keeps its pin);
 * an event of a session with no pin (hookpm missed its start, or the pin went stale) pins then.
 * Later events use the pin, whatever was enabled, disabled or updated since, until `hookpm reload`.
 * An event without a session id runs on the plugins of the moment and pins nothing.
 *
 * docs/reference/rules/engine.md#fail-closed: a pin is never made from a state that could not be
 * read (the event runs on the moment's answer, which fails closed, and nothing is stored), and a
 * pin that holds anything failing closed (or was made by an older hookpm from an unreadable state)
 * is not kept: each event pins afresh, carrying the Stop count over, until the pin is whole, so a
 * repaired plugin or state runs from the next event on.
 */
export async function sessionPin(input: {
  paths: StorePaths;
  agent: string;
  event: HookEventName;
  payload: Readonly<Record<string, unknown>>;
  /** The event's working directory: the project whose plugins (docs/guides/projects.md) join the pin. */
  cwd?: string;
}): Promise<{ pin: SessionPin; stored: boolean }> {
  const { paths, agent, event, payload, cwd } = input;
  const sessionId = typeof payload['session_id'] === 'string' ? payload['session_id'] : '';
  // The loader of installed plugins (state, manifests, their schemas) loads only to pin.
  if (sessionId === '') {
    const { makePin } = await import('./make-pin.js');
    return { pin: await makePin(paths, '', agent, new Date(), cwd), stored: false };
  }
  const starts = event === 'SessionStart' && payload['source'] !== 'compact';
  const existing = starts ? null : readPin(paths, sessionId);
  if (existing !== null && isWhole(existing)) return { pin: existing, stored: true };
  const { makePin } = await import('./make-pin.js');
  const made = await makePin(paths, sessionId, agent, new Date(), cwd);
  const pin = existing === null ? made : { ...made, stopContinuations: existing.stopContinuations };
  if (!isStorable(pin)) return { pin, stored: false };
  // A pin is a cache of a decision, never a reason for an event to fail.
  const stored = await writePin(paths, pin).then(
    () => true,
    () => false,
  );
  await collectStalePins(paths).catch(() => undefined);
  return { pin, stored };
}

/** A pin kept for later events: nothing in it fails closed, and it was made from a readable state. */
function isWhole(pin: SessionPin): boolean {
  return (
    (pin.failClosed === undefined || pin.failClosed.length === 0) &&
    !pin.diagnostics.some((d) => d.code === 'plugin_state_unreadable')
  );
}

/** A pin made from a state that could be read (its failures, if any, are plugins'). */
function isStorable(pin: SessionPin): boolean {
  return !(pin.failClosed ?? []).some((entry) => entry.plugin === null);
}
