import type { PluginRecord, State } from '../../src/store/state/state-schema.js';

/** A valid plugin record (registry.md D2) with `over` applied. */
export function makePlugin(id: string, over: Partial<PluginRecord> = {}): PluginRecord {
  const [name = id, registry = 'examples'] = id.split('@');
  return {
    id,
    name,
    registry,
    version: '1.0.0',
    source: `${name}@^1`,
    range: '^1',
    integrity: 'sha512-AAAA',
    fingerprint: 'sha256-BBBB',
    path: `/store/plugins/${name}/1.0.0-000000000000`,
    enabled: true,
    installedAt: '2026-11-30T00:00:00.000Z',
    consent: { surfaceHash: 'sha256-CCCC', at: '2026-11-30T00:00:00.000Z', version: '1.0.0' },
    surfaceHash: 'sha256-CCCC',
    events: ['PreToolUse', 'Stop'],
    pending: null,
    ...over,
  };
}

/** A state holding `plugins`. */
export function makeState(plugins: PluginRecord[]): State {
  return { version: 1, registries: {}, plugins: Object.fromEntries(plugins.map((p) => [p.id, p])) };
}
