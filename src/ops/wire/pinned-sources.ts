import { diagnostic, type Diagnostic } from '../../hooks/diagnostic.js';
import type { SourceDocument } from '../../hooks/types.js';
import { fingerprintTreesCached } from '../../store/fingerprint-cache.js';
import type { SessionPin } from '../../store/session-pin-schema.js';
import type { StorePaths } from '../../store/store-paths.js';

/**
 * The pin's documents whose trees still match (plugins.md Q6: the tamper check runs at every
 * event, through the stat-keyed fingerprint cache, so only changed files are hashed again); a
 * plugin whose tree changed or went is left out with `plugin_tampered`, as the loader does.
 */
export async function pinnedSources(
  paths: StorePaths,
  pin: SessionPin,
): Promise<{ sources: SourceDocument[]; diagnostics: Diagnostic[] }> {
  const found = await fingerprintTreesCached(
    paths,
    pin.plugins.map((p) => p.root),
  );
  const out = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const plugin of pin.plugins) {
    const now = found.get(plugin.root) ?? null;
    if (now === plugin.fingerprint) continue;
    out.add(plugin.id);
    const what =
      now === null
        ? 'its installed tree is missing or unreadable'
        : 'its installed files were changed after install';
    diagnostics.push(
      diagnostic(
        'plugin_tampered',
        'error',
        `plugin ${plugin.id} ${plugin.version} is left out: ${what} (${plugin.root}); run \`hookpm install --force ${plugin.id}\` to restore it`,
        { origin: 'plugin', plugin: plugin.id },
      ),
    );
  }
  const sources = (pin.sources as SourceDocument[]).filter((s) => !out.has(s.plugin?.id ?? ''));
  return { sources, diagnostics };
}
