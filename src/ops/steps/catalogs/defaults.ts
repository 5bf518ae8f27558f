/**
 * The registries in effect: the state's and the built-in ones (store/builtin-registries.ts).
 */
import { compareCodeUnits } from '../../../json/compare.js';
import { builtinRegistries } from '../../../store/builtin-registries.js';
import type { RegistryRecord, State } from '../../../store/state/state-schema.js';

/**
 * Whether `name` is the name of a registry hookpm ships (`examples`), which a project's hookpm.json
 * never redefines (project-scope.ts): a default under any other name is a project's.
 */
export function isBuiltinName(name: string): boolean {
  return Object.hasOwn(builtinRegistries(), name);
}

/**
 * Whether `name` at `location` is a registry hookpm ships (`examples` at its own directory), not
 * one a project's hookpm.json adds for a command through the defaults (project-scope.ts).
 */
export function isShippedRegistry(name: string, location: string): boolean {
  const builtin = builtinRegistries();
  return Object.hasOwn(builtin, name) && builtin[name]?.location === location;
}

/** A configured registry as the operations see it. */
export interface RegistryEntry {
  name: string;
  record: RegistryRecord;
  /** True for a built-in registry that the user has neither removed nor replaced. */
  builtin: boolean;
}

/** The registries in effect, by name. */
export function effectiveRegistries(
  state: State,
  defaults: Readonly<Record<string, RegistryRecord>> = builtinRegistries(),
): RegistryEntry[] {
  const removed = new Set(state.removedDefaults ?? []);
  const entries: RegistryEntry[] = Object.entries(state.registries).map(([name, record]) => ({
    name,
    record,
    builtin: false,
  }));
  for (const [name, record] of Object.entries(defaults)) {
    if (removed.has(name) || Object.hasOwn(state.registries, name)) continue;
    entries.push({ name, record, builtin: true });
  }
  return entries.sort((a, b) => compareCodeUnits(a.name, b.name));
}
