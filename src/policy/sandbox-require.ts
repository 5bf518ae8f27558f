import { HookpmError } from '../errors.js';
import { isHookEventName } from '../hooks/events.js';
import type { FailClosed } from '../hooks/fail-closed-entry.js';
import type { PolicyInForce } from './policy.js';
import type { PolicyStops, RunningPlugin } from './policy-at-run.js';

/** The rule's key in the policy file, as E_POLICY and the run-time message name it (A18). */
export const SANDBOX_RULE = 'sandbox.require';

/** A18: whether the policy in force requires every plugin that is enabled or runs to be confined. */
export function requiresSandbox(
  inForce: PolicyInForce,
): inForce is Extract<PolicyInForce, { status: 'ok' }> {
  return inForce.status === 'ok' && inForce.policy.sandbox?.require === true;
}

/** The command that confines a plugin the user trusts with no more than its data directory. */
function confineCommand(id: string): string {
  return `hookpm enable ${id} --confine network=false,write=data`;
}

/**
 * A18, A16: the E_POLICY refusal of `what` (`enabling`, `installing`) for plugin `id`, which
 * neither declares capabilities nor was confined by the user; names the rule and the file.
 */
export function sandboxRefused(
  inForce: Extract<PolicyInForce, { status: 'ok' }>,
  what: string,
  id: string,
): HookpmError {
  return new HookpmError(
    'E_POLICY',
    `${what} ${id} is refused by the administrator's policy: ${SANDBOX_RULE} in ${inForce.file} requires confined plugins, and ${id} neither declares capabilities nor was confined with --confine`,
    {
      plugin: id,
      rule: SANDBOX_RULE,
      entry: null,
      file: inForce.file,
      hint: `Confine it yourself (\`${confineCommand(id)}\`, widened to what it needs), or ask its author to declare capabilities in its plugin.json.`,
    },
  );
}

/**
 * A18 at run time (`run`, `session`, every linked agent event): with `sandbox.require`, a plugin
 * that runs unconfined (`confined` false: no declared capabilities, no `--confine`) does not run,
 * and the events it would have run on get a `systemMessage` saying so and how to confine it (an
 * `open`, `enforced` entry, as A13's).
 */
export function sandboxStops(
  inForce: PolicyInForce,
  plugins: readonly (RunningPlugin & { confined: boolean })[],
): PolicyStops {
  const stopped = new Set<string>();
  const failClosed: FailClosed[] = [];
  if (!requiresSandbox(inForce)) return { stopped, failClosed };
  for (const plugin of plugins) {
    if (plugin.confined) continue;
    stopped.add(plugin.id);
    failClosed.push({
      plugin: plugin.id,
      events: plugin.events.filter((e) => isHookEventName(e)),
      reason: `hookpm: plugin ${plugin.id} no longer runs: the administrator's policy ${inForce.file} requires confined plugins (${SANDBOX_RULE}), and it neither declares capabilities nor was confined; \`${confineCommand(plugin.id)}\` confines it`,
      open: true,
      enforced: true,
    });
  }
  return { stopped, failClosed };
}
