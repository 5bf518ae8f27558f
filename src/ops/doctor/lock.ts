import { hostname } from 'node:os';
import { isLockDirectory, isStale, readLockFile, type LockSighting } from '../../io/lock-record.js';
import { lockFile } from '../../store/paths.js';
import type { StorePaths } from '../../store/store-paths.js';
import { okCheck, problem, type DoctorCheck } from './check.js';

/** The age past which a lock nobody refreshes is judged stale (io/lock.ts's default staleMs). */
const LOCK_STALE_MS = 60_000;

/**
 * registry.md D3: the store lock, as acquireLock would judge it. Free: ok. Held by a live process:
 * a warning with its pid (commands that change the store wait for it, then fail with E_LOCKED).
 * Left by a dead process (or not refreshed for a minute): a warning, as the next command that takes
 * the lock recovers it. A directory there: an error, as no command takes the lock until it is
 * removed. Never touches the lock.
 */
export async function checkLock(paths: StorePaths): Promise<DoctorCheck> {
  const file = lockFile(paths);
  let sighting: LockSighting | undefined;
  try {
    sighting = await readLockFile(file);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return problem('lock', 'warning', `the lock file ${file} cannot be read: ${why}`, {
      code: 'lock_unreadable',
      fix: `Make ${file} readable, or remove it if no hookpm command is running.`,
    });
  }
  if (sighting === undefined) return okCheck('lock', `the store is not locked (${file})`);
  if (isLockDirectory(file)) {
    return problem('lock', 'error', `the store lock ${file} is a directory, not a file`, {
      code: 'lock_directory',
      fix: `Remove the directory ${file} (after checking that nothing in it is needed): until then every command that changes the store fails.`,
    });
  }
  const holder = sighting.holder;
  const who =
    holder === null
      ? 'an unreadable lock record'
      : `process ${holder.pid}${holder.hostname === hostname() ? '' : ` on ${holder.hostname}`} (since ${holder.startedAt})`;
  if (isStale(sighting, LOCK_STALE_MS)) {
    return problem(
      'lock',
      'warning',
      `the store lock ${file} was left by ${who}, which no longer runs`,
      {
        code: 'lock_stale',
        fix: 'Nothing to do: the next command that changes the store recovers it (`hookpm doctor --fix` does too).',
      },
    );
  }
  return problem('lock', 'warning', `the store is locked by ${who}: a hookpm command is running`, {
    code: 'lock_held',
    fix: `Wait for it to finish; commands that change the store wait for it, then fail with E_LOCKED.${holder === null ? '' : ` To see it: \`ps -p ${holder.pid}\`.`}`,
  });
}
