import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { join, sep } from 'node:path';
import { strictUtf8 } from '../text/strict-utf8.js';
import { TARBALL_LIMITS } from './tar/tarball-rules.js';

/**
 * File access confined to a plugin root (plugins.md H5): a path is followed only when, after
 * every symlink is resolved, it is still inside the root. Never throws for a plugin's content;
 * only the caller decides what a missing or escaping path means. Plugin files are few and small,
 * so the calls are synchronous (a thread-pool round trip costs more than the call).
 */
export type Located =
  | { status: 'missing' }
  | { status: 'outside'; real: string }
  | { status: 'error'; reason: string }
  | { status: 'file' | 'directory' | 'other'; real: string; size: number };

/** `realRoot` must itself be a realpath. `relative` uses `/` separators. */
export async function locateInside(realRoot: string, relative: string): Promise<Located> {
  const full = join(realRoot, ...relative.split('/'));
  let real: string;
  try {
    real = realpathSync.native(full);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return danglingOrMissing(full);
    return { status: 'error', reason: `cannot resolve it (${code})` };
  }
  if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) {
    return { status: 'outside', real };
  }
  try {
    const info = statSync(real);
    const status = info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other';
    return { status, real, size: info.size };
  } catch (error) {
    return { status: 'error', reason: `cannot read it (${errorCode(error)})` };
  }
}

/**
 * Whether `relative` (below `realRoot`, `/` separators) passes through a symlink at any of its
 * steps. An installed copy holds a regular file or directory where each such link was
 * (store/copy-tree.ts), so a file reached both through a link and by its own path is one file here
 * and two there.
 */
export function throughSymlink(realRoot: string, relative: string): boolean {
  let path = realRoot;
  for (const segment of relative.split('/')) {
    path = join(path, segment);
    try {
      if (lstatSync(path).isSymbolicLink()) return true;
    } catch {
      return false;
    }
  }
  return false;
}

/** A dangling symlink is reported as an error: its target is never looked up (H5). */
async function danglingOrMissing(full: string): Promise<Located> {
  try {
    const info = lstatSync(full);
    if (info.isSymbolicLink()) return { status: 'error', reason: 'is a dangling symlink' };
  } catch {
    // nothing at that path
  }
  return { status: 'missing' };
}

export type TextRead = { ok: true; text: string } | { ok: false; reason: string };

/** Manifests and hooks documents larger than this are refused rather than read into memory. */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

/**
 * A plugin's hooks documents together: the most a plugin tree may hold in all (registry.md A2), so
 * no plugin that can be installed is refused for it, while a directory naming one large file many
 * times (hard links, symlinks) cannot make review and validate read gigabytes.
 */
export const MAX_DOCUMENTS_BYTES = TARBALL_LIMITS.maxTotalBytes;

/**
 * Reads a located file as strict UTF-8 without following a symlink at its last step, so a file
 * swapped for a link after `locateInside` checked it is refused instead of read.
 */
export async function readTextNoFollow(real: string): Promise<TextRead> {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO swapped in after locateInside looked is opened at once, then refused.
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return { ok: false, reason: `cannot open it (${errorCode(error)})` };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { ok: false, reason: 'it is not a regular file' };
    if (info.size > MAX_DOCUMENT_BYTES) {
      return {
        ok: false,
        reason: `it is ${info.size} bytes, more than the ${MAX_DOCUMENT_BYTES} allowed`,
      };
    }
    const text = strictUtf8(readFileSync(fd), 'keep');
    return text === null ? { ok: false, reason: 'it is not valid UTF-8' } : { ok: true, text };
  } catch (error) {
    return { ok: false, reason: `cannot read it (${errorCode(error)})` };
  } finally {
    closeSync(fd);
  }
}

export function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}
