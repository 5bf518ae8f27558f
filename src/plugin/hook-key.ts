import { canonicalJson, sha256Hex } from '../json/canonical-json.js';

/**
 * A plugin hook's key: how `hookpm disable <plugin> --hook <key>` names one hook
 * (docs/guides/installing-plugins.md#consent). It is the first 10 hex characters of the SHA-256 of
 * the canonical JSON of the fields that decide what hookpm runs and when - event, matcher, `if`,
 * command, argv, and the shell when it is bash and no argv is run - and of nothing else, so:
 * - it never depends on the hook's position, its document, its timeout or its status message: an
 *   update that moves or re-times a hook keeps its key, and an opt-out keeps applying;
 * - an update that changes what the hook runs or when gives it another key: the opt-out no longer
 *   applies to it, and the review says so;
 * - handlers hookpm would run identically share a key: Claude Code's `args` reach the key as the
 *   argv they make (`[command, ...args]`), and a `shell` counts only as `"bash"` without argv
 *   (`"sh"` is the default; beside argv no shell runs), so the keys of every hook declared
 * without `shell: "bash"` are what they were before hookpm ran it. Field values are those of the
 * surface (docs/reference/rules/plugins.md#consent-surface) and of a snapshot handler alike:
 * matcher, `if` and argv null when absent; command as the engine shows it.
 */
export interface HookKeyFields {
  event: unknown;
  matcher: unknown;
  if: unknown;
  command: unknown;
  argv: unknown;
  shell?: unknown;
}

export const HOOK_KEY_LENGTH = 10;

export function hookKey(fields: HookKeyFields): string {
  return sha256Hex(hookKeyText(fields)).slice(0, HOOK_KEY_LENGTH);
}

/** The canonical JSON a hook's key is the hash of: equal texts have equal keys. */
export function hookKeyText(fields: HookKeyFields): string {
  const keyed = [fields.event, fields.matcher, fields.if, fields.command, fields.argv];
  const bash = fields.shell === 'bash' && (fields.argv === null || fields.argv === undefined);
  if (bash) keyed.push('bash');
  return canonicalJson(keyed);
}

/** Keys stored with the texts they hash (rememberHookKeys), for loggedHookKey only. */
const remembered = new Map<string, string>();

/**
 * engine.md X10: keys computed when a session pin's tables were written, stored there beside the
 * texts they hash, so that logging an event of the pin loads no hashing code. A pair whose key is
 * not of the key's form is ignored.
 */
export function rememberHookKeys(pairs: Iterable<readonly [string, string]>): void {
  for (const [text, key] of pairs) if (isHookKeyForm(key)) remembered.set(text, key);
}

/**
 * The key the decision log names a hook by (docs/guides/decision-log.md): a remembered one for
 * the same text, else hookKey. Only the log reads remembered keys: what runs and what is opted out
 * (hook-opt-outs.ts) always hash, so a forged table can at worst misname a hook in the log.
 */
export function loggedHookKey(fields: HookKeyFields): string {
  return remembered.get(hookKeyText(fields)) ?? hookKey(fields);
}

/** What a user may type as a key (the CLI checks the form before looking the key up). */
export function isHookKeyForm(text: string): boolean {
  return new RegExp(`^[0-9a-f]{${HOOK_KEY_LENGTH}}$`).test(text);
}
