import { createTarballChecker, readTarChecked } from './tarball-checker.js';
import type { TarballListing } from './tarball-checker.js';
import { tarballName } from './tar-reader.js';
import type { TarballInput } from './tar-reader.js';
import { TARBALL_LIMITS } from './tarball-rules.js';
import type { TarballLimits } from './tarball-rules.js';

export { extractTarball } from './tarball-extract.js';
export type { TarballEntry, TarballListing } from './tarball-checker.js';
export type { TarballInput } from './tar-reader.js';
export { tarballInput } from './tar-reader.js';
export { TARBALL_LIMITS } from './tarball-rules.js';
export type { TarballLimits } from './tarball-rules.js';

/**
 * registry.md A1-A3: reads the whole archive once, writing nothing, and returns its listing only
 * if every entry is a regular file or directory under `package/` with a safe, unique name and the
 * archive is within the limits. Errors name the tarball and the entry: `E_ARCHIVE_UNSAFE`,
 * `E_ARCHIVE_TOO_LARGE` (from the headers, and from the bytes while streaming, so a gzip bomb stops
 * early), `E_ARCHIVE_CORRUPT`.
 */
export async function scanTarball(
  input: TarballInput,
  limits: TarballLimits = TARBALL_LIMITS,
): Promise<TarballListing> {
  const checker = createTarballChecker(limits);
  await readTarChecked(input, checker.visitor, checker.lastName, limits);
  return { file: tarballName(input), entries: checker.entries, totalBytes: checker.totalBytes() };
}
