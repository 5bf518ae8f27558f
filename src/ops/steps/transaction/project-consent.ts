import type { PluginRecord, State } from '../../../store/state/state-schema.js';

/**
 * projects (docs/guides/projects.md): consent stays the user's, and is not asked twice for the same
 * thing. A record of this user's state - the user-wide one or any project's - that holds consent to
 * `surfaceHash` for the same tree (same files fingerprint: consent covers the code it was given
 * for, docs/guides/installing-plugins.md#consent) lets the plugin run in another project without a
 * question.
 */
export function consentedAnywhere(
  state: State,
  id: string,
  tree: { surfaceHash: string; fingerprint: string },
): boolean {
  return recordsOf(state, id).some((r) => consentsTo(r, tree));
}

/**
 * The record whose consent carries to `tree` (consentedAnywhere), in the order consentBaseline
 * prefers: this project's own, else the user-wide one, else another project's; undefined when none
 * does. Its confinement (security.md Z4) is the one that consent was given with, so it goes with
 * it: a tree consented to only confined never runs unconfined through an older version's consent.
 */
export function carriedConsent(
  state: State,
  key: string,
  id: string,
  tree: { surfaceHash: string; fingerprint: string },
): PluginRecord | undefined {
  const own = state.projects?.[key]?.plugins;
  const mine = own !== undefined && Object.hasOwn(own, id) ? own[id] : undefined;
  if (mine !== undefined && consentsTo(mine, tree)) return mine;
  return recordsOf(state, id).find((r) => consentsTo(r, tree));
}

function consentsTo(
  record: PluginRecord,
  tree: { surfaceHash: string; fingerprint: string },
): boolean {
  return (
    record.consent?.surfaceHash === tree.surfaceHash && record.fingerprint === tree.fingerprint
  );
}

/**
 * The record a new project install is reviewed against (Q5: the diff shown is against what was
 * consented): this project's own, else the user-wide one, else another project's consented one.
 */
export function consentBaseline(state: State, key: string, id: string): PluginRecord | undefined {
  const own = state.projects?.[key]?.plugins[id];
  if (own?.consent != null) return own;
  const user = Object.hasOwn(state.plugins, id) ? state.plugins[id] : undefined;
  if (user?.consent != null) return user;
  return recordsOf(state, id).find((r) => r.consent !== null) ?? own ?? user;
}

function recordsOf(state: State, id: string): PluginRecord[] {
  const out: PluginRecord[] = [];
  if (Object.hasOwn(state.plugins, id)) out.push(state.plugins[id]!);
  for (const project of Object.values(state.projects ?? {}))
    if (Object.hasOwn(project.plugins, id)) out.push(project.plugins[id]!);
  return out;
}
