import { realpath, rm, stat } from 'node:fs/promises';
import {
  isRefusedFile,
  readFailureReason,
  readRegularText,
} from '../../../io/read-regular-file.js';
import { errnoCode, toUserFileError } from '../../../io/fs-error.js';
import { join, relative, resolve, sep } from 'node:path';
import { isInside } from '../../../text/path-inside.js';
import { fileURLToPath } from 'node:url';
import { HookpmError } from '../../../errors.js';
import type { Diagnostic } from '../../../hooks/diagnostic.js';
import type { MarketplaceRoots } from '../../../registry/marketplace/entry-path.js';
import {
  CLONE_TIMEOUT_MS,
  cloneShallow,
  findRepositoryRoot,
} from '../../../registry/git/git-fetch.js';
import { gitRepositoryKind } from '../../../registry/git/git-repository-kind.js';
import { fetchBytes, INDEX_MAX_BYTES } from '../../../registry/http/http.js';
import {
  MAX_EXCLUDED,
  parseMarketplaceText,
  type CatalogOrigin,
  type ExcludedEntry,
  type Marketplace,
} from '../../../registry/marketplace/marketplace-schema.js';
import { redactUrl } from '../../../registry/http/url-policy.js';
import { createStagingDir } from '../../../store/layout.js';
import type { StorePaths } from '../../../store/store-paths.js';
import { readGitSettings } from '../../../store/git-settings.js';
import { CATALOG_FILES, catalogRootOf } from '../../../registry/marketplace/catalog-files.js';
import { findCatalogFile } from '../../../registry/marketplace/read-catalog-file.js';

export const MARKETPLACE_FILE = '.claude-plugin/marketplace.json';
/** The catalog files looked for, in order (catalog-files.ts), for messages. */
const CATALOG_NAMES = CATALOG_FILES.join(' or ');

/** A marketplace catalog read from its location, with where its relative sources live. */
export interface ReadMarketplace {
  /** How it was read: in place, from a clone, or as a lone JSON file over https. */
  kind: 'directory' | 'git' | 'url';
  /** The location as given, credentials redacted. */
  location: string;
  /**
   * `remote` when read over the network (`url`, and a `git` clone of anything but a `file:` URL):
   * its entries may not name sources on this machine (registry.md J14; they are left out).
   */
  origin: CatalogOrigin;
  /**
   * The marketplace.json read: a path; for a clone, the repository's redacted URL with the file's
   * path in it appended (`https://host/repo.git/.claude-plugin/marketplace.json`); for a `url`
   * catalog, its redacted URL.
   */
  file: string;
  marketplace: Marketplace;
  /** Diagnostics of invalid entries (left out of `marketplace.plugins`) and warnings. */
  diagnostics: Diagnostic[];
  /** The invalid entries, left out of `marketplace.plugins`, each with why: MAX_EXCLUDED at most. */
  excluded: ExcludedEntry[];
  /** How many more invalid entries are left out, counted only. */
  excludedMore: number;
  /** Where relative sources resolve; null for a `url` catalog, which has no files beside it. */
  roots: MarketplaceRoots | null;
  /** The commit of a cloned repository. */
  commit?: string;
  /** Removes the clone, if one was made; the result must not be used after. */
  dispose(): Promise<void>;
}

export interface ReadMarketplaceOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Store paths: a clone goes to a fresh staging directory (unless `workDir` is given). */
  paths: StorePaths;
  /** An empty directory to clone into, owned by the caller. */
  workDir?: string;
  timeoutMs?: number;
  /** For a git repository: the full commit id to read (cloneShallow's `sha`), else its HEAD. */
  sha?: string;
}

/**
 * Reads a marketplace (docs/reference/rules/registry.md#registry-kinds, kind marketplace) from:
 * - a local directory holding a catalog file (the first of CATALOG_FILES found: Claude Code's,
 *   Codex's two, Cursor's; G10, G13), or such a file itself: read in
 *   place; relative sources may reach up to the root of the git work tree around it, if any;
 * - a `file://` URL: a local git repository (a directory with `.git`, or a bare repository) is
 *   cloned, so what is read is what is committed; any other directory is read in place;
 * - an `https://` (or loopback `http://`) URL whose path ends in `.json`: that file alone;
 * - any other `https://`, loopback `http://`, `ssh://` or `git@host:path` location: a git
 *   repository, cloned shallow (git-fetch.ts); relative sources stay inside the clone (a `git://`
 *   location goes there too, to be refused as the clone's URL policy words it).
 * The last two are `remote`: an entry whose source is on this machine (a `file:` npm registry, a
 * `file:` or absolute-path git repository) is left out with E_INSECURE_URL (registry.md J14).
 * A document that is not a marketplace is E_REGISTRY_SCHEMA with its diagnostic's words.
 */
export async function readMarketplace(
  location: string,
  opts: ReadMarketplaceOptions,
): Promise<ReadMarketplace> {
  const shown = redactUrl(location);
  if (/^https?:\/\//i.test(location) && urlPathname(location).endsWith('.json')) {
    const result = await fetchBytes(location, { purpose: 'index', maxBytes: INDEX_MAX_BYTES });
    if (result.status !== 200)
      throw new Error('Assertion failed: 304 without a conditional request');
    return finish(
      { kind: 'url', location: shown, origin: 'remote', file: shown, roots: null },
      result.body.toString('utf8'),
    );
  }
  if (/^file:/i.test(location)) {
    const path = fileURLToPath(location);
    if (gitRepositoryKind(path) === null) return readLocal(path, shown);
    return readClone(location, shown, opts);
  }
  if (/^(https?:\/\/|ssh:\/\/|git:\/\/|git@)/i.test(location))
    return readClone(location, shown, opts);
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(location) && !/^[a-zA-Z]:[\\/]/.test(location)) {
    throw new HookpmError(
      'E_USAGE',
      `cannot read a marketplace from ${shown}: unsupported location`,
      {
        hint: 'Give a directory, a file:// URL, an https:// git repository or marketplace.json URL, or an ssh:// or git@host:owner/repo.git repository.',
      },
    );
  }
  return readLocal(resolve(opts.cwd, location), shown);
}

async function readLocal(path: string, shown: string): Promise<ReadMarketplace> {
  const info = await stat(path).catch(() => null);
  const file =
    info?.isFile() === true ? path : (findCatalogFile(path) ?? join(path, MARKETPLACE_FILE));
  const root = catalogRootOf(file);
  const text = readMarketplaceText(file, false);
  if (text === null) {
    throw new HookpmError('E_NOT_FOUND', `no marketplace at ${shown}: ${file} does not exist`, {
      file,
      hint: `A marketplace directory holds ${CATALOG_NAMES}.`,
    });
  }
  const boundary = (await findRepositoryRoot(root)) ?? root;
  return finish(
    { kind: 'directory', location: shown, origin: 'local', file, roots: { root, boundary } },
    text,
  );
}

async function readClone(
  url: string,
  shown: string,
  opts: ReadMarketplaceOptions,
): Promise<ReadMarketplace> {
  const work = opts.workDir ?? (await createStagingDir(opts.paths));
  const owned = opts.workDir === undefined;
  const dispose = async (): Promise<void> => {
    await rm(owned ? work : join(work, 'repo'), { recursive: true, force: true }).catch(
      () => undefined,
    );
  };
  try {
    const dest = join(work, 'repo');
    const clone = await cloneShallow(url, {
      dest,
      timeoutMs: opts.timeoutMs ?? CLONE_TIMEOUT_MS,
      env: opts.env,
      auth: readGitSettings(opts.paths),
      ...(opts.sha === undefined ? {} : { sha: opts.sha }),
    });
    const file = findCatalogFile(dest) ?? join(dest, MARKETPLACE_FILE);
    await assertCatalogInsideClone(dest, file, shown, clone.commit);
    const text = readClonedCatalog(dest, file, shown, clone.commit);
    if (text === null) {
      throw new HookpmError(
        'E_NOT_FOUND',
        `the repository ${shown} has no ${CATALOG_NAMES} (commit ${clone.commit})`,
        { url: shown },
      );
    }
    const origin: CatalogOrigin = /^file:/i.test(url) ? 'local' : 'remote';
    // Messages and cached diagnostics name the repository's file, not the scratch clone.
    const named = `${shown.replace(/\/$/, '')}/${pathInClone(dest, file)}`;
    const roots = { root: dest, boundary: dest };
    const read = finish({ kind: 'git', location: shown, origin, file: named, roots }, text);
    return { ...read, commit: clone.commit, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/**
 * A clone's catalog is the repository's file: one that is a symlink leading out of the clone
 * (`marketplace.json -> /proc/self/environ`, or another marketplace on this machine) is
 * E_SYMLINK_ESCAPE naming the repository and the commit, before anything is read through it. One
 * that is absent, or a dangling link, is left to the read (E_NOT_FOUND).
 */
async function assertCatalogInsideClone(
  dest: string,
  file: string,
  shown: string,
  commit: string,
): Promise<void> {
  const real = await realpath(file).catch(() => null);
  if (real === null || isInside(await realpath(dest), real)) return;
  const rel = pathInClone(dest, file);
  throw new HookpmError(
    'E_SYMLINK_ESCAPE',
    `the repository ${shown} has ${rel} as a symlink leading out of the repository (commit ${commit})`,
    {
      url: shown,
      file: rel,
      hint: 'A marketplace repository must hold its catalog file itself, or link to a file inside the repository.',
    },
  );
}

/**
 * The text of a clone's catalog file, or null when it is missing. One readRegularText refuses (over
 * INDEX_MAX_BYTES) is E_IO naming the repository, the file and why, never the scratch path.
 */
function readClonedCatalog(
  dest: string,
  file: string,
  shown: string,
  commit: string,
): string | null {
  try {
    return readMarketplaceText(file, true);
  } catch (error) {
    if (!isRefusedFile(error)) throw error;
    const rel = pathInClone(dest, file);
    throw new HookpmError(
      'E_IO',
      `the repository ${shown} has ${rel}, which cannot be read: ${readFailureReason(error)} (commit ${commit})`,
      {
        url: shown,
        file: rel,
        hint: `A marketplace catalog holds at most ${INDEX_MAX_BYTES} bytes.`,
      },
    );
  }
}

/** `path` as the repository cloned at `root` names it: relative, with `/` ('' for the root). */
export function pathInClone(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

type Frame = Pick<ReadMarketplace, 'kind' | 'location' | 'origin' | 'file' | 'roots'>;

function finish(frame: Frame, text: string): ReadMarketplace {
  const parsed = parseMarketplaceText(text, frame.file, {
    origin: frame.origin,
    maxExcluded: MAX_EXCLUDED,
  });
  if (parsed.marketplace === null) {
    const reason = parsed.diagnostics.map((d) => d.message).join('; ');
    throw new HookpmError('E_REGISTRY_SCHEMA', reason, {
      file: frame.file,
      hint: 'Run `hookpm validate` on the marketplace for every diagnostic.',
    });
  }
  return {
    ...frame,
    marketplace: parsed.marketplace,
    diagnostics: parsed.diagnostics,
    excluded: parsed.excluded,
    excludedMore: parsed.excludedMore,
    dispose: async () => undefined,
  };
}

function urlPathname(location: string): string {
  try {
    return new URL(location).pathname;
  } catch {
    return '';
  }
}

/**
 * The catalog's text; null when it is missing. One that is not a regular file (after its symlinks)
 * of at most INDEX_MAX_BYTES (a FIFO or a device is never waited on), or that cannot be read, is
 * E_IO naming it and why when it is the user's (`clone` false); in hookpm's scratch clone, that
 * refusal is thrown as it is for the caller to name the repository instead of the scratch path,
 * and any other failure is null.
 */
function readMarketplaceText(file: string, clone: boolean): string | null {
  try {
    return readRegularText(file, { maxBytes: INDEX_MAX_BYTES, followSymlink: true });
  } catch (error) {
    const code = errnoCode(error);
    if (clone && isRefusedFile(error)) throw error;
    if (clone || code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw toUserFileError(error, file, 'read');
  }
}
