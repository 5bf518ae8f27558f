import { spawn } from 'node:child_process';
import { statSync, watch } from 'node:fs';
import { dirname } from 'node:path';
import { BIN } from './built-bin.js';

/**
 * Runs `hookpm ...args` and kills it (SIGKILL) as soon as it has replaced `stateFile` (its inode
 * changed), which is right after a command's state write (registry.md D2: a write is a rename).
 * Where the kill lands after the write is up to the scheduler: a test checks what it finds.
 */
export async function killAfterStateWrite(
  args: string[],
  opts: { env: Record<string, string>; cwd: string; stateFile: string },
): Promise<void> {
  const inode = statSync(opts.stateFile).ino;
  const child = spawn(process.execPath, [BIN, ...args], {
    env: opts.env,
    cwd: opts.cwd,
    stdio: 'ignore',
  });
  const watcher = watch(dirname(opts.stateFile), () => {
    if (statSync(opts.stateFile, { throwIfNoEntry: false })?.ino === inode) return;
    child.kill('SIGKILL');
    watcher.close();
  });
  await new Promise((resolve) => child.on('close', resolve));
  watcher.close();
}
