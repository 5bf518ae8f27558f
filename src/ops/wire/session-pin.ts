import { closeSync } from 'node:fs';
import { isEventName, type HookEventName } from '../../hooks/events.js';
import { PIN_VERSION, type SessionPin } from '../../store/session-pin-schema.js';
import {
  collectStalePins,
  isWholePin,
  pinFile,
  readHeldPin,
  stopCountOf,
  writePin,
  writeTables,
} from '../../store/session-pins.js';
import { readPinTable } from '../../store/session-pin-tables.js';
import type { StorePaths } from '../../store/store-paths.js';

/**
 * engine.md R1 for an agent session: the pin its events run on. A session's SessionStart pins the
 * plugins that may run now (a `compact` start is the same session going on, and keeps its pin);
 * an event of a session with no pin (hookpm missed its start, or the pin went stale) pins then.
 * Later events use the pin, whatever was enabled, disabled or updated since, until `hookpm reload`.
 * An event without a session id runs on the plugins of the moment and pins nothing.
 *
 * engine.md X10: a later event reads only the part of the pin it can match, from the pin's tables
 * (store/session-pin-tables.ts): `pin.plugins` and `pin.sources` then hold only those, and
 * `pin.failClosed` is absent (only a whole pin has tables). Tables that are missing or damaged
 * are written again from the whole pin.
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
  /**
   * The event's fields as hookpm's matchers read them (the agent's payload decoded: Gemini CLI's
   * `run_shell_command` is `Bash`); default: `payload`. Picks the pin table to read (X10).
   */
  input?: Readonly<Record<string, unknown>>;
  /** cli.md W4: the agent's other names of the matched value, whose tables are read too. */
  matcherAliases?: readonly string[];
  /** The event's working directory: the project whose plugins (docs/guides/projects.md) join the pin. */
  cwd?: string;
  /**
   * Pin the session afresh, whatever is pinned (a pinned plugin was restored since:
   * pin-repaired.ts), carrying the Stop count over.
   */
  afresh?: boolean;
}): Promise<{ pin: SessionPin; stored: boolean }> {
  const { paths, agent, event, payload, cwd } = input;
  const sessionId = typeof payload['session_id'] === 'string' ? payload['session_id'] : '';
  // The loader of installed plugins (state, manifests, their schemas) loads only to pin.
  if (sessionId === '') {
    const { makePin } = await import('./make-pin.js');
    return { pin: await makePin(paths, '', agent, new Date(), cwd), stored: false };
  }
  const starts = event === 'SessionStart' && payload['source'] !== 'compact';
  // engine.md X10: the tables hold the engine's events; Claude Code's own read the whole pin.
  if (!starts && input.afresh !== true && isEventName(event)) {
    const file = pinFile(paths, sessionId);
    const fields = input.input ?? payload;
    const table = readPinTable(file, sessionId, event, fields, input.matcherAliases);
    if (table !== null) return { pin: { version: PIN_VERSION, agent, ...table }, stored: true };
  }
  const read = starts ? null : readHeldPin(paths, sessionId);
  const existing = read?.pin ?? null;
  if (read !== null) {
    // Open until its tables are written: writeTables compares it with the pin file then.
    try {
      if (input.afresh !== true && isWholePin(read.pin)) {
        const whole = { ...read.pin, stopContinuations: stopCountOf(paths, read.pin) };
        writeTables(pinFile(paths, sessionId), whole, read.fd);
        return { pin: whole, stored: true };
      }
    } finally {
      closeSync(read.fd);
    }
  }
  const { makePin } = await import('./make-pin.js');
  // Loaded only to pin, as makePin: reading the state brings its schemas (zod) with it.
  const { writeNamedPin } = await import('../../store/pinned-trees-named.js');
  const made = await writeNamedPin(
    paths,
    async () => {
      const pin = await makePin(paths, sessionId, agent, new Date(), cwd);
      return existing === null ? pin : { ...pin, stopContinuations: stopCountOf(paths, existing) };
    },
    // A pin is a cache of a decision, never a reason for an event to fail.
    (pin) =>
      writePin(paths, pin).then(
        () => true,
        () => false,
      ),
  );
  if (made.stored) await collectStalePins(paths).catch(() => undefined);
  return made;
}
