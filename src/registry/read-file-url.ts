import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { HookpmError } from '../errors.js';
import { readBody, tooLarge, TruncatedBodyError, wrongSize } from './http/body-reader.js';
import type { BodyLimits, BodySink } from './http/body-reader.js';
import { errnoCode } from '../io/fs-error.js';

/**
 * Reads a `file:` URL (a local registry's index or tarball) under the same caps and integrity
 * check as the network: missing is `E_NOT_FOUND`, larger than the cap is `E_REGISTRY_TOO_LARGE`
 * before reading, a file that changes size while read is `E_IO`.
 */
export async function readFileUrl<T>(
  url: URL,
  sink: BodySink<T>,
  limits: Omit<BodyLimits, 'expectedLength'>,
): Promise<T> {
  const path = fileURLToPath(url);
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'ENOENT' });
    size = info.size;
  } catch (error) {
    await sink.discard();
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new HookpmError('E_NOT_FOUND', `no file at ${limits.url}`, {
        url: limits.url,
        file: path,
      });
    }
    throw new HookpmError('E_IO', `cannot read ${path}: ${(error as Error).message}`, {
      url: limits.url,
      file: path,
    });
  }
  if (size > limits.maxBytes) {
    await sink.discard();
    throw tooLarge(limits.url, limits.maxBytes, size);
  }
  if (limits.declaredSize !== undefined && size !== limits.declaredSize) {
    await sink.discard();
    throw wrongSize(limits.url, limits.declaredSize, size, 'exact');
  }
  try {
    return await readBody(createReadStream(path), sink, { ...limits, expectedLength: size });
  } catch (error) {
    if (error instanceof HookpmError) throw error;
    const reason =
      error instanceof TruncatedBodyError
        ? 'it changed while being read'
        : (error as Error).message;
    throw new HookpmError('E_IO', `cannot read ${path}: ${reason}`, {
      url: limits.url,
      file: path,
    });
  }
}
