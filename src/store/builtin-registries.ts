/**
 * The built-in registries (docs/reference/rules/registry.md#registry-kinds): `examples`, the
 * `registry-fixtures/` directory shipped in the package, exists until the user removes it. Built-in
 * registries are not written to the state; the state records the ones the user removed
 * (`removedDefaults`), and a registry the user added under a built-in name replaces the built-in
 * one.
 */
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../io/package-root.js';
import type { RegistryRecord, State } from './state/state-schema.js';

const EXAMPLES_REGISTRY = 'examples';

/** The package root's `registry-fixtures/`. */
function examplesLocation(): string {
  return join(PACKAGE_ROOT, 'registry-fixtures');
}

export function builtinRegistries(): Record<string, RegistryRecord> {
  return {
    [EXAMPLES_REGISTRY]: {
      location: examplesLocation(),
      kind: 'index',
      addedAt: '1970-01-01T00:00:00.000Z',
    },
  };
}

/**
 * The location registry `name` has in effect for `state`: the user's record, else the built-in's
 * unless the user removed it; undefined for a registry with none (`local`, `npm`, one unknown).
 * policy.md A12 at run time matches a plugin's registry by it, as install does.
 */
export function registryLocationIn(state: State, name: string): string | undefined {
  if (Object.hasOwn(state.registries, name)) return state.registries[name]!.location;
  if ((state.removedDefaults ?? []).includes(name)) return undefined;
  const builtin = builtinRegistries();
  return Object.hasOwn(builtin, name) ? builtin[name]!.location : undefined;
}
