import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { HookpmError, isHookpmError } from '../errors.js';
import { createBlockParser } from './tar-blocks.js';
import type { TarVisitor } from './tar-blocks.js';

export type { TarEntry, TarEntryType, TarVisitor } from './tar-blocks.js';

export interface TarReadLimits {
  /** Decompressed bytes read at most, padding after the end marker included (gzip bombs). */
  maxDecompressedBytes: number;
  /** Largest PAX or GNU long-name header accepted. */
  maxMetaBytes: number;
}

/**
 * Reads a gzip-compressed tar from `file` once, streaming, without writing anything. Its own
 * strict parser (rather than tar's) so that nothing is silently skipped or truncated: unknown
 * typeflags reach the visitor as `other`, names holding NUL are refused, a lone zero block, data
 * after the end marker, a missing end marker, a bad checksum and a truncated or damaged gzip
 * stream are all `E_ARCHIVE_CORRUPT`; more than `maxDecompressedBytes` is `E_ARCHIVE_TOO_LARGE`.
 * Errors are HookpmErrors without the file name (the caller adds it).
 */
export async function readTar(
  file: string,
  visitor: TarVisitor,
  limits: TarReadLimits,
): Promise<void> {
  const stream = pipeline(
    createReadStream(file),
    createGunzip({ chunkSize: 256 * 1024 }),
    () => undefined,
  );
  const parser = createBlockParser(visitor, limits);
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limits.maxDecompressedBytes) {
        throw new HookpmError(
          'E_ARCHIVE_TOO_LARGE',
          `the archive unpacks to more than ${limits.maxDecompressedBytes} bytes`,
        );
      }
      await parser.push(chunk);
    }
  } catch (error) {
    stream.destroy();
    if (isHookpmError(error)) throw error;
    if ((error as { syscall?: unknown }).syscall !== undefined) {
      throw new HookpmError('E_IO', `cannot read the archive (${(error as Error).message})`);
    }
    throw new HookpmError(
      'E_ARCHIVE_CORRUPT',
      `not a readable gzip archive (${(error as Error).message})`,
    );
  }
  parser.finish();
}
