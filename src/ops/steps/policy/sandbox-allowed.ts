import { isDeclaredOrConfined, type Capabilities } from '../../../plugin/capabilities.js';
import { policyUnusable } from '../../../policy/policy-error.js';
import { requiresSandbox, sandboxRefused } from '../../../policy/sandbox-require.js';
import type { PluginRecord, State } from '../../../store/state/state-schema.js';
import type { OperationContext } from '../context/operation-context.js';
import { policyOf } from './policy-of.js';

/**
 * A18 (docs/reference/rules/policy.md): throws E_POLICY when the policy requires confined plugins
 * and plugin `id` about to be enabled neither declares capabilities nor is confined by the user
 * (`confine`, as `enable --confine` records it); also when the policy file cannot be used (A11).
 * Called before anything is written.
 */
export function requireSandboxed(
  ctx: OperationContext,
  what: string,
  id: string,
  plugin: { capabilities: Capabilities | null; confine?: Capabilities | null | undefined },
): void {
  const inForce = policyOf(ctx);
  if (inForce.status === 'absent') return;
  if (inForce.status === 'invalid') throw policyUnusable(inForce, `${what} ${id}`);
  if (requiresSandbox(inForce) && !isDeclaredOrConfined(plugin))
    throw sandboxRefused(inForce, what, id);
}

/** What of a staged plugin (staging/types.ts StagedPlugin) A18 looks at. */
interface StagedSeen {
  inspected: { id: string; surface: { capabilities: Capabilities | null } };
}

/**
 * A18 at the commit of an install (or update) transaction, before the state is written: each
 * staged plugin that the draft state enables (at the tree it was promoted to, `paths[i]`) must
 * declare capabilities or carry the user's `--confine` from an earlier consent.
 */
export function requireStagedSandboxed(
  ctx: OperationContext,
  draft: State,
  staged: readonly StagedSeen[],
  entries: readonly { id: string; enabled: boolean; path: string | null }[],
): void {
  if (!requiresSandbox(policyOf(ctx))) return;
  staged.forEach((plugin, i) => {
    const entry = entries[i];
    if (entry?.enabled !== true) return;
    const record = recordAt(draft, entry.id, entry.path);
    requireSandboxed(ctx, 'installing', plugin.inspected.id, {
      capabilities: plugin.inspected.surface.capabilities,
      confine: record?.consent?.confine,
    });
  });
}

/** The record of `id` (the user's, else a project's) whose tree is `path`. */
function recordAt(state: State, id: string, path: string | null): PluginRecord | undefined {
  const own = (plugins: Record<string, PluginRecord>): PluginRecord[] =>
    Object.hasOwn(plugins, id) ? [plugins[id]!] : [];
  const records = [
    ...own(state.plugins),
    ...Object.values(state.projects ?? {}).flatMap((project) => own(project.plugins)),
  ];
  return records.find((r) => path === null || r.path === path) ?? records[0];
}
