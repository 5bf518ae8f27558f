import { eachRecord, namedTrees, normal } from './named-trees.js';
import type { SessionPin } from './session-pin-schema.js';
import { removePin } from './session-pins.js';
import { readStateFast } from './state/read-state-fast.js';
import type { StorePaths } from './store-paths.js';

/**
 * registry.md S41 for a pin just written: whether the state on disk still names every tree the pin
 * runs (as a plugin's active, pending or previous version). A command that changes the state
 * collects after its state write, reading the pins then; a pin is written before this read of the
 * state. So when the state read here names the trees, any later collection that drops one sees
 * the pin and spares it; when it does not, a collection may have read the pins before this one was
 * written, and the tree may be gone: the caller does not keep the pin. False when the state cannot
 * be read. Never throws.
 */
export async function pinnedTreesNamed(paths: StorePaths, pin: SessionPin): Promise<boolean> {
  if (pin.plugins.length === 0) return true;
  try {
    const named = namedTrees(eachRecord(await readStateFast(paths)));
    return pin.plugins.every((plugin) => named.has(normal(plugin.root)));
  } catch {
    return false;
  }
}

/** How often a session is pinned while commands keep changing the store under it (S41). */
const PIN_ATTEMPTS = 3;

/**
 * registry.md S41: pins a session with `make()`'s pin and `write`s it (false: not written), made
 * again while the state no longer names every tree of the pin once it is written, PIN_ATTEMPTS
 * times at most; after the last, the pin file is removed, so no later event runs trees a
 * collection may have taken. A pin made from a state that could not be read (its fail-closed
 * entry names no plugin, engine.md fail closed) is never written. `stored`: whether the returned
 * pin is the session's pin on disk.
 */
export async function writeNamedPin(
  paths: StorePaths,
  make: () => Promise<SessionPin>,
  write: (pin: SessionPin) => Promise<boolean>,
): Promise<{ pin: SessionPin; stored: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const pin = await make();
    if (!isStorable(pin) || !(await write(pin))) return { pin, stored: false };
    if (await pinnedTreesNamed(paths, pin)) return { pin, stored: true };
    if (attempt >= PIN_ATTEMPTS) {
      await removePin(paths, pin.sessionId).catch(() => undefined);
      return { pin, stored: false };
    }
  }
}

/** A pin made from a state that could be read (its failures, if any, are plugins'). */
export function isStorable(pin: SessionPin): boolean {
  return !(pin.failClosed ?? []).some((entry) => entry.plugin === null);
}
