import { describeValue } from '../../json/describe-value.js';
import type { PolicyInForce } from '../../policy/policy.js';
import {
  pluginRefusal,
  describeRefusal,
  installedRegistry,
  matchesPlugin,
  registryRefusal,
  requiredEntry,
} from '../../policy/policy-rules.js';
import type { PluginRecord, State } from '../../store/state/state-schema.js';
import { effectiveRegistries } from '../steps/catalogs/defaults.js';
import type { OperationContext } from '../steps/context/operation-context.js';
import { okCheck, problem, type DoctorCheck } from './check.js';

/** The project doctor runs in (docs/guides/projects.md): its key in the state, and its records. */
export interface DoctorProject {
  root: string;
  plugins: Record<string, PluginRecord>;
}

/** How a finding names a project's plugin: ` in project <root>`; nothing for a user-wide one. */
export function inProject(root: string | null): string {
  return root === null ? '' : ` in project ${root}`;
}

/** The flag of the commands that act on a project's plugin (` --project`); none for a user's. */
export function projectFlag(root: string | null): string {
  return root === null ? '' : ' --project';
}

/**
 * docs/reference/rules/policy.md#a17: the administrator's policy as doctor sees it: where it is,
 * whether it can be used (an error when not: hookpm fails closed, A11), and against the state (when
 * read) the enabled plugins it stops, the user's and those of `project` (the project doctor runs
 * in, whose plugins run there), the registries it no longer lets be used, and the plugins it
 * requires that are not installed and enabled.
 */
export function checkPolicy(
  inForce: PolicyInForce,
  state: State | null,
  defaults: OperationContext['defaults'],
  project: DoctorProject | null = null,
): DoctorCheck[] {
  if (inForce.status === 'absent')
    return [okCheck('policy', `no administrator's policy (no file at ${inForce.file})`)];
  if (inForce.status === 'invalid')
    return [
      problem(
        'policy',
        'error',
        `the administrator's policy ${inForce.file} cannot be used (${inForce.problem}): no plugin runs, and commands it could refuse are refused`,
        { code: 'policy_invalid', fix: `Ask your administrator to fix ${inForce.file}.` },
      ),
    ];
  const checks = [okCheck('policy', `the administrator's policy ${inForce.file} is in force`)];
  if (state === null) return checks;
  const { policy } = inForce;
  const registries = effectiveRegistries(state, defaults);
  for (const entry of registries) {
    const refusal = registryRefusal(policy, { name: entry.name, location: entry.record.location });
    if (refusal !== null)
      checks.push(
        problem(
          'registry:' + entry.name,
          'warning',
          `the policy does not let registry ${entry.name} be used (${describeRefusal(refusal)})`,
          {
            code: 'policy_registry_refused',
            fix: `hookpm registry remove ${entry.name}`,
          },
        ),
      );
  }
  const locationOf = (name: string): string =>
    registries.find((e) => e.name === name)?.record.location ?? name;
  const scopes: { records: Record<string, PluginRecord>; project: string | null }[] = [
    { records: state.plugins, project: null },
    ...(project === null ? [] : [{ records: project.plugins, project: project.root }]),
  ];
  for (const scope of scopes)
    for (const record of Object.values(scope.records)) {
      if (!record.enabled) continue;
      const registry = installedRegistry(record, locationOf(record.registry));
      const refusal = pluginRefusal(policy, record, registry);
      if (refusal !== null)
        checks.push(
          problem(
            `plugin:${record.id}`,
            'warning',
            `${record.id} is enabled${inProject(scope.project)} but the policy stops it: it does not run (${describeRefusal(refusal)})`,
            {
              code: 'policy_denied',
              fix: `hookpm disable ${record.id}${scope.project === null ? '' : ' --project'}`,
            },
          ),
        );
    }
  for (const record of Object.values(state.plugins)) {
    const off = record.disabledHooks ?? [];
    const entry = off.length === 0 ? null : requiredEntry(policy, record);
    if (entry !== null)
      checks.push(
        problem(
          `plugin:${record.id}`,
          'warning',
          `the policy requires ${record.id} (required entry ${describeValue(entry)}), but ${off.length} of its hooks are turned off`,
          {
            code: 'policy_required_hooks_off',
            fix: `hookpm enable ${record.id} ${off.map((key) => `--hook ${key}`).join(' ')}`,
          },
        ),
      );
  }
  for (const entry of policy.required ?? []) {
    const found = Object.values(state.plugins).some((r) => r.enabled && matchesPlugin(entry, r));
    if (!found)
      checks.push(
        problem(
          'policy',
          'warning',
          `the policy requires ${describeValue(entry)}, which is not installed and enabled`,
          {
            code: 'policy_required_missing',
            // An entry with * names no one plugin (and may be long: it is quoted cut short).
            fix: entry.includes('*')
              ? `Install a plugin ${describeValue(entry)} matches.`
              : `hookpm install ${entry}`,
          },
        ),
      );
  }
  return checks;
}
