import type { $ZodType, $ZodTypes } from 'zod/v4/core';

/**
 * Walks a zod schema by its definitions (`_zod.def`) to test a hand-written reader of the same
 * document against it: validOf builds a valid document, placesOf lists every place in it (each
 * key of each object, the entry of each record, the element of each array) with the values to put
 * there. A schema kind or a check this walk does not know throws, so a schema that grows one makes
 * the test fail until the walk (and the reader) learns it.
 */

/** A place in a document: object keys, record keys and array indexes from the root. */
export type Path = ReadonlyArray<string | number>;

/** One place the walk visits, and the values (`undefined`: the key removed) to try there. */
export interface Place {
  path: Path;
  probes: unknown[];
}

/**
 * Every built string and every record key is this word, so a built document also passes the
 * refinements that tie a value to its key (a plugin's id equals its key in the state document).
 */
export const WORD = 'x';

/** Wrong types and edge values, tried at every place. */
const COMMON: unknown[] = [undefined, null, 0, 1, true, false, '', WORD, 'y', [], [WORD], [0], {}];

function defOf(schema: $ZodType): $ZodTypes['_zod']['def'] {
  return (schema as $ZodTypes)._zod.def;
}

/** Throws unless each check of `schema` is one the probes exercise. */
function assertKnownChecks(schema: $ZodType): void {
  for (const check of defOf(schema).checks ?? []) {
    const def = check._zod.def as { check: string; minimum?: number };
    // A refinement (custom) is opaque: the probes below reach it by changing each value.
    if (def.check === 'custom') continue;
    if (def.check === 'min_length' && (def.minimum ?? 0) <= WORD.length) continue;
    throw new Error(
      `schema-walk: a ${defOf(schema).type} has a check it cannot probe: ${def.check}`,
    );
  }
}

/** The smallest valid value of `schema` that still has every key, entry and element. */
export function validOf(schema: $ZodType): unknown {
  assertKnownChecks(schema);
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return WORD;
    case 'boolean':
      return true;
    case 'literal':
      return def.values[0];
    case 'enum':
      return Object.values(def.entries)[0];
    case 'optional':
    case 'nullable':
      return validOf(def.innerType);
    case 'union':
      return validOf(def.options[0]!);
    case 'array':
      return [validOf(def.element)];
    case 'record':
      if (defOf(def.keyType).type !== 'string') throw new Error('schema-walk: a non-string key');
      return { [WORD]: validOf(def.valueType) };
    case 'object':
      return Object.fromEntries(Object.entries(def.shape).map(([k, v]) => [k, validOf(v)]));
    default:
      throw new Error(`schema-walk: cannot walk a zod ${def.type}`);
  }
}

/** The values worth trying where `schema` stands, beyond COMMON. */
function probesOf(schema: $ZodType): unknown[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'literal':
      return def.values.flatMap((v): unknown[] =>
        typeof v === 'number' ? [v, v + 1] : [v, `${String(v)}-`],
      );
    case 'enum':
      return [...Object.values(def.entries), `${String(Object.values(def.entries)[0])}-`];
    case 'optional':
    case 'nullable':
      return probesOf(def.innerType);
    case 'union':
      return def.options.flatMap((option) => [validOf(option), ...probesOf(option)]);
    case 'array': {
      const element = validOf(def.element);
      return [[element, element]];
    }
    case 'record': {
      const entry = validOf(def.valueType);
      return [{ [WORD]: entry, y: entry }, { y: entry }];
    }
    case 'object': {
      const valid = validOf(schema) as Record<string, unknown>;
      return [
        { ...valid, extra: 1 },
        { ...valid, extra: { [WORD]: WORD } },
      ];
    }
    default:
      return [];
  }
}

/** Every place of the document validOf(schema) builds, the root first. */
export function placesOf(schema: $ZodType, path: Path = []): Place[] {
  return [{ path, probes: [...COMMON, ...probesOf(schema)] }, ...childrenOf(schema, path)];
}

/** The places inside `schema` (a union: those of the option validOf builds). */
function childrenOf(schema: $ZodType, path: Path): Place[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
      return childrenOf(def.innerType, path);
    case 'union':
      return childrenOf(def.options[0]!, path);
    case 'array':
      return placesOf(def.element, [...path, 0]);
    case 'record':
      return placesOf(def.valueType, [...path, WORD]);
    case 'object':
      return Object.entries(def.shape).flatMap(([key, value]) => placesOf(value, [...path, key]));
    default:
      return [];
  }
}

/** A copy of `doc` with `value` at `path` (removed there when `value` is undefined). */
export function withValueAt(doc: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(doc);
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete parent[last];
  else parent[last] = structuredClone(value);
  return copy;
}
