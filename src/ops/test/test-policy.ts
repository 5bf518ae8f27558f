import { isDeclaredOrConfined } from '../../plugin/capabilities.js';
import type { PolicyInForce } from '../../policy/policy.js';
import { policyRefused, policyUnusable } from '../../policy/policy-error.js';
import { pluginRefusal } from '../../policy/policy-rules.js';
import { requiresSandbox, sandboxRefused } from '../../policy/sandbox-require.js';
import type { PluginUnderTest } from './plugin-under-test.js';

/**
 * policy.md A11-A13, A16, A18 for `hookpm test`: its handlers run, so the plugin under test is held
 * to the policy as a plugin about to run under `hookpm run` is. E_POLICY (named `testing <id>`, the
 * rule and the file) when the policy file cannot be used, when it refuses the plugin or its
 * registry (`local` for a directory or a tarball), or when it requires confined plugins and this
 * one neither declares capabilities nor was confined by the user. Called before any handler runs.
 */
export function requireTestAllowed(inForce: PolicyInForce, plugin: PluginUnderTest): void {
  const { id } = plugin.inspected;
  if (inForce.status === 'absent') return;
  if (inForce.status === 'invalid') throw policyUnusable(inForce, `testing ${id}`);
  const name = id.slice(0, id.lastIndexOf('@'));
  const refusal = pluginRefusal(
    inForce.policy,
    { name, registry: plugin.registry.name },
    plugin.registry,
  );
  if (refusal !== null) throw policyRefused(inForce, `testing ${id}`, refusal, { plugin: id });
  const capabilities = plugin.inspected.surface.capabilities;
  if (requiresSandbox(inForce) && !isDeclaredOrConfined({ capabilities, confine: plugin.confine }))
    throw sandboxRefused(inForce, 'testing', id);
}
