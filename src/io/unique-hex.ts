/**
 * `bytes` bytes of lower-case hex, unlikely to repeat across processes, runs and crashes: for names
 * that must not clash (a temporary file, a staging directory, a lock's token), never for secrets.
 * Every name made with it is created exclusively (`wx`, `mkdir`, `link`), is in the lock holder's
 * own staging directory, or is compared with what this process wrote, so being hard to guess would
 * buy nothing. From Math.random (V8 seeds it from the system's entropy in every process) rather
 * than node:crypto, which Node 24 does not hold in its start-up snapshot: loading it took about
 * 10 ms of a command that hashes nothing (`registry update`).
 */
export function uniqueHex(bytes: number): string {
  let text = '';
  while (text.length < bytes * 2)
    text += Math.floor(Math.random() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, '0');
  return text.slice(0, bytes * 2);
}
