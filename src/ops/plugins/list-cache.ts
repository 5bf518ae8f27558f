import { closeSync, lstatSync, mkdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { statsIdentity } from '../../io/file-identity.js';
import { readPackageVersion } from '../../io/package-root.js';
import { openRegularFile, readOpenedFile } from '../../io/read-regular-file.js';
import { stateFile } from '../../store/home-paths.js';
import { replaceFile } from '../../store/replace-file.js';
import type { StorePaths } from '../../store/store-paths.js';
import { treeVerdictsFile } from '../../store/tree-verdicts.js';

/*
 * registry.md S33: the document `hookpm list --json` printed, kept in the cache directory under
 * the identities of the two files it is made of, the state and the tree verdicts (S32): device,
 * inode, size, modification and change times in nanoseconds, or `absent`. Both files are only ever
 * replaced by a rename, so any install, update, enable, disable, consent or new verdict gives
 * another identity and the document is made again from the state (which is then checked, D6, as
 * every read checks it). A document is kept only when both files changed longer ago than the clock
 * tick can hide (git's racy-clean rule, as the fingerprint cache's S30): a later write then has a
 * later change time. The key holds hookpm's version too: another version may print another
 * document from the same files. Whoever can write the cache can write the state too (both are the user's).
 */

const FORMAT = 'hookpm-list/1';
/** git's racy window, as the fingerprint cache's. */
const RACY_MS = 2000;
const MAX_BYTES = 256 * 1024 * 1024;

/** What a cached document is keyed on: the identities of the state and the verdicts, taken before either is read. */
export interface ListKey {
  identity: string;
  /** Whether both files are older than the racy window, so a document may be kept under it. */
  settled: boolean;
}

function listCacheFile(paths: StorePaths): string {
  return join(paths.cache, 'list', 'user.json');
}

/** The key of the files as they are now, or null when the state cannot be statted (no cache). */
export function listKey(paths: StorePaths, now = Date.now()): ListKey | null {
  const state = identityOf(stateFile(paths));
  if (state === null) return null;
  const verdicts = identityOf(treeVerdictsFile(paths)) ?? { id: 'absent', ctimeMs: 0 };
  return {
    identity: `${readPackageVersion()} ${state.id} ${verdicts.id}`,
    settled: now - Math.max(state.ctimeMs, verdicts.ctimeMs) > RACY_MS,
  };
}

/**
 * The document kept under `key` (its bytes, UTF-8), or null (none, another key, or damaged). A document kept under
 * another key (the first list after a change) is told from its first line: the rest, megabytes at
 * thousands of plugins, is not read.
 */
export function readListDocument(paths: StorePaths, key: ListKey): Buffer | null {
  const file = listCacheFile(paths);
  const head = Buffer.from(`${FORMAT} ${key.identity}\n`);
  let fd: number;
  try {
    fd = openRegularFile(file, { maxBytes: MAX_BYTES });
  } catch {
    return null;
  }
  try {
    const first = Buffer.alloc(head.length);
    if (readSync(fd, first, 0, head.length, 0) !== head.length || !first.equals(head)) return null;
    const bytes = readOpenedFile(fd, file, MAX_BYTES);
    const document = bytes.subarray(head.length);
    return document.length >= 2 && document.toString('latin1', document.length - 2) === '}\n'
      ? document
      : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Keeps `document` (a whole `list --json` document, UTF-8) under `key` when it is settled; never throws. */
export function keepListDocument(paths: StorePaths, key: ListKey, document: Buffer): void {
  if (!key.settled) return;
  try {
    const file = listCacheFile(paths);
    mkdirSync(join(paths.cache, 'list'), { recursive: true });
    replaceFile(file, [Buffer.from(`${FORMAT} ${key.identity}\n`), document]);
  } catch {
    // A cache: the next list makes it again.
  }
}

function identityOf(file: string): { id: string; ctimeMs: number } | null {
  try {
    const s = lstatSync(file, { bigint: true });
    return {
      id: statsIdentity(s),
      ctimeMs: Number(s.ctimeNs / 1_000_000n),
    };
  } catch {
    return null;
  }
}
