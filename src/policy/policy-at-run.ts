import type { FailClosed } from '../hooks/fail-closed-entry.js';
import { CLAUDE_CODE_EVENT_NAMES, isHookEventName } from '../hooks/events.js';
import type { PolicyInForce } from './policy.js';
import { describeRefusal, installedRegistry, pluginRefusal } from './policy-rules.js';

/** A plugin about to run, as the policy judges it at run time. */
export interface RunningPlugin {
  id: string;
  name: string;
  registry: string;
  /**
   * The events its entry applies to: those it was consented for (its state record's, Q1: the
   * engine's events only), or, with `documented`, every event its documents hook.
   */
  events: readonly string[];
  /** `events` come from its documents (a session pin's), Claude Code's own events among them. */
  documented?: boolean;
  /** The location its record kept of the registry it was installed from (A12), when it has one. */
  registryLocation?: string | undefined;
}

/** The plugins the policy stops from running, and what the agent is told of each. */
export interface PolicyStops {
  /** The ids that must not run. */
  stopped: Set<string>;
  failClosed: FailClosed[];
}

/**
 * A13, A11 at run time (`run`, `session`, every linked agent event): a plugin the policy denies
 * does not run, and the events it would have run on get a `systemMessage` saying so (an `open`
 * entry: it blocks nothing). When the policy file cannot be used, no plugin runs and each fails
 * closed on its events (B2: blocking events get their blocking answer), the reason naming the file.
 * Both entries are `enforced`: settings.json's `failOpen` does not change them. `registryOf` gives
 * a registry's recorded location (A12 matches the name, and the location when known); a plugin
 * whose record kept the location it was installed from is judged by that one instead.
 */
export function policyStops(
  inForce: PolicyInForce,
  plugins: readonly RunningPlugin[],
  registryOf: (name: string) => string | undefined = () => undefined,
): PolicyStops {
  const stopped = new Set<string>();
  const failClosed: FailClosed[] = [];
  if (inForce.status === 'absent') return { stopped, failClosed };
  for (const plugin of plugins) {
    const events = plugin.events.filter((e) => isHookEventName(e));
    if (inForce.status === 'invalid') {
      stopped.add(plugin.id);
      failClosed.push({
        plugin: plugin.id,
        // engine.md B2, as failingPlugin does: without its documents, nothing tells which of Claude
        // Code's own events it hooks, so the entry holds every one of them.
        events: plugin.documented === true ? events : [...events, ...CLAUDE_CODE_EVENT_NAMES],
        reason: `hookpm fails closed: the administrator's policy ${inForce.file} cannot be used (${inForce.problem}), so plugin ${plugin.id} does not run; ask your administrator to fix it (\`hookpm policy\` shows the problem)`,
        enforced: true,
      });
      continue;
    }
    const registry = installedRegistry(plugin, registryOf(plugin.registry));
    const refusal = pluginRefusal(inForce.policy, plugin, registry);
    if (refusal === null) continue;
    stopped.add(plugin.id);
    failClosed.push({
      plugin: plugin.id,
      events,
      reason: `hookpm: plugin ${plugin.id} no longer runs: the administrator's policy ${inForce.file} denies it (${describeRefusal(refusal)})`,
      open: true,
      enforced: true,
    });
  }
  return { stopped, failClosed };
}
