import { openSync, readdirSync, readFileSync } from 'node:fs';
import type { StdioOptions } from 'node:child_process';
import type { Writable } from 'node:stream';

/*
 * Z4: the descriptors a confined handler starts with. A descriptor hookpm inherited from whatever
 * started it (an agent, a shell) and that is not close-on-exec would pass on through bwrap into
 * the sandbox, and a directory among them leads out of it: `/proc/self/fd/<n>/file` reaches the
 * directory on its own, writable mount. Each such descriptor is replaced by /dev/null in the
 * handler; hookpm's own are close-on-exec, and the handler gets its three pipes and bwrap's status
 * pipe (fd 3) as before.
 */

/** O_CLOEXEC, as /proc/self/fdinfo shows it in `flags:` (octal). */
const CLOSE_ON_EXEC = 0o2000000;

let devNull: number | null = null;

/**
 * The stdio of a confined spawn: pipes for 0-3 (and 4, bwrap's seccomp program, with `seccomp`),
 * /dev/null over every other inherited descriptor.
 */
export function confinedStdio(seccomp: boolean): StdioOptions {
  const stdio: StdioOptions = ['pipe', 'pipe', 'pipe', 'pipe'];
  if (seccomp) stdio.push('pipe');
  const inherited = inheritedDescriptors().filter((fd) => fd >= stdio.length);
  if (inherited.length === 0) return stdio;
  devNull ??= openSync('/dev/null', 'r');
  for (const fd of inherited) {
    while (stdio.length < fd) stdio.push('ignore');
    stdio[fd] = devNull;
  }
  return stdio;
}

/** This process's descriptors above 3 that a child would inherit, ascending ([] off Linux). */
function inheritedDescriptors(): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 3 || fd === devNull) continue;
    try {
      const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
      if (flags !== null && (parseInt(flags[1] ?? '0', 8) & CLOSE_ON_EXEC) === 0) found.push(fd);
    } catch {
      // closed meanwhile (the readdir's own descriptor among them)
    }
  }
  return found.sort((a, b) => a - b);
}

/**
 * Z5: hands bwrap its seccomp program on fd 4; bwrap reads it to the end before the handler
 * starts.
 */
export function writeSeccomp(stream: Writable | null, program: Buffer): void {
  stream?.on('error', () => {});
  stream?.end(program);
}
