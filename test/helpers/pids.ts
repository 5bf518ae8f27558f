import { existsSync, readFileSync } from 'node:fs';

/** Whether `pid` is a live process; a zombie (killed, not yet reaped by its parent) is not. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    if (existsSync('/proc/self/stat')) return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `pid` is gone within `timeoutMs`: a SIGKILL takes effect when the kernel next schedules
 * the process, a moment after the sender (which may have exited since) sent it.
 */
export async function goneWithin(pid: number, timeoutMs = 1000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

/** Polls until `file` holds a pid, and returns it. */
export async function waitForPid(file: string, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
    if (/^\d+$/.test(text)) return Number(text);
    if (Date.now() > deadline) throw new Error(`no pid in ${file} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
