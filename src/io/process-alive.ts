import { errnoCode } from './fs-error.js';

/**
 * `kill(pid, 0)`: the process exists (EPERM: it does, owned by another user). Apart from the lock's
 * record (lock-record.ts, which loads zod), so that a cache's sweep of dead writers loads nothing.
 */
export function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
}
