import type { Diagnostic } from '../../hooks/diagnostic.js';
import type { SourceDocument } from '../../hooks/types.js';
import type { SessionPin } from '../../store/session-pin-schema.js';
import type { StorePaths } from '../../store/store-paths.js';
import { tamperedDiagnostic } from '../run/tampered.js';

/**
 * The pin's documents less those of `plugins` whose trees no longer match (plugins.md Q6, through
 * the stat-keyed fingerprint cache, so only changed files are hashed again): a plugin whose tree
 * changed or went is left out with `plugin_tampered`, as the loader does. The caller passes the
 * plugins about to run; one that would run nothing now needs no check now. Returns the pin's own
 * `sources` array when nothing is left out.
 */
export async function pinnedSources(
  paths: StorePaths,
  pin: SessionPin,
  plugins: ReadonlySet<string>,
): Promise<{ sources: SourceDocument[]; diagnostics: Diagnostic[] }> {
  const checked = pin.plugins.filter((p) => plugins.has(p.id));
  if (checked.length === 0) return { sources: pin.sources, diagnostics: [] };
  // The hashing code loads only when a plugin is about to run.
  const { fingerprintTreesCached } = await import('../../store/fingerprint-cache.js');
  const found = await fingerprintTreesCached(
    paths,
    checked.map((p) => p.root),
  );
  const out = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const plugin of checked) {
    const now = found.get(plugin.root) ?? null;
    if (now === plugin.fingerprint) continue;
    out.add(plugin.id);
    diagnostics.push(tamperedDiagnostic({ ...plugin, path: plugin.root }, now === null));
  }
  if (out.size === 0) return { sources: pin.sources, diagnostics };
  return { sources: pin.sources.filter((s) => !out.has(s.plugin?.id ?? '')), diagnostics };
}
