import type { PluginRecord, State } from '../../src/store/state/state-schema.js';

export { makePlugin } from '../fixtures/store/plugin-record.mjs';

/** A state holding `plugins`. */
export function makeState(plugins: PluginRecord[]): State {
  return { version: 1, registries: {}, plugins: Object.fromEntries(plugins.map((p) => [p.id, p])) };
}
