import { policyRefused, policyUnusable } from '../../../policy/policy-error.js';
import {
  describeRefusal,
  installedRegistry,
  pluginRefusal,
  registryRefusal,
  requiredEntry,
  type PolicyPlugin,
  type PolicyRegistry,
} from '../../../policy/policy-rules.js';
import type { State } from '../../../store/state/state-schema.js';
import { effectiveRegistries } from '../catalogs/defaults.js';
import type { OperationContext } from '../context/operation-context.js';
import { policyOf } from './policy-of.js';

/**
 * A12, A13, A16 (docs/reference/rules/policy.md): throws E_POLICY when the policy refuses `plugin`
 * (from `registry`, when known) for `what` ("installing", "enabling", "updating to"), or when the
 * policy file cannot be used (A11). Called before anything is written.
 */
export function requirePluginAllowed(
  ctx: OperationContext,
  what: string,
  plugin: PolicyPlugin,
  registry?: PolicyRegistry,
): void {
  const inForce = policyOf(ctx);
  const id = `${plugin.name}@${plugin.registry}`;
  if (inForce.status === 'absent') return;
  if (inForce.status === 'invalid') throw policyUnusable(inForce, `${what} ${id}`);
  const refusal = pluginRefusal(inForce.policy, plugin, registry);
  if (refusal !== null) throw policyRefused(inForce, `${what} ${id}`, refusal, { plugin: id });
}

/**
 * A11: E_POLICY while the policy file cannot be used, for a command the policy could have refused
 * (`update`) before it finds out whether it has anything to do: refused even when it would change
 * nothing.
 */
export function requireUsablePolicy(ctx: OperationContext, what: string): void {
  const inForce = policyOf(ctx);
  if (inForce.status === 'invalid') throw policyUnusable(inForce, what);
}

/** A12: E_POLICY when the registry may not be added or used (or the file cannot be used, A11). */
export function requireRegistryAllowed(
  ctx: OperationContext,
  what: string,
  registry: PolicyRegistry,
): void {
  const inForce = policyOf(ctx);
  if (inForce.status === 'absent') return;
  if (inForce.status === 'invalid') throw policyUnusable(inForce, what);
  const refusal = registryRefusal(inForce.policy, registry);
  if (refusal !== null) throw policyRefused(inForce, what, refusal, { registry: registry.name });
}

/**
 * A14: E_POLICY when a `required` entry names the plugin, which then cannot be disabled or
 * uninstalled. A policy file that cannot be used refuses too (A11: it may have required it).
 */
export function requireNotRequired(
  ctx: OperationContext,
  what: string,
  plugin: PolicyPlugin,
): void {
  const inForce = policyOf(ctx);
  const id = `${plugin.name}@${plugin.registry}`;
  if (inForce.status === 'absent') return;
  if (inForce.status === 'invalid') throw policyUnusable(inForce, `${what} ${id}`);
  const entry = requiredEntry(inForce.policy, plugin);
  if (entry !== null)
    throw policyRefused(inForce, `${what} ${id}`, { rule: 'required', entry }, { plugin: id });
}

/**
 * A12: a registry as the policy matches it: its name and its location in effect (the state's
 * record, else the built-in's); `local` and `npm`, which have none recorded, by their name.
 */
export function policyRegistryOf(
  ctx: OperationContext,
  state: State,
  name: string,
): PolicyRegistry {
  return { name, location: installedFrom(ctx, state, name) ?? name };
}

/**
 * A12: the registry an installed record is judged by: the location it kept of where it was
 * installed from, else its registry's location in effect now (installedFrom).
 */
export function installedRegistryOf(
  ctx: OperationContext,
  state: State,
  record: { registry: string; registryLocation?: string | undefined },
): PolicyRegistry {
  return installedRegistry(record, installedFrom(ctx, state, record.registry));
}

/**
 * A12: the location `registry` has in effect (the state's record, else the built-in's), which the
 * record of a plugin installed from it now keeps (`registryLocation`), as the install was judged
 * by; undefined for a registry with none (`local`, `npm`).
 */
export function installedFrom(
  ctx: OperationContext,
  state: State,
  registry: string,
): string | undefined {
  return effectiveRegistries(state, ctx.defaults).find((e) => e.name === registry)?.record.location;
}

/**
 * A12, A13: why the policy in force refuses an installed plugin (its rule described, and the file),
 * or null when it allows it, when there is no policy, or when the file cannot be used (A11: the
 * caller's transaction then refuses with E_POLICY).
 */
export function policyRefusalOf(
  ctx: OperationContext,
  state: State,
  plugin: PolicyPlugin,
): { rule: string; file: string } | null {
  const inForce = policyOf(ctx);
  if (inForce.status !== 'ok') return null;
  const refusal = pluginRefusal(
    inForce.policy,
    plugin,
    policyRegistryOf(ctx, state, plugin.registry),
  );
  return refusal === null ? null : { rule: describeRefusal(refusal), file: inForce.file };
}
