import { isEventName } from '../../hooks/events.js';
import { BLOCKING_EVENTS } from '../../hooks/fail-closed-entry.js';
import { mayRun } from '../../store/runnable-plugins.js';
import type { PluginRecord, State } from '../../store/state/state-schema.js';
import type { StorePaths } from '../../store/store-paths.js';
import { treeStatusOf } from '../../store/tree-status.js';
import { readUserSettings } from '../../store/user-settings.js';
import { disableCommand, restoreCommand } from '../../store/reinstall-command.js';
import { okCheck, problem, type DoctorCheck } from './check.js';
import { inProject, type DoctorProject } from './policy.js';

const BLOCKING = [...BLOCKING_EVENTS].join(', ');

/**
 * docs/reference/rules/engine.md#fail-closed: what the hosts (`wire`, `run`, `session`) fail closed
 * on now: every blocking event when the state cannot be read (`state` null), else each enabled,
 * consented plugin, the user's and those of `project` (the project doctor runs in), whose installed
 * tree is tampered or missing, with the events it was consented for. An error each, or a warning
 * when settings.json's `failOpen` names it (or is true); one ok check when nothing fails closed.
 * Reads only: the trees' fingerprints and the settings file.
 */
export async function checkFailClosed(
  paths: StorePaths,
  state: State | null,
  project: DoctorProject | null = null,
): Promise<DoctorCheck[]> {
  const open = readUserSettings(paths).failOpen;
  const fix = (what: string): string =>
    `${what}; \`"failOpen"\` in settings.json (docs/reference/rules/engine.md#fail-closed) lets it fail open`;
  if (state === null) {
    return [
      problem(
        'fail-closed',
        open.all ? 'warning' : 'error',
        open.all
          ? `the plugin state cannot be read; settings.json's failOpen lets agents go on (${BLOCKING} are not denied)`
          : `the plugin state cannot be read, so every ${BLOCKING} event of a linked agent, \`hookpm run\` and \`hookpm session\` is denied (blocked) until it is recovered`,
        { code: 'failed_closed', fix: fix('recover the state as the `state` check says') },
      ),
    ];
  }
  const records = [
    ...Object.values(state.plugins).map((record) => ({ record, root: null })),
    ...(project === null
      ? []
      : Object.values(project.plugins).map((record) => ({ record, root: project.root }))),
  ].filter(({ record }) => mayRun(record));
  const statuses = await Promise.all(records.map(({ record }) => treeStatusOf(paths, record)));
  const failing = records.filter((_, i) => {
    const status = statuses[i]!.status;
    return status === 'changed' || status === 'missing';
  });
  if (failing.length === 0)
    return [
      okCheck('fail-closed', 'nothing fails closed: every enabled plugin can run as consented'),
    ];
  return failing.map(({ record, root }) =>
    failingCheck(record, root, open.all || open.plugins.includes(record.id), fix),
  );
}

function failingCheck(
  record: PluginRecord,
  root: string | null,
  isOpen: boolean,
  fix: (what: string) => string,
): DoctorCheck {
  const events = record.events.filter((e) => isEventName(e) && BLOCKING_EVENTS.has(e));
  const denied =
    events.length === 0
      ? 'none of its events can be blocked'
      : `${events.join(', ')} denied (blocked)`;
  const message = isOpen
    ? `${record.id} ${record.version}${inProject(root)} cannot run as consented; settings.json's failOpen lets agents go on without it (its reason is shown as a message)`
    : `${record.id} ${record.version}${inProject(root)} cannot run as consented, so it fails closed: ${denied} wherever it would have run`;
  return problem(`fail-closed:${record.id}`, isOpen ? 'warning' : 'error', message, {
    code: 'failed_closed',
    fix: fix(
      `\`${restoreCommand(record.source, root)}\` restores it, \`${disableCommand(record.id, root)}\` stops using it`,
    ),
  });
}
