import { writeSync } from 'node:fs';
import { isatty } from 'node:tty';

/**
 * STYLE "Start-up cost": process.stdout, process.stderr and process.stdin are made on first use,
 * a stream each over a pipe, file or terminal, which costs about 3 ms at the start of a short
 * command (bench/install.bench.mjs). Output and the terminal checks go through the file
 * descriptors instead; a write that would block (a non-blocking pipe that is full) hands the rest
 * to the stream, which queues it, so nothing is lost or reordered.
 */
export function isTerminal(fd: 0 | 1 | 2): boolean {
  return isatty(fd);
}

/** Whether a write was handed to a stream, which may still hold it. */
let queued = false;

/** Writes `text` to stdout (1) or stderr (2), whole. */
export function writeText(fd: 1 | 2, text: string): void {
  let rest = Buffer.from(text);
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      queued = true;
      (fd === 1 ? process.stdout : process.stderr).write(rest);
      return;
    }
  }
}

/**
 * Ends a finished command at once, with process.exitCode, when all it printed went straight to
 * the file descriptors: a natural exit would first tear down the heap and the environment, about
 * 1.5 ms of a short command (bench/install.bench.mjs). With output still queued in a stream, the
 * process ends naturally once the stream is drained.
 */
export function exitWhenWritten(): void {
  if (!queued) process.exit();
}
