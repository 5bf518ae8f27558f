import { readFileSync } from 'node:fs';
import { errnoCode } from '../../io/fs-error.js';
import { stateFile } from '../home-paths.js';
import type { StorePaths } from '../store-paths.js';
import type { State } from './state-schema.js';

/**
 * Reads the state for read-only commands that must start fast (`hookpm list`, STYLE "Start-up
 * cost"): loading zod costs more than the whole start-up budget. A document that passes the
 * structural check below, which accepts exactly what stateSchema accepts, is returned as the
 * schema would return it; anything else (an unreadable file, a failed check, a newer version)
 * goes to readState, which loads the schema and fails with E_STATE_CORRUPT exactly as every other
 * command does (D6). stateSchema is the one schema: test/store/read-state-fast.test.ts walks every
 * key of it, so a key or rule the check below lacks fails there.
 */
export async function readStateFast(paths: StorePaths): Promise<State> {
  let text: string | undefined;
  try {
    text = readFileSync(stateFile(paths), 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { version: 1, registries: {}, plugins: {} };
  }
  const state = text === undefined ? null : readQuickState(text);
  if (state !== null) return state;
  const { readState } = await import('./state.js');
  return readState(paths);
}

type Check = (value: unknown) => boolean;

const str: Check = (v) => typeof v === 'string';
const nonEmpty: Check = (v) => typeof v === 'string' && v.length > 0;
const bool: Check = (v) => typeof v === 'boolean';
const strings: Check = (v) => Array.isArray(v) && v.every(str);
const obj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function shape(fields: Record<string, Check>): (v: unknown) => Record<string, unknown> | null {
  return (v) => {
    if (!obj(v)) return null;
    const out: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(fields)) {
      if (!check(v[key])) return null;
      out[key] = v[key];
    }
    return out;
  };
}

const consent = shape({ surfaceHash: nonEmpty, at: str, version: nonEmpty });
const pending = shape({
  version: nonEmpty,
  path: nonEmpty,
  integrity: nonEmpty,
  fingerprint: nonEmpty,
  surfaceHash: nonEmpty,
  events: strings,
  source: str,
});
const registry = shape({
  location: nonEmpty,
  kind: (v) => v === 'index' || v === 'marketplace' || v === 'npm',
  addedAt: str,
});
const plugin = shape({
  id: nonEmpty,
  name: nonEmpty,
  registry: nonEmpty,
  version: nonEmpty,
  source: str,
  range: str,
  integrity: nonEmpty,
  fingerprint: nonEmpty,
  path: nonEmpty,
  enabled: bool,
  installedAt: str,
  surfaceHash: nonEmpty,
  events: strings,
  consent: (v) => v === null || consent(v) !== null,
  pending: (v) => v === null || pending(v) !== null,
});

/** The state when `text` passes the structural check, else null (then the schema decides). */
export function readQuickState(text: string): State | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (!obj(json) || json.version !== 1 || !obj(json.registries) || !obj(json.plugins)) return null;
  const registries: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json.registries)) {
    const parsed = registry(value);
    if (parsed === null) return null;
    registries[key] = parsed;
  }
  const plugins: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json.plugins)) {
    const parsed = plugin(value);
    if (parsed === null || parsed.id !== key) return null;
    parsed.consent = parsed.consent === null ? null : consent(parsed.consent);
    parsed.pending = parsed.pending === null ? null : pending(parsed.pending);
    const disabledHooks = (value as Record<string, unknown>).disabledHooks;
    if (disabledHooks !== undefined) {
      if (!strings(disabledHooks)) return null;
      parsed.disabledHooks = disabledHooks;
    }
    plugins[key] = parsed;
  }
  const removed = json.removedDefaults;
  if (removed === undefined) return { version: 1, registries, plugins } as State;
  if (!strings(removed)) return null;
  return { version: 1, registries, plugins, removedDefaults: removed } as State;
}
