import { PLUGIN_NAME_PATTERN } from '../../plugin/name.js';

/** P3 and docs/reference/rules/registry.md#registry-kinds give plugin names and registry names the same shape. */
const NAME = PLUGIN_NAME_PATTERN.source.slice(1, -1);
const PLUGIN_ID = new RegExp(`^${NAME}@${NAME}$`);
const REGISTRY_NAME = PLUGIN_NAME_PATTERN;
/**
 * A version as hookpm records one: what semver.valid accepts (a manifest's `v1.2.3` and spaces
 * included), in semver's shape; a word such as `constructor` is none.
 */
const VERSION = /^\s*v?\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?\s*$/;

/**
 * D6 on the keys of the raw state document, before the schema copies it (zod drops a `__proto__`
 * key without a word): every key of `plugins` is a plugin id `name@registry` equal to its record's
 * name and registry, every key of `registries` a registry name, and `knownIntegrity` maps ids to
 * versions. The first key that breaks these, as `<path>: <why>`, or null. A key such as
 * `constructor` or `__proto__` is therefore never read as, or dropped like, a prototype property.
 */
export function findKeyProblem(json: unknown): string | null {
  if (!isObject(json)) return null;
  const { plugins, registries, knownIntegrity, projects } = json;
  const badPlugin = findPluginKeyProblem(plugins, 'plugins');
  if (badPlugin !== null) return badPlugin;
  for (const [root, project] of entriesOf(projects)) {
    if (!root.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(root))
      return `projects.${show(root)}: is not an absolute project root`;
    const inner = findPluginKeyProblem(
      isObject(project) ? project.plugins : undefined,
      `projects.${show(root)}.plugins`,
    );
    if (inner !== null) return inner;
  }
  for (const [key] of entriesOf(registries))
    if (!REGISTRY_NAME.test(key)) return `registries.${show(key)}: is not a registry name`;
  for (const [id, versions] of entriesOf(knownIntegrity)) {
    if (!PLUGIN_ID.test(id))
      return `knownIntegrity.${show(id)}: is not a plugin id (name@registry)`;
    for (const [version] of entriesOf(versions))
      if (!VERSION.test(version))
        return `knownIntegrity.${show(id)}.${show(version)}: is not a version`;
  }
  return null;
}

/** The first key of a plugins record that is no plugin id, or whose record makes another id. */
function findPluginKeyProblem(plugins: unknown, where: string): string | null {
  for (const [key, record] of entriesOf(plugins)) {
    if (!PLUGIN_ID.test(key)) return `${where}.${show(key)}: is not a plugin id (name@registry)`;
    const { name, registry } = isObject(record) ? record : {};
    if (typeof name === 'string' && typeof registry === 'string' && `${name}@${registry}` !== key)
      return `${where}.${show(key)}: the record's name and registry do not make its id`;
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own enumerable entries (JSON.parse makes `__proto__` an own key), or none for a non-object. */
function entriesOf(value: unknown): [string, unknown][] {
  return isObject(value) ? Object.entries(value) : [];
}

/** A key as in the schema's paths (`plugins.a@b`), JSON-quoted when it is not a plain word. */
function show(key: string): string {
  return /^[\w.@+-]{1,80}$/.test(key) ? key : JSON.stringify(key.slice(0, 80));
}
