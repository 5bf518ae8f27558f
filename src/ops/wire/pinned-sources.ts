import type { FailClosed } from '../../hooks/fail-closed-entry.js';
import type { Diagnostic } from '../../hooks/diagnostic.js';
import type { SourceDocument } from '../../hooks/types.js';
import { LINKED_PIN_FINGERPRINT, type SessionPin } from '../../store/session-pin-schema.js';
import type { StorePaths } from '../../store/store-paths.js';
import { failingPlugin } from '../../store/fail-closed-plugin.js';
import { readPin } from '../../store/session-pins.js';
import { changedPlugins } from '../steps/host/changed-plugins.js';

/**
 * Every document of the plugin `id`, all events: the whole pin when `pin` is a table's part of it
 * (files a plugin creates in its folder, docs/design/decisions.md#plugins-and-marketplaces).
 */
function pinnedDocuments(paths: StorePaths, pin: SessionPin): (id: string) => SourceDocument[] {
  return (id) => {
    const whole = (pin.sessionId === '' ? null : readPin(paths, pin.sessionId)) ?? pin;
    return whole.sources.filter((s) => s.plugin?.id === id);
  };
}

/** Why a plugin whose tree was still being checked at the deadline fails closed. */
const UNCHECKED =
  "its installed files could not be checked before the agent's deadline: something in its folder takes too long to read";

/**
 * What `work` settles to, or null when it has not settled by `by` (a `performance.now()` value).
 * `work` is left to run: `hookpm wire` ends its process once it has answered.
 */
async function settledBy<T>(work: Promise<T>, by: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), Math.max(0, by - performance.now()));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What pinnedSources leaves of a pin. */
export interface PinnedSources {
  sources: SourceDocument[];
  diagnostics: Diagnostic[];
  failClosed: FailClosed[];
  /**
   * A plugin left out as tampered was restored since it was pinned (pin-repaired.ts): the caller
   * may pin the session afresh and check again; the other fields are the answer without that.
   */
  restored?: true;
}

/**
 * The pin's documents less those of `plugins` whose trees no longer match (plugins.md Q6, through
 * the stat-keyed fingerprint cache, so only changed files are hashed again): a plugin whose tree
 * changed or went is left out with `plugin_tampered`, as the loader does (files it created in its
 * folder since are allowed unless a pinned handler names one,
 * docs/design/decisions.md#plugins-and-marketplaces). The caller passes the plugins about to run;
 * one that would run nothing now needs no check now. Returns the pin's own `sources` array when
 * nothing is left out. Each plugin left out fails closed on this event
 * (docs/reference/rules/engine.md#fail-closed): its `failClosed` entry applies to every event,
 * since the caller passes only the plugins whose handlers match the one about to be dispatched.
 * With `by` (a `performance.now()` value, the handlers' deadline), a check still running then is
 * not waited for: every plugin it was checking is left out and fails closed (engine.md B2).
 */
export async function pinnedSources(
  paths: StorePaths,
  pin: SessionPin,
  plugins: ReadonlySet<string>,
  by?: number,
): Promise<PinnedSources> {
  // plugins.md D15: a linked directory is not held to a fingerprint.
  const checked = pin.plugins.filter(
    (p) => plugins.has(p.id) && p.fingerprint !== LINKED_PIN_FINGERPRINT,
  );
  if (checked.length === 0) return { sources: pin.sources, diagnostics: [], failClosed: [] };
  const check = (async () => {
    // The hashing code loads only when a plugin is about to run.
    const { checkInstalledTrees } = await import('../../store/tree-check.js');
    return checkInstalledTrees(
      paths,
      checked.map((p) => ({ root: p.root, fingerprint: p.fingerprint })),
    );
  })();
  const found = by === undefined ? await check : await settledBy(check, by);
  if (found === null) {
    // engine.md B2: a tree that cannot be checked in time cannot be trusted either.
    const failClosed = checked.map((plugin) => failingPlugin(plugin, null, UNCHECKED));
    const sources = pin.sources.filter((s) => !checked.some((p) => p.id === s.plugin?.id));
    return { sources, diagnostics: [], failClosed };
  }
  const changed = await changedPlugins(checked, found, pinnedDocuments(paths, pin));
  const { ids: out, diagnostics, failClosed } = changed;
  if (out.size === 0) return { sources: pin.sources, diagnostics, failClosed };
  const sources = pin.sources.filter((s) => !out.has(s.plugin?.id ?? ''));
  const left = { sources, diagnostics, failClosed };
  if (pin.sessionId === '') return left;
  const { pinnedPluginRestored } = await import('./pin-repaired.js');
  const restored = await pinnedPluginRestored(
    paths,
    checked.filter((p) => out.has(p.id)),
  );
  return restored ? { ...left, restored } : left;
}
