import { HookpmError } from '../../errors.js';
import type { Diagnostic } from '../../hooks/diagnostic.js';
import { buildSnapshot, type SnapshotPlugin } from '../../hooks/snapshot/snapshot.js';
import { listPins, readPin, writePin } from '../../store/session-pins.js';
import type { StorePaths } from '../../store/store-paths.js';
import { makePin } from './make-pin.js';
import { writeNamedPin } from '../../store/pinned-trees-named.js';
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

/**
 * The session's new pin (registry.md S41, writeNamedPin), its project (its plugins, where its
 * handlers fall back to) the one it had.
 */
async function repin(paths: StorePaths, old: SessionPin): Promise<SessionPin> {
  const made = await writeNamedPin(
    paths,
    () => makePin(paths, old.sessionId, old.agent, new Date(), old.projectRoot),
    (pin) => writePin(paths, pin).then(() => true),
  );
  return made.pin;
}
