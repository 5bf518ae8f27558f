import type { State } from './state-schema.js';

/*
 * The structural check of the state document: it accepts exactly what stateSchema accepts and
 * returns what the schema would (the same objects, not a copy), without loading zod. Reads use it
 * before the schema (which then only says what is wrong), and writeState uses it as its assertion.
 */

type Check = (value: unknown) => boolean;

const str: Check = (v) => typeof v === 'string';
const nonEmpty: Check = (v) => typeof v === 'string' && v.length > 0;
const bool: Check = (v) => typeof v === 'boolean';
const strings: Check = (v) => Array.isArray(v) && v.every(str);
const obj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A strict object (stateSchema's are): every field checked, no other field. A record that passes
 * is returned as it is, not copied: a copy built key by key costs several times the check, at
 * every start, for every installed plugin.
 */
function shape(fields: Record<string, Check>): (v: unknown) => Record<string, unknown> | null {
  const keys = Object.keys(fields);
  const checks = Object.values(fields);
  return (v) => {
    if (!obj(v)) return null;
    let present = 0;
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[i]!;
      const value = Object.hasOwn(v, key) ? v[key] : undefined;
      if (!checks[i]!(value)) return null;
      if (value !== undefined) present += 1;
    }
    return Object.keys(v).length === present ? v : null;
  };
}

/** Z4: `enable --confine`, {network, write} with places among data, project, tmp. */
const confine = shape({
  network: bool,
  write: (v) => Array.isArray(v) && v.every((p) => p === 'data' || p === 'project' || p === 'tmp'),
});
const consent = shape({
  surfaceHash: nonEmpty,
  at: str,
  version: nonEmpty,
  confine: (v) => v === undefined || confine(v) !== null,
});
/** An optional field that is a non-empty string when present. */
const optionalNonEmpty: Check = (v) => v === undefined || nonEmpty(v);
const pendingFields = {
  version: nonEmpty,
  path: nonEmpty,
  integrity: nonEmpty,
  fingerprint: nonEmpty,
  surfaceHash: nonEmpty,
  events: strings,
  source: str,
  registryLocation: optionalNonEmpty,
};
const pending = shape(pendingFields);
const previous = shape({
  ...pendingFields,
  consent: (v) => consent(v) !== null,
  disabledHooks: (v) => v === undefined || strings(v),
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
  // policy.md A12: where it was installed from; optional, so state files without it load as before.
  registryLocation: optionalNonEmpty,
  range: str,
  integrity: nonEmpty,
  fingerprint: nonEmpty,
  path: nonEmpty,
  enabled: bool,
  installedAt: str,
  updatedAt: (v) => v === undefined || str(v),
  surfaceHash: nonEmpty,
  events: strings,
  consent: (v) => v === null || consent(v) !== null,
  pending: (v) => v === null || pending(v) !== null,
  // Per-hook opt-outs (docs/guides/installing-plugins.md#consent); optional, so state files without
  // it load as before.
  disabledHooks: (v) => v === undefined || strings(v),
  linked: (v) => v === undefined || v === true,
  keptOff: (v) => v === undefined || v === true,
  // `hookpm rollback`'s version; optional, so state files without it load as before.
  previous: (v) => v === undefined || previous(v) !== null,
});

/** Top-level keys of the document: all but `version` optional or checked below. */
const TOP_LEVEL = new Set([
  'version',
  'registries',
  'plugins',
  'removedDefaults',
  'knownIntegrity',
  'projects',
]);

/**
 * The state when `text` passes the structural check, else null (then the schema decides). A
 * `__proto__` key is left to the schema path too (readState refuses it, state-keys.ts).
 */
export function readQuickState(text: string): State | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  return quickStateOf(json);
}

/**
 * The structural check of a parsed document: the state (the same objects) when `json` passes,
 * else null. It accepts exactly what stateSchema accepts (test/store/read-state-fast.test.ts).
 */
export function quickStateOf(json: unknown): State | null {
  if (!obj(json) || json.version !== 1 || !obj(json.registries) || !obj(json.plugins)) return null;
  if (Object.keys(json).some((key) => !TOP_LEVEL.has(key))) return null;
  const registries = recordOf(json.registries, registry);
  const plugins = recordOf(json.plugins, pluginRecordOf);
  if (registries === null || plugins === null) return null;
  const state: Record<string, unknown> = { version: 1, registries, plugins };
  const removed = json.removedDefaults;
  if (removed !== undefined) {
    if (!strings(removed)) return null;
    state.removedDefaults = removed;
  }
  const known = json.knownIntegrity;
  if (known !== undefined) {
    const parsed = recordOf(known, (versions) =>
      recordOf(versions, (v) => (nonEmpty(v) ? v : null)),
    );
    if (parsed === null) return null;
    state.knownIntegrity = parsed;
  }
  const projects = json.projects;
  if (projects !== undefined) {
    const parsed = recordOf(projects, (project) => {
      const checked = projectShape(project);
      if (checked === null) return null;
      const inner = recordOf(checked.plugins, pluginRecordOf);
      return inner === null ? null : { plugins: inner };
    });
    if (parsed === null) return null;
    state.projects = parsed;
  }
  return state as State;
}

const projectShape = shape({ plugins: (v) => obj(v) });

function pluginRecordOf(value: unknown, key: string): Record<string, unknown> | null {
  const parsed = plugin(value);
  if (parsed === null || parsed.id !== key) return null;
  parsed.consent = parsed.consent === null ? null : consent(parsed.consent);
  parsed.pending = parsed.pending === null ? null : pending(parsed.pending);
  return parsed;
}

/** Each value of a record through `read` (null: the record is refused), or null when not a record. */
function recordOf(
  value: unknown,
  read: (entry: unknown, key: string) => unknown,
): Record<string, unknown> | null {
  if (!obj(value)) return null;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key === '__proto__') return null;
    const parsed = read(entry, key);
    if (parsed === null) return null;
    out[key] = parsed;
  }
  return out;
}
