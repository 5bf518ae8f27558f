import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { toStoreError } from '../../../io/fs-error.js';
import { fetchTarballCached, readTarballFile } from '../../../registry/cache-tarball.js';
import { redactUrl } from '../../../registry/http/url-policy.js';
import type { TreeEntry } from '../../../store/fingerprint.js';
import { createStagingDir } from '../../../store/layout.js';
import { tarballCacheDir } from '../../../store/paths.js';
import {
  extractTarball,
  scanTarball,
  tarballInput,
  type TarballInput,
} from '../../../store/tar/tarball-scan.js';
import { networkAllowed, requireNetwork } from '../context/network.js';
import type { RegistrySource, StageEnv, TarballFileSource, TarballUrlSource } from './types.js';

/** The sources whose plugin comes as a tarball hookpm downloads or reads itself. */
export type TarballSource = RegistrySource | TarballFileSource | TarballUrlSource;

export interface ExtractedTarball {
  /** The tarball's sha512 SRI. */
  integrity: string;
  files: TreeEntry[];
}

/**
 * Steps 2-3 of the install transaction for a tarball: obtains verified bytes (a registry tarball
 * from the integrity-addressed cache or downloaded into it with its sha512 checked while streaming,
 * D5; a local file copied, or a URL downloaded, into a scratch staging directory and hashed), scans
 * the whole archive before writing anything (A1-A3), then extracts it into `dir`. Returns the
 * tarball's integrity (sha512 SRI) and the files written (their fingerprint entries, Q6). The
 * scratch directory is removed whatever happens.
 */
export async function fetchAndExtract(
  source: TarballSource,
  dir: string,
  env: StageEnv,
): Promise<ExtractedTarball> {
  const { ctx } = env;
  const onProgress = ctx.onProgress;
  const progress =
    onProgress === undefined
      ? {}
      : {
          onProgress: (received: number, total: number | null) =>
            onProgress({ kind: 'download', plugin: source.fallbackName, received, total }),
        };
  if (source.kind === 'registry') {
    const cached = await fetchTarballCached(source.url, {
      cacheDir: tarballCacheDir(ctx.paths),
      integrity: source.integrity,
      ...(source.size === undefined ? {} : { size: source.size }),
      cacheOnly: !networkAllowed(ctx),
      ...(ctx.fetch === undefined ? {} : { fetch: ctx.fetch }),
      ...progress,
    });
    const input = tarballInput(cached.file, cached.bytes, redactUrl(source.url));
    return { integrity: source.integrity, files: await extractFrom(input, dir) };
  }
  const scratch = await createStagingDir(ctx.paths);
  try {
    const file = join(scratch, 'plugin.tgz');
    if (source.kind === 'tarball-file') {
      await copyFile(source.file, file).catch((error: unknown) => {
        throw toStoreError(error, source.file, 'copy the tarball');
      });
    } else {
      requireNetwork(
        ctx,
        `cannot download ${redactUrl(source.url)}`,
        { url: redactUrl(source.url) },
        'A tarball URL is fetched every time; install it while online, or install the downloaded file (./x.tgz).',
      );
      const { fetchToFile } = await import('../../../registry/http/http.js');
      await fetchToFile(source.url, file, { purpose: 'tarball', ...ctx.fetch, ...progress });
    }
    const { integrity, bytes } = await readTarballFile(file);
    // Messages name the user's file or the URL, not the copy in the scratch directory.
    const shown = source.kind === 'tarball-file' ? source.file : redactUrl(source.url);
    return { integrity, files: await extractFrom(tarballInput(file, bytes, shown), dir) };
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** A1-A3: the whole archive is scanned before anything is written. */
async function extractFrom(input: TarballInput, dir: string): Promise<TreeEntry[]> {
  return extractTarball(input, dir, await scanTarball(input));
}
