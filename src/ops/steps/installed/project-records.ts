import { HookpmError } from '../../../errors.js';
import type { PluginRecord, State } from '../../../store/state/state-schema.js';
import { canonicalProjectRoot } from '../../../workspace/canonical-root.js';

/**
 * Which records a command that names an installed plugin reads and changes: the user-wide ones
 * (`state.plugins`), or with `--project` those of the project of the working directory
 * (`state.projects[key]`, docs/guides/projects.md), keyed by its canonical root.
 */
export type RecordScope = { kind: 'user' } | { kind: 'project'; root: string; key: string };

export const USER_RECORDS: RecordScope = { kind: 'user' };

/**
 * The project of `cwd` (engine.md S2), as a RecordScope: its canonical root (T2), the one runs and
 * the project commands key it by, also when `cwd` is reached through a symlink. Reads no project
 * file.
 */
export async function projectRecordScope(cwd: string): Promise<RecordScope> {
  const root = await canonicalProjectRoot(cwd);
  return { kind: 'project', root, key: root };
}

/**
 * The records of `scope` in `state`, the object itself (a change to one is a change to `state`).
 * A project without records gets an empty map, written into `state` only if `create`.
 */
export function recordsIn(
  state: State,
  scope: RecordScope,
  create = false,
): Record<string, PluginRecord> {
  if (scope.kind === 'user') return state.plugins;
  const project = state.projects?.[scope.key];
  if (project !== undefined) return project.plugins;
  const plugins: Record<string, PluginRecord> = {};
  if (create) state.projects = { ...(state.projects ?? {}), [scope.key]: { plugins } };
  return plugins;
}

/**
 * `state` as the commands that look up installed plugins (findInstalled, info) see it in `scope`:
 * for a project, its records stand in `plugins`. For reading only.
 */
export function stateIn(state: State, scope: RecordScope): State {
  return scope.kind === 'user' ? state : { ...state, plugins: recordsIn(state, scope) };
}

/** E_NOT_INSTALLED for a project that has no plugin of this user installed at all. */
export function assertProjectHasRecords(state: State, scope: RecordScope): void {
  if (scope.kind === 'user' || Object.keys(recordsIn(state, scope)).length > 0) return;
  throw new HookpmError('E_NOT_INSTALLED', `no plugin is installed for the project ${scope.root}`, {
    hint: 'Run `hookpm install` in the project (it installs what hookpm.json lists), or `hookpm install --project <spec>`.',
  });
}
