import type { FailClosed } from '../../hooks/fail-closed-entry.js';
import type { Diagnostic } from '../../hooks/diagnostic.js';
import type { SourceDocument } from '../../hooks/types.js';
import { LINKED_PIN_FINGERPRINT, type SessionPin } from '../../store/session-pin-schema.js';
import type { StorePaths } from '../../store/store-paths.js';
import { failingPlugin } from '../../store/fail-closed-plugin.js';
import { readPin } from '../../store/session-pins.js';
import { tamperedDiagnostic } from '../../store/tampered.js';

/**
 * files a plugin creates in its folder (docs/design/decisions.md#plugins-and-marketplaces): whether
 * a file created in a pinned plugin's folder changes what its pinned handlers run (the pin's
 * documents are fixed, so only the handler rule can apply).
 */
async function createdProblem(
  paths: StorePaths,
  pin: SessionPin,
  id: string,
  created: string[],
): Promise<string | null> {
  const { createdFileProblem, handlerTextOfConfigs } =
    await import('../../plugin/created-files.js');
  // Every document of the plugin, all events: the whole pin when `pin` is a table's part of it.
  const whole = (pin.sessionId === '' ? null : readPin(paths, pin.sessionId)) ?? pin;
  const own = whole.sources.filter((s) => s.plugin?.id === id);
  return createdFileProblem({
    created,
    read: own.map((s) => s.file),
    handlerText: handlerTextOfConfigs(own.map((s) => s.config)),
  });
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
  const out = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const failClosed: FailClosed[] = [];
  if (found === null) {
    // engine.md B2: a tree that cannot be checked in time cannot be trusted either.
    for (const plugin of checked) {
      out.add(plugin.id);
      failClosed.push(failingPlugin(plugin, null, UNCHECKED));
    }
    const sources = pin.sources.filter((s) => !out.has(s.plugin?.id ?? ''));
    return { sources, diagnostics, failClosed };
  }
  for (const plugin of checked) {
    const now = found.get(plugin.root);
    const problem =
      now?.status === 'created' ? await createdProblem(paths, pin, plugin.id, now.created) : null;
    if (now?.status === 'match' || (now?.status === 'created' && problem === null)) continue;
    out.add(plugin.id);
    const tampered = { ...plugin, path: plugin.root };
    const missing = problem === null && now?.status !== 'changed';
    diagnostics.push(
      problem === null
        ? tamperedDiagnostic(tampered, missing)
        : tamperedDiagnostic(tampered, false, problem),
    );
    const why = missing
      ? 'its installed tree is missing or unreadable'
      : (problem ?? 'its installed files were changed after install');
    failClosed.push(failingPlugin(plugin, null, why));
  }
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
