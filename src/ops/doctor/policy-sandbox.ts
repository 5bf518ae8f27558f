import {
  effectiveConfinement,
  normalizeCapabilities,
  type Capabilities,
} from '../../plugin/capabilities.js';
import type { PolicyInForce } from '../../policy/policy.js';
import { requiresSandbox, SANDBOX_RULE } from '../../policy/sandbox-require.js';
import { readPluginDir } from '../../store/read-plugin.js';
import type { PluginRecord, State } from '../../store/state/state-schema.js';
import { problem, type DoctorCheck } from './check.js';
import { inProject, type DoctorProject } from './policy.js';

/**
 * docs/reference/rules/policy.md#a18 as doctor sees it: with `sandbox.require`, each enabled
 * plugin, the user's and those of `project` (the project doctor runs in), that would run unconfined
 * (its installed manifest declares no capabilities and the user gave no `--confine`) is a
 * `policy_unconfined` warning: the policy stops it. A plugin whose tree cannot be read is left to
 * the plugin checks.
 */
export async function checkSandboxPolicy(
  inForce: PolicyInForce,
  state: State | null,
  project: DoctorProject | null = null,
): Promise<DoctorCheck[]> {
  if (!requiresSandbox(inForce) || state === null) return [];
  const scoped = (records: Record<string, PluginRecord>, root: string | null) =>
    Object.values(records).map((record) => ({ record, project: root }));
  const enabled = [
    ...scoped(state.plugins, null),
    ...(project === null ? [] : scoped(project.plugins, project.root)),
  ].filter(({ record }) => record.enabled);
  const declared = await Promise.all(enabled.map(({ record }) => declaredOf(record)));
  return enabled.flatMap(({ record, project: root }, i) => {
    const read = declared[i];
    if (read === undefined) return [];
    if (effectiveConfinement(read, record.consent?.confine ?? null) !== null) return [];
    const flag = root === null ? '' : ' --project';
    return [
      problem(
        `plugin:${record.id}`,
        'warning',
        `${record.id} is enabled${inProject(root)} but the policy stops it: it neither declares capabilities nor was confined (${SANDBOX_RULE})`,
        {
          code: 'policy_unconfined',
          fix: `hookpm enable ${record.id}${flag} --confine network=false,write=data`,
        },
      ),
    ];
  });
}

/** The capabilities the installed manifest declares (null: none); undefined when unreadable. */
async function declaredOf(record: PluginRecord): Promise<Capabilities | null | undefined> {
  try {
    const plugin = await readPluginDir(record.path, { fallbackName: record.name, id: record.id });
    const declared = plugin.manifest?.capabilities;
    return declared === undefined ? null : normalizeCapabilities(declared);
  } catch {
    return undefined;
  }
}
