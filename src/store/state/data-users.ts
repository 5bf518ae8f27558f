import { compareCodeUnits } from '../../json/compare.js';
import type { State } from './state-schema.js';

/** Who a plugin's data directory serves: the user-wide plugin, or a project by its canonical root. */
export type DataUser = { kind: 'user' } | { kind: 'project'; root: string };

/**
 * plugins.md V3 with projects (docs/guides/projects.md): the records of `state` that name `id`,
 * user-wide first, then the projects by root. The data directory is one per id (the user-wide
 * plugin and every project's share it), so it is deleted only when this is empty.
 */
export function dataUsers(state: State, id: string): DataUser[] {
  const users: DataUser[] = Object.hasOwn(state.plugins, id) ? [{ kind: 'user' }] : [];
  for (const [root, project] of Object.entries(state.projects ?? {}).sort(([a], [b]) =>
    compareCodeUnits(a, b),
  ))
    if (Object.hasOwn(project.plugins, id)) users.push({ kind: 'project', root });
  return users;
}

/** A data user in words: "the user-wide plugin" or "the project <root>". */
export function describeDataUser(user: DataUser): string {
  return user.kind === 'user' ? 'the user-wide plugin' : `the project ${user.root}`;
}
