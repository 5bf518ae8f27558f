import { describeValue } from '../json/describe-value.js';
import { withoutUserInfo } from '../registry/http/url-policy.js';
import { ROOT_FILE } from '../registry/sparse/sparse-format.js';
import type { Policy } from './policy.js';

/** Why the policy refuses something: the rule's key in the file, and the entry that decided. */
export interface PolicyRefusal {
  /** `registries.allow`, `plugins.allow`, `plugins.deny` or `required`. */
  rule: 'registries.allow' | 'plugins.allow' | 'plugins.deny' | 'required';
  /** The entry that matched (deny, required); null when no allow entry matched. */
  entry: string | null;
}

/** A plugin as the policy sees it: its name and the registry it comes from (its id `name@registry`). */
export interface PolicyPlugin {
  name: string;
  registry: string;
}

/** A registry as the policy sees it: its name and its location (URL or directory). */
export interface PolicyRegistry {
  name: string;
  location: string;
}

/**
 * A12: the registry an installed plugin is judged by: its registry's name, and the location its
 * record kept (`registryLocation`: where it was installed from), else `locationNow` (its registry's
 * location of now, for a record written before it was kept or of a registry with none), else the
 * name.
 */
export function installedRegistry(
  record: { registry: string; registryLocation?: string | undefined },
  locationNow: string | undefined,
): PolicyRegistry {
  return {
    name: record.registry,
    location: record.registryLocation ?? locationNow ?? record.registry,
  };
}

/**
 * A13: `*` stands for any run of characters (none too); everything else is literal and the whole
 * text must match. Case-sensitive, as names and ids are.
 */
export function matchesPattern(pattern: string, text: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === text;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!text.startsWith(first) || text.length < first.length + last.length) return false;
  if (!text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (const middle of parts.slice(1, -1)) {
    const found = text.indexOf(middle, at);
    if (found === -1 || found + middle.length > end) return false;
    at = found + middle.length;
  }
  return true;
}

/** A13: `name` matches the plugin's name in any registry; `name@registry` its id. */
export function matchesPlugin(pattern: string, plugin: PolicyPlugin): boolean {
  const at = pattern.lastIndexOf('@');
  if (at === -1) return matchesPattern(pattern, plugin.name);
  return (
    matchesPattern(pattern.slice(0, at), plugin.name) &&
    matchesPattern(pattern.slice(at + 1), plugin.registry)
  );
}

/**
 * A13: whether the policy lets the plugin be installed, enabled, updated and run: a `plugins.deny`
 * entry that matches refuses it; otherwise, when `plugins.allow` is given, one of its entries must
 * match. A12 comes first: a plugin of a registry that may not be used is refused for that.
 */
export function pluginRefusal(
  policy: Policy,
  plugin: PolicyPlugin,
  registry?: PolicyRegistry,
): PolicyRefusal | null {
  if (registry !== undefined) {
    const refused = registryRefusal(policy, registry);
    if (refused !== null) return refused;
  }
  const deny = policy.plugins?.deny?.find((p) => matchesPlugin(p, plugin));
  if (deny !== undefined) return { rule: 'plugins.deny', entry: deny };
  const allow = policy.plugins?.allow;
  if (allow === undefined || allow.some((p) => matchesPlugin(p, plugin))) return null;
  return { rule: 'plugins.allow', entry: null };
}

/**
 * A12: whether a registry may be added or used: when `registries.allow` is given, one of its
 * entries must match the registry's name or its location (locationForms). A URL is matched
 * without its user and password: they never change the host it names, and an entry cannot know
 * each user's.
 */
export function registryRefusal(policy: Policy, registry: PolicyRegistry): PolicyRefusal | null {
  const allow = policy.registries?.allow;
  if (allow === undefined) return null;
  const locations = locationForms(registry.location);
  const ok = allow.some(
    (p) => matchesPattern(p, registry.name) || locations.some((l) => matchesPattern(p, l)),
  );
  return ok ? null : { rule: 'registries.allow', entry: null };
}

const URL_LOCATION = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * A12: the forms of a registry location an entry may match: the URL without its user and
 * password; and a sparse registry's base URL and its root document's (`<base>registry.json`,
 * which `registry add` records of a base URL that has one) alike, as one location. A directory
 * path is matched as it is.
 */
function locationForms(location: string): string[] {
  const bare = withoutUserInfo(location);
  if (!URL_LOCATION.test(bare)) return [bare];
  if (bare.endsWith(`/${ROOT_FILE}`)) return [bare, bare.slice(0, -ROOT_FILE.length)];
  return bare.endsWith('/') ? [bare, `${bare}${ROOT_FILE}`] : [bare];
}

/** A14: the `required` entry naming the plugin (it cannot be disabled or uninstalled), or null. */
export function requiredEntry(policy: Policy, plugin: PolicyPlugin): string | null {
  return policy.required?.find((p) => matchesPlugin(p, plugin)) ?? null;
}

/**
 * The rule in words, for messages: `plugins.deny entry "x"`, `plugins.allow (no entry matches)`;
 * a long entry is cut short (describeValue).
 */
export function describeRefusal(refusal: PolicyRefusal): string {
  return refusal.entry === null
    ? `${refusal.rule} (no entry matches)`
    : `${refusal.rule} entry ${describeValue(refusal.entry)}`;
}
