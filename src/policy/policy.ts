import { describeValue, isPlainObject } from '../json/describe-value.js';

/**
 * An administrator's policy (docs/reference/rules/policy.md, A10-A18), as read from its file:
 * which registries may be added or used, which plugins may be installed, enabled and run, which
 * plugins cannot be disabled or uninstalled, how old a version must be before it is installed, and
 * whether every plugin must run confined.
 * Every key is optional; an absent key restricts nothing.
 */
export interface Policy {
  registries?: { allow?: string[] };
  plugins?: { allow?: string[]; deny?: string[] };
  required?: string[];
  updates?: { minimumReleaseAgeDays?: number };
  /** A18: `require`: every plugin enabled or run must declare capabilities or be confined. */
  sandbox?: { require?: boolean };
}

/**
 * The policy in force and where it comes from (A10): `absent` when no file is at `file`, `ok` with
 * the policy read from it, `invalid` when the file exists but cannot be used (A11: then every
 * command that it could have refused is refused, and nothing that it could have denied runs).
 */
export type PolicyInForce =
  | { status: 'absent'; file: string; from: PolicyOrigin }
  | { status: 'ok'; file: string; from: PolicyOrigin; policy: Policy }
  | { status: 'invalid'; file: string; from: PolicyOrigin; problem: string };

/** `env`: the file HOOKPM_POLICY_FILE names; `system`: the platform's location (A10). */
export type PolicyOrigin = 'env' | 'system';

const TOP_KEYS = new Set(['registries', 'plugins', 'required', 'updates', 'sandbox']);

/**
 * What is wrong with a parsed policy document, or null (A11). Checked by hand rather than with zod,
 * which the linked-agent path never loads. Unknown keys are errors: a policy hookpm does not fully
 * understand is not half-obeyed. The problem quotes a key or value cut short (describeValue).
 */
export function checkPolicy(value: unknown): string | null {
  if (!isPlainObject(value)) return `expected a JSON object, found ${describeValue(value)}`;
  for (const key of Object.keys(value))
    if (!TOP_KEYS.has(key))
      return `unknown key ${describeValue(key)} (known: ${[...TOP_KEYS].join(', ')})`;
  return (
    checkSection(value, 'registries', ['allow']) ??
    checkSection(value, 'plugins', ['allow', 'deny']) ??
    checkPatterns(value['required'], 'required') ??
    checkPluginEntries(value, 'plugins', ['allow', 'deny']) ??
    checkPluginEntries(value, null, ['required']) ??
    checkUpdates(value['updates']) ??
    checkSandbox(value['sandbox'])
  );
}

function checkSection(
  value: Record<string, unknown>,
  key: string,
  lists: readonly string[],
): string | null {
  if (!Object.hasOwn(value, key)) return null;
  const section = value[key];
  if (!isPlainObject(section)) return `${key} must be an object, found ${describeValue(section)}`;
  for (const inner of Object.keys(section))
    if (!lists.includes(inner)) return `unknown key ${describeValue(`${key}.${inner}`)}`;
  for (const list of lists) {
    const problem = checkPatterns(section[list], `${key}.${list}`);
    if (problem !== null) return problem;
  }
  return null;
}

function checkPatterns(list: unknown, where: string): string | null {
  if (list === undefined) return null;
  if (!Array.isArray(list))
    return `${where} must be an array of strings, found ${describeValue(list)}`;
  const bad = list.findIndex((entry) => typeof entry !== 'string' || entry === '');
  if (bad === -1) return null;
  return `${where}[${bad}] must be a non-empty string, found ${describeValue(list[bad])}`;
}

/**
 * A13: a plugin entry is `name` or `name@registry`, each part of what names are made of
 * (plugin/name.ts: lowercase letters, digits, `.`, `_`, `-`) and `*`, with at most NAME_MAX of them
 * besides `*` (a name has no more). Any other (`Guard`, `guard@`) could match no plugin: a deny or
 * required entry that silently does nothing is refused instead.
 */
const PLUGIN_ENTRY = /^[a-z0-9._*-]+(@[a-z0-9._*-]+)?$/;
const NAME_MAX = 64;

function isPluginEntry(entry: string): boolean {
  return (
    PLUGIN_ENTRY.test(entry) &&
    entry.split('@').every((part) => part.replaceAll('*', '').length <= NAME_MAX)
  );
}

function checkPluginEntries(
  value: Record<string, unknown>,
  section: string | null,
  lists: readonly string[],
): string | null {
  const holder = section === null ? value : (value[section] as Record<string, unknown> | undefined);
  for (const list of lists) {
    const entries = (holder?.[list] ?? []) as string[];
    const bad = entries.findIndex((entry) => !isPluginEntry(entry));
    if (bad === -1) continue;
    const where = section === null ? list : `${section}.${list}`;
    return `${where}[${bad}] ${describeValue(entries[bad])} can match no plugin: an entry is name or name@registry, each of at most ${NAME_MAX} lowercase letters, digits, ".", "_", "-", and * (any run of characters)`;
  }
  return null;
}

function checkUpdates(updates: unknown): string | null {
  if (updates === undefined) return null;
  if (!isPlainObject(updates)) return `updates must be an object, found ${describeValue(updates)}`;
  for (const key of Object.keys(updates))
    if (key !== 'minimumReleaseAgeDays') return `unknown key ${describeValue(`updates.${key}`)}`;
  const days = updates['minimumReleaseAgeDays'];
  if (days === undefined || (typeof days === 'number' && Number.isFinite(days) && days >= 0))
    return null;
  return `updates.minimumReleaseAgeDays must be a number of days (0 or more), found ${describeValue(days)}`;
}

function checkSandbox(sandbox: unknown): string | null {
  if (sandbox === undefined) return null;
  if (!isPlainObject(sandbox)) return `sandbox must be an object, found ${describeValue(sandbox)}`;
  for (const key of Object.keys(sandbox))
    if (key !== 'require') return `unknown key ${describeValue(`sandbox.${key}`)}`;
  const require = sandbox['require'];
  if (require === undefined || typeof require === 'boolean') return null;
  return `sandbox.require must be true or false, found ${describeValue(require)}`;
}
