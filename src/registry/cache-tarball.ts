/**
 * The tarball cache (registry.md D5): `<cache>/tarballs/<hex of the sha512 digest>.tgz`. A file is
 * written there only by fetchToFile after its size and sha512 were verified while streaming (it
 * lands under a temporary name and is renamed into place), so the cache holds verified bytes under
 * their own digest. A hit is hashed again before use: the cache lives in a user-writable place and
 * may be damaged or deleted at any time without loss; a damaged entry is removed and fetched anew.
 * Partial downloads left by a killed process are removed by the next download into the cache.
 */
import { closeSync, createReadStream, fstatSync, readFileSync } from 'node:fs';
import { openRegularFile } from '../io/read-regular-file.js';
import { mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { toStoreError } from '../io/fs-error.js';
import { networkRefused } from './network-refused.js';
import type { FetchOptions } from './http/fetch-options.js';
import { createIntegrityChecker, integrityOf, parseIntegrity } from './integrity.js';
import { redactUrl } from './http/url-policy.js';

/** Timeouts, retries, credentials and proxies a caller may set for a download. */
export type DownloadTimings = Pick<
  FetchOptions,
  | 'retries'
  | 'retryBaseDelayMs'
  | 'maxRetryDelayMs'
  | 'deadlineMs'
  | 'headersTimeoutMs'
  | 'connectTimeoutMs'
  | 'authorize'
  | 'proxy'
>;

export interface CachedFetchOptions {
  /** `<cache>/tarballs`. */
  cacheDir: string;
  /** SRI with a sha512 entry (I1); names the cache file and is verified. */
  integrity: string;
  /** The size the index entry declares, checked while streaming a download. */
  size?: number;
  /** D5: never use the network; a miss is E_OFFLINE (a `file:` URL is read, it is not network). */
  cacheOnly?: boolean;
  fetch?: DownloadTimings;
  onProgress?: (received: number, total: number | null) => void;
}

export interface CachedTarball {
  file: string;
  /** The verified bytes of a small hit (readTarballFile), so they are read only once. */
  bytes?: Buffer;
  /** `cache`: a verified hit, no fetch; `fetched`: downloaded (or read from a file: URL) now. */
  origin: 'cache' | 'fetched';
}

/** The cache file of a tarball with this integrity: named by its first sha512 digest, in hex. */
function tarballCacheFile(cacheDir: string, integrity: string): string {
  const [digest] = parseIntegrity(integrity).sha512;
  if (digest === undefined) throw new Error('Assertion failed: parseIntegrity gave no digest');
  return join(cacheDir, `${Buffer.from(digest, 'base64').toString('hex')}.tgz`);
}

/**
 * The verified tarball for `url` with `integrity`, from the cache when it holds it (no network),
 * else fetched into the cache with fetchToFile (N1-N5, E_INTEGRITY on a mismatch: nothing is
 * cached). `cacheOnly` and not cached (and not a `file:` URL): E_OFFLINE.
 */
export async function fetchTarballCached(
  url: string,
  opts: CachedFetchOptions,
): Promise<CachedTarball> {
  const file = tarballCacheFile(opts.cacheDir, opts.integrity);
  const hit = await readVerified(file, opts.integrity);
  if (hit !== null) return { file, origin: 'cache', ...hit };
  if (opts.cacheOnly === true && !url.startsWith('file:')) {
    throw networkRefused(
      `the tarball ${redactUrl(url)} is not in the cache (${opts.integrity.slice(0, 30)}...)`,
      { url: redactUrl(url), integrity: opts.integrity },
      'Install it once while online; later installs of the same version need no network.',
    );
  }
  await mkdir(opts.cacheDir, { recursive: true }).catch((error: unknown) => {
    throw toStoreError(error, opts.cacheDir, 'create the tarball cache');
  });
  await removeStaleParts(opts.cacheDir);
  const { fetchToFile } = await import('./http/http.js');
  await fetchToFile(url, file, {
    ...opts.fetch,
    purpose: 'tarball',
    integrity: opts.integrity,
    ...(opts.size === undefined ? {} : { declaredSize: opts.size }),
    ...(opts.onProgress === undefined ? {} : { onProgress: opts.onProgress }),
  });
  return { file, origin: 'fetched' };
}

/**
 * A download in progress writes `<file>.<random>.part` (fetch-file-sink.ts) and ends within its
 * deadline (300 s at most by default); a `.part` file older than this was left by a killed process.
 */
const STALE_PART_MS = 15 * 60_000;

async function removeStaleParts(cacheDir: string): Promise<void> {
  const names = await readdir(cacheDir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.endsWith('.part')) continue;
    const file = join(cacheDir, name);
    const info = await stat(file).catch(() => null);
    if (info !== null && Date.now() - info.mtimeMs > STALE_PART_MS)
      await unlink(file).catch(() => undefined);
  }
}

/**
 * The cached file's bytes (when small) if it exists and they match `integrity`, else null; a
 * damaged copy is removed.
 */
async function readVerified(file: string, integrity: string): Promise<{ bytes?: Buffer } | null> {
  const found = await readTarballFile(file).catch(() => null);
  if (found === null) return null;
  const wanted = parseIntegrity(integrity).sha512;
  if (wanted.includes(found.integrity.slice('sha512-'.length)))
    return found.bytes === undefined ? {} : { bytes: found.bytes };
  await unlink(file).catch(() => undefined);
  return null;
}

/**
 * Tarballs up to this size are read whole, once, for their hash, their scan and their extraction
 * (store/tar/tar-reader.ts); larger ones are streamed each time.
 */
export const IN_MEMORY_TARBALL_BYTES = 1024 * 1024;

/** `sha512-<base64>` of a tarball file, with its bytes (read synchronously, in one call) when it is small. */
export async function readTarballFile(
  file: string,
): Promise<{ integrity: string; bytes?: Buffer }> {
  // A FIFO or a device given as a tarball is refused (E_IO) at once, never waited on.
  const fd = openRegularFile(file, { maxBytes: Number.MAX_SAFE_INTEGER, followSymlink: true });
  try {
    if (fstatSync(fd).size <= IN_MEMORY_TARBALL_BYTES) {
      const bytes = readFileSync(fd);
      return { integrity: integrityOf(bytes), bytes };
    }
  } finally {
    closeSync(fd);
  }
  return { integrity: await hashFile(file) };
}

/** `sha512-<base64>` of a file's bytes, streamed. */
export async function hashFile(file: string): Promise<string> {
  const checker = createIntegrityChecker();
  for await (const chunk of createReadStream(file)) checker.update(chunk as Buffer);
  return checker.digest();
}
