import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errnoCode } from '../../io/fs-error.js';
import { readFailureReason } from '../../io/read-regular-file.js';
import { readStateBytes } from '../../store/state/read-state-bytes.js';
import { pluginsDir, stateFile } from '../../store/paths.js';
import type { StorePaths } from '../../store/store-paths.js';
import { STATE_VERSION, emptyState, type State } from '../../store/state/state-schema.js';
import { findProblem } from '../../store/state/state.js';
import { treesWithoutState } from '../../store/state/state-gone.js';
import { okCheck, plural, problem, type DoctorCheck } from './check.js';
import { recoverySteps } from './recovery.js';

/** The state as doctor sees it: never repaired, never copied (readState would keep a copy, D6). */
export type StateRead =
  { status: 'valid'; state: State; missing: boolean } | { status: 'unusable'; check: DoctorCheck };

/**
 * registry.md D2, D6: reads the state file without writing anything. A missing file is the empty
 * state; an unreadable, corrupt or future-version file is an error check whose fix explains the
 * recovery step by step (the kept copies, restoring, moving it aside, reinstalling); the file
 * itself is never touched.
 */
export async function readStateForDoctor(paths: StorePaths): Promise<StateRead> {
  const file = stateFile(paths);
  let bytes: Buffer;
  try {
    bytes = readStateBytes(file);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT')
      return { status: 'valid', state: emptyState(), missing: true };
    const why = readFailureReason(error);
    const check = problem('state', 'error', `the state file ${file} cannot be read (${why})`, {
      code: 'state_unreadable',
      fix: `Make ${file} a regular file readable by this user (commands fail with E_IO, E_STATE_CORRUPT or E_STORE_READONLY until it is).`,
    });
    return { status: 'unusable', check };
  }
  const found = findProblem(bytes);
  if (found.state !== undefined) return { status: 'valid', state: found.state, missing: false };
  const { json, futureVersion: version } = found;
  const copies = await keptCopies(file);
  const message =
    version === null
      ? `the state file ${file} ${found.reason}: every command that reads it fails with E_STATE_CORRUPT; it is never reset (plugins and registries are not checked until it is recovered)`
      : `the state file ${file} was written by a newer hookpm (state version ${version}; this one reads ${STATE_VERSION}): commands fail with E_STATE_CORRUPT and it is never rewritten (plugins and registries are not checked)`;
  const check = problem('state', 'error', message, {
    code: version === null ? 'state_corrupt' : 'state_future_version',
    fix: recoverySteps({
      file,
      copies,
      json,
      futureVersion: version,
      unknownField: found.unknownField,
      pluginsDir: pluginsDir(paths),
    }),
  });
  return { status: 'unusable', check };
}

/** The `state` check of a readable state. */
export function stateOkCheck(
  paths: StorePaths,
  read: { state: State; missing: boolean },
): DoctorCheck {
  const file = stateFile(paths);
  if (read.missing) {
    const installed = treesWithoutState(paths);
    if (installed === 0)
      return okCheck('state', `${file} does not exist yet: nothing is installed`);
    // engine.md B3: the runtime cannot tell which of the installed plugins would run.
    return problem(
      'state',
      'error',
      `${file} is missing while ${plural(installed, 'plugin')} ${installed === 1 ? 'is' : 'are'} installed in the store: every event that can block fails closed`,
      {
        code: 'state_missing',
        fix: 'Reinstall the plugins you want (`hookpm install <spec>`): the state is written again, and `hookpm doctor --fix` then collects the trees no plugin uses. Or put back a copy of state.json you kept.',
      },
    );
  }
  const plugins = Object.keys(read.state.plugins).length;
  const registries = Object.keys(read.state.registries).length;
  return okCheck(
    'state',
    `${file} is valid (version ${STATE_VERSION}; ${plural(plugins, 'plugin')}, ${plural(registries, 'added registry', 'added registries')})`,
  );
}

/** The `state.json.corrupt-*` copies commands kept (D6), oldest first. */
async function keptCopies(file: string): Promise<string[]> {
  const prefix = `${basename(file)}.corrupt-`;
  const names = await readdir(dirname(file)).catch(() => [] as string[]);
  return names
    .filter((name) => name.startsWith(prefix))
    .sort()
    .map((name) => join(dirname(file), name));
}
