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

/** Writes `text` to stdout (1) or stderr (2), whole. */
export function writeText(fd: 1 | 2, text: string): void {
  let rest = Buffer.from(text);
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      (fd === 1 ? process.stdout : process.stderr).write(rest);
      return;
    }
  }
}
