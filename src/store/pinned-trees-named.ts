import { eachRecord, namedTrees, normal } from './named-trees.js';
import type { SessionPin } from './session-pin-schema.js';
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
