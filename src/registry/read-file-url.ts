import { closeSync, createReadStream, fstatSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HookpmError } from '../errors.js';
import { readBody, tooLarge, TruncatedBodyError, wrongSize } from './http/body-reader.js';
import type { BodyLimits, BodySink } from './http/body-reader.js';
import { errnoCode } from '../io/fs-error.js';
import { isRefusedFile, openRegularFile, readFailureReason } from '../io/read-regular-file.js';

/**
 * Reads a `file:` URL (a local registry's index, document or tarball) under the same caps and
 * integrity check as the network. The path is opened once, without waiting (D7), and everything
 * after is checked on and read from that descriptor, so a path swapped meanwhile changes nothing.
 * Missing is `E_NOT_FOUND`; a FIFO, device, socket or directory is `E_IO` saying what it is
 * (`reason: 'not_regular'`); larger than the cap is `E_REGISTRY_TOO_LARGE` before reading; a file
 * that changes size while read is `E_IO`.
 */
export async function readFileUrl<T>(
  url: URL,
  sink: BodySink<T>,
  limits: Omit<BodyLimits, 'expectedLength'>,
): Promise<T> {
  const path = fileURLToPath(url);
  let fd: number;
  try {
    fd = openFileUrl(path, limits.url);
  } catch (error) {
    await sink.discard();
    throw error;
  }
  const size = fstatSync(fd).size;
  const refusal = checkSize(size, limits);
  if (refusal !== null) {
    closeSync(fd);
    await sink.discard();
    throw refusal;
  }
  // The stream owns the descriptor from here: it closes it at the end, on an error, or when
  // readBody stops early.
  const stream = createReadStream(path, { fd, autoClose: true });
  try {
    return await readBody(stream, sink, { ...limits, expectedLength: size });
  } catch (error) {
    if (error instanceof HookpmError) throw error;
    const reason =
      error instanceof TruncatedBodyError
        ? 'it changed while being read'
        : (error as Error).message;
    throw readError(path, limits.url, reason);
  } finally {
    stream.destroy();
  }
}

/**
 * Opens `path` (following a symlink: a local registry's files are the user's) as
 * openRegularFile does: never waiting on a FIFO, and only a regular file. Throws E_NOT_FOUND when
 * nothing is there, E_IO naming the file and what it is otherwise.
 */
function openFileUrl(path: string, url: string): number {
  try {
    return openRegularFile(path, { maxBytes: Number.POSITIVE_INFINITY, followSymlink: true });
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new HookpmError('E_NOT_FOUND', `no file at ${url}`, { url, file: path });
    }
    if (isRefusedFile(error)) {
      throw readError(path, url, readFailureReason(error), {
        reason: error.details['reason'],
        hint: "Replace it with a regular file: a registry's index, documents and tarballs are files.",
      });
    }
    throw readError(path, url, (error as Error).message);
  }
}

/** The cap and the declared size, checked before any byte is read. */
function checkSize(size: number, limits: Omit<BodyLimits, 'expectedLength'>): HookpmError | null {
  if (size > limits.maxBytes) return tooLarge(limits.url, limits.maxBytes, size);
  if (limits.declaredSize !== undefined && size !== limits.declaredSize)
    return wrongSize(limits.url, limits.declaredSize, size, 'exact');
  return null;
}

function readError(
  path: string,
  url: string,
  reason: string,
  extra: Record<string, unknown> = {},
): HookpmError {
  return new HookpmError('E_IO', `cannot read ${path}: ${reason}`, { url, file: path, ...extra });
}
