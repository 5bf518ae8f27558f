import { constants } from 'node:buffer';
import { fstatSync, readSync, writeSync } from 'node:fs';
import { errnoCode } from '../io/fs-error.js';

/**
 * STYLE "Start-up cost": process.stdout, process.stderr and process.stdin are made on first use,
 * a stream each over a pipe, file or terminal, which costs about 3 ms at the start of a short
 * command (bench/install.bench.mjs). Output and the terminal checks go through the file
 * descriptors instead; a write that would block (a non-blocking pipe that is full) hands the rest
 * to the stream, which queues it, so nothing is lost or reordered.
 */
export function isTerminal(fd: 0 | 1 | 2): boolean {
  // node:tty loads node:net and the streams (about 3 ms): only a command that asks pays for it.
  return process.getBuiltinModule('node:tty').isatty(fd);
}

/** The descriptors whose output went to their stream, which may still hold some of it. */
const queued = new Set<1 | 2>();

/**
 * Writes `text` to stdout (1) or stderr (2), whole. Once a descriptor's output has gone to its
 * stream, the rest follows it there, behind what the stream still holds.
 */
export function writeText(fd: 1 | 2, text: string): void {
  if (queued.has(fd)) {
    streamOf(fd).write(text);
    return;
  }
  writeBytes(fd, Buffer.from(text));
}

/**
 * Writes `bytes` (UTF-8 text) as writeText writes text: a document kept as bytes (`list --json`'s,
 * megabytes at thousands of plugins) goes out without a decode into a string and an encode back.
 * The caller may reuse `bytes` once this returns: what the stream queues is a copy.
 */
export function writeBytes(fd: 1 | 2, bytes: Buffer): void {
  if (queued.has(fd)) {
    streamOf(fd).write(Buffer.from(bytes));
    return;
  }
  let rest = bytes;
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return endOnClosedOutput();
      if (code !== 'EAGAIN') throw error;
      queued.add(fd);
      streamOf(fd).write(Buffer.from(rest));
      return;
    }
  }
}

/** The most stdin readStdinBytes keeps: the longest string Node can hold. */
export const STDIN_MAX_BYTES = constants.MAX_STRING_LENGTH;

/**
 * Stdin to its end, read from the descriptor (no stream to set up). Null when it is longer than
 * STDIN_MAX_BYTES: reading stops there, so memory stays bounded, and the caller says so. A
 * descriptor its parent left non-blocking (EAGAIN while nothing is written yet) is waited on.
 */
export function readStdinBytes(): Buffer | null {
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    let read: number;
    try {
      read = readSync(0, chunk);
    } catch (error) {
      if (errnoCode(error) !== 'EAGAIN') throw error;
      // A 5 ms sleep of this thread: nothing ever notifies the fresh cell.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      continue;
    }
    if (read === 0) return Buffer.concat(chunks, size);
    chunks.push(chunk.subarray(0, read));
    size += read;
    if (size > STDIN_MAX_BYTES) return null;
  }
}

function streamOf(fd: 1 | 2): NodeJS.WriteStream {
  return endWhenClosed(fd === 1 ? process.stdout : process.stderr);
}

const guarded = new WeakSet<NodeJS.WritableStream>();

/**
 * A closed pipe ends quietly (docs/reference/commands.md#terminals-and-pipes): `stream` (stdout or
 * stderr, or a stream over them) ends the command quietly when its reader goes away (EPIPE: `hookpm
 * hooks | head -1`), as writeText does; any other write error is thrown as before. Returns
 * `stream`.
 */
export function endWhenClosed<S extends NodeJS.WritableStream>(stream: S): S {
  if (guarded.has(stream)) return stream;
  guarded.add(stream);
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') endOnClosedOutput();
    throw error;
  });
  return stream;
}

/**
 * A closed output ends the command at once and quietly, as `git log | head -1` ends git, but with
 * the status it already has (0 unless it had failed) rather than git's 141 (SIGPIPE), so a
 * pipeline under `set -o pipefail` whose reader stops early still succeeds. Nothing is printed: the reader is
 * gone, and stderr may be the same pipe. The store stays consistent: every state write is a
 * rename, and a lock left by an ended process is taken over (io/lock.ts).
 */
function endOnClosedOutput(): never {
  process.exit();
}

/**
 * Ends a finished command at once, with process.exitCode, when all it printed went straight to
 * the file descriptors: a natural exit would first tear down the heap and the environment, about
 * 1.5 ms of a short command (bench/install.bench.mjs). With output still queued in a stream, the
 * process ends naturally once the stream is drained.
 */
export function exitWhenWritten(): void {
  if (queued.size === 0) process.exit();
}

/**
 * Output fitted to the terminal (docs/reference/commands.md#terminals-and-pipes): the columns that
 * text on stdout (1) or stderr (2) is fitted to: the terminal's width, or null off a terminal
 * (output to a pipe or file is never fitted). HOOKPM_COLUMNS (a positive integer) overrides both,
 * terminal or not, so tests and scripts can fix a width.
 */
export function terminalWidth(fd: 1 | 2): number | null {
  const forced = Number.parseInt(process.env.HOOKPM_COLUMNS ?? '', 10);
  if (Number.isSafeInteger(forced) && forced > 0) return forced;
  // A pipe or file is not a character device: known without loading node:tty (isTerminal).
  if (!isCharacterDevice(fd) || !isTerminal(fd)) return null;
  return streamOf(fd).columns ?? 80;
}

function isCharacterDevice(fd: 1 | 2): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false; // a closed descriptor
  }
}
