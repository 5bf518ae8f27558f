import { createReadStream } from 'node:fs';
import { pipeline, Readable } from 'node:stream';
import { createGunzip, gunzipSync } from 'node:zlib';
import { HookpmError, isHookpmError } from '../../errors.js';
import { createBlockParser } from './tar-blocks.js';
import type { TarVisitor } from './tar-blocks.js';

export type { TarEntry, TarEntryType, TarVisitor } from './tar-blocks.js';

/**
 * A tarball to read: its path (read streaming), or its path with its bytes already in memory (a
 * small tarball, read whole once for its hash, its scan and its extraction), and how messages name
 * it: `shown` (the user's file or the URL, not the copy in staging or in the cache), else its path.
 */
export type TarballInput = string | TarballFile;

export interface TarballFile {
  readonly file: string;
  readonly bytes?: Buffer;
  readonly shown?: string;
  /** The decompressed bytes, kept by the first read (the scan) for the next (the extraction). */
  inflated?: Buffer | null;
}

/** The input for a tarball's file, with its bytes when they were read already. */
export function tarballInput(file: string, bytes?: Buffer, shown?: string): TarballInput {
  if (bytes === undefined && shown === undefined) return file;
  return {
    file,
    ...(bytes === undefined ? {} : { bytes }),
    ...(shown === undefined ? {} : { shown }),
  };
}

/** The path the tarball is read from. */
export function tarballFile(input: TarballInput): string {
  return typeof input === 'string' ? input : input.file;
}

/** What messages call the tarball. */
export function tarballName(input: TarballInput): string {
  return typeof input === 'string' ? input : (input.shown ?? input.file);
}

export interface TarReadLimits {
  /** Decompressed bytes read at most, padding after the end marker included (gzip bombs). */
  maxDecompressedBytes: number;
  /** Largest PAX or GNU long-name header accepted. */
  maxMetaBytes: number;
}

/**
 * Reads a gzip-compressed tar once, without writing anything, streaming from its file or from its
 * bytes in memory; bytes that decompress to at most `ONE_STEP_BYTES` are decompressed in one step
 * instead (anything else about them, a damaged stream or more, is left to the stream, so the
 * outcome and the message are the same either way). Its own strict parser (rather than tar's) so
 * that nothing is silently skipped or truncated: unknown typeflags reach the visitor as `other`,
 * names holding NUL are refused, a lone zero block, data after the end marker, a missing end
 * marker, a bad checksum and a truncated or damaged gzip stream are all `E_ARCHIVE_CORRUPT`; more
 * than `maxDecompressedBytes` is `E_ARCHIVE_TOO_LARGE`. Errors are HookpmErrors without the file
 * name (the caller adds it).
 */
export async function readTar(
  input: TarballInput,
  visitor: TarVisitor,
  limits: TarReadLimits,
): Promise<void> {
  const parser = createBlockParser(visitor, limits);
  const bytes = typeof input === 'string' ? undefined : input.bytes;
  if (typeof input !== 'string' && bytes !== undefined && input.inflated === undefined)
    input.inflated = inflateSmall(bytes);
  const inflated = typeof input === 'string' ? null : (input.inflated ?? null);
  const stream =
    inflated !== null
      ? null
      : pipeline(
          bytes === undefined ? createReadStream(tarballFile(input)) : Readable.from([bytes]),
          createGunzip({ chunkSize: 256 * 1024 }),
          () => undefined,
        );
  let total = 0;
  try {
    if (inflated !== null) await parser.push(inflated);
    else
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
    stream?.destroy();
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

/** Decompressed sizes up to this are decompressed in one step rather than streamed. */
const ONE_STEP_BYTES = 16 * 1024 * 1024;

/** The decompressed bytes, or null when they are more than ONE_STEP_BYTES or damaged. */
function inflateSmall(bytes: Buffer): Buffer | null {
  try {
    return gunzipSync(bytes, { maxOutputLength: ONE_STEP_BYTES });
  } catch {
    return null;
  }
}
