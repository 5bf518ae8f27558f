import { HookpmError } from '../../errors.js';
import type { Diagnostic } from '../../hooks/diagnostic.js';
import { buildSnapshot, type SnapshotPlugin } from '../../hooks/snapshot/snapshot.js';
import { listPins, readPin, writePin } from '../../store/session-pins.js';
import type { StorePaths } from '../../store/store-paths.js';
import { makePin } from './make-pin.js';
import { pinnedTreesNamed } from '../../store/pinned-trees-named.js';
import type { SessionPin } from '../../store/session-pin-schema.js';

/** One reloaded session, as engine.md R4 reports a reload. */
export interface ReloadedSession {
  sessionId: string;
  agent: string;
  snapshotId: string;
  handlers: number;
  plugins: SnapshotPlugin[];
  diagnostics: Diagnostic[];
}

export type ReloadTarget = { sessionId: string } | { all: true };

/**
 * `hookpm reload --session <id>` / `--all`: pins the plugins that may run now to the session (or
 * every pinned session), so its next event runs them (R1, R4). Errors: E_NOT_FOUND for a session
 * hookpm has no pin of; E_IO and kin when a pin cannot be written.
 */
export async function reloadSessions(
  paths: StorePaths,
  target: ReloadTarget,
): Promise<ReloadedSession[]> {
  const pins =
    'all' in target
      ? (await listPins(paths)).map((entry) => entry.pin)
      : [readPin(paths, target.sessionId)].filter((pin) => pin !== null);
  if (!('all' in target) && pins.length === 0) {
    throw new HookpmError(
      'E_NOT_FOUND',
      `no agent session ${JSON.stringify(target.sessionId)} is pinned`,
      {
        found: target.sessionId,
        hint: 'A linked session is pinned at its first event; `hookpm reload --all` reloads every pinned session.',
      },
    );
  }
  const reloaded: ReloadedSession[] = [];
  for (const old of pins) {
    const pin = await repin(paths, old);
    const snapshot = buildSnapshot({ projectDir: '', sources: pin.sources, id: pin.snapshotId });
    reloaded.push({
      sessionId: pin.sessionId,
      agent: pin.agent,
      snapshotId: snapshot.id,
      handlers: snapshot.handlers.length,
      plugins: [...snapshot.plugins],
      diagnostics: pin.diagnostics,
    });
  }
  return reloaded;
}

/** How often a reload pins a session while commands keep changing the store under it. */
const PIN_ATTEMPTS = 3;

/**
 * The session's new pin, written unless made from a state that could not be read
 * (docs/reference/rules/engine.md#fail-closed). registry.md S41: a pin whose trees the state no
 * longer names once it is written may have lost one to a command's collection meanwhile; it is
 * made again from the state of then.
 */
async function repin(paths: StorePaths, old: SessionPin): Promise<SessionPin> {
  for (let attempt = 1; ; attempt++) {
    // The session's project (its plugins, where its handlers fall back to) stays the one it had.
    const pin = await makePin(paths, old.sessionId, old.agent, new Date(), old.projectRoot);
    if ((pin.failClosed ?? []).some((entry) => entry.plugin === null)) return pin;
    await writePin(paths, pin);
    if (attempt >= PIN_ATTEMPTS || (await pinnedTreesNamed(paths, pin))) return pin;
  }
}
