import { buildSnapshot } from '../../hooks/snapshot/snapshot.js';
import { policyStops, type RunningPlugin } from '../../policy/policy-at-run.js';
import type { PolicyInForce } from '../../policy/policy.js';
import { sandboxStops } from '../../policy/sandbox-require.js';
import { readPolicyFile } from '../../store/policy-file.js';
import type { SessionPin } from '../../store/session-pin-schema.js';
import type { StorePaths } from '../../store/store-paths.js';

/**
 * docs/reference/rules/policy.md#a13 for a linked agent's event: the session's pin less the
 * plugins the administrator's policy stops now (read at every event, so a plugin denied after it
 * was pinned stops at the next one), each told in a `systemMessage` on the events it would have
 * run on; with a policy file that cannot be used, every pinned plugin fails closed (A11); with
 * `sandbox.require`, a pinned plugin that runs unconfined stops as a denied one does (A18). The pin
 * itself when the policy stops nothing in it. With `registries.allow` (A12), a plugin's registry
 * is matched by its name and by the location its record kept of where it was installed from, else
 * by its registry's location in the state of now; a state that cannot be read leaves the name
 * alone to match.
 */
export async function pinUnderPolicy(
  pin: SessionPin,
  paths: StorePaths,
  env: Readonly<Record<string, string | undefined>>,
  inForce: PolicyInForce = readPolicyFile(env),
): Promise<SessionPin> {
  if (inForce.status === 'absent' || pin.plugins.length === 0) return pin;
  const now =
    inForce.status === 'ok' && inForce.policy.registries?.allow !== undefined
      ? await (await import('./policy-registries.js')).registryLocationsNow(paths)
      : undefined;
  const plugins = pin.plugins.map(({ id, root }): RunningPlugin => {
    const at = id.lastIndexOf('@');
    const events = new Set<string>();
    for (const source of pin.sources)
      if (source.plugin?.id === id)
        for (const event of Object.keys(source.config)) events.add(event);
    const named = { id, name: id.slice(0, at), registry: id.slice(at + 1) };
    const registryLocation = now?.keptOf(id, root);
    return { ...named, events: [...events], documented: true, registryLocation };
  });
  const denied = policyStops(inForce, plugins, now?.locationOf);
  // A18: a pinned plugin that runs unconfined stops too when the policy requires confinement.
  const unconfined = sandboxStops(
    inForce,
    plugins
      .filter((p) => !denied.stopped.has(p.id))
      .map((p) => ({
        ...p,
        confined: pin.sources.some((s) => s.plugin?.id === p.id && s.plugin.confine !== undefined),
      })),
  );
  const stops = {
    stopped: new Set([...denied.stopped, ...unconfined.stopped]),
    failClosed: [...denied.failClosed, ...unconfined.failClosed],
  };
  if (stops.stopped.size === 0) return pin;
  const sources = pin.sources.filter(
    (s) => s.plugin === undefined || !stops.stopped.has(s.plugin.id),
  );
  return {
    ...pin,
    plugins: pin.plugins.filter((p) => !stops.stopped.has(p.id)),
    sources,
    snapshotId: buildSnapshot({ projectDir: '', sources }).id,
    failClosed: [...(pin.failClosed ?? []), ...stops.failClosed],
  };
}
