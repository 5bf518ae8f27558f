import { sha256Hex } from '../json/canonical-json.js';
import { diagnostic, type Diagnostic, type Origin } from '../hooks/diagnostic.js';
import { parseHooksDocument } from '../hooks/parse-document.js';
import type { ParsedDocument } from '../hooks/types.js';
import { parseJson } from '../json/parse-json.js';
import { errnoCode } from '../io/fs-error.js';
import { readFailureReason, readRegularFile } from '../io/read-regular-file.js';
import { strictUtf8 } from '../text/strict-utf8.js';

/** A hooks file larger than this is refused unread (they are a few kilobytes). */
export const HOOKS_FILE_MAX_BYTES = 16 * 1024 * 1024;

/** The outcome of reading one hooks document from disk (engine.md S5). */
export type HooksFileRead =
  | { status: 'missing' }
  | { status: 'failed'; diagnostic: Diagnostic }
  | {
      status: 'parsed';
      /** The document; `parsed.config` is null when C2 rejects it as a whole. */
      parsed: ParsedDocument;
      /** Parse diagnostics plus `byte_order_mark`, each tagged with the origin. */
      diagnostics: Diagnostic[];
      /** SHA-256 hex of the file's bytes (T4, T6 bind trust to them). */
      sha256: string;
    };

export interface ReadHooksFileOptions {
  file: string;
  origin: Origin;
  /**
   * User and project files (true): they may be legacy list-shaped (C4), and a duplicate key is a
   * `duplicate_key` warning with the last value used (plugins.md P4). Plugin documents never are.
   */
  legacy: boolean;
}

const MISSING_CODES = new Set(['ENOENT', 'ENOTDIR']);

/**
 * S5: a missing file is nothing; an unreadable file (or one that is not a regular file of at most
 * HOOKS_FILE_MAX_BYTES after its symlinks: a FIFO or a device is never waited on), invalid UTF-8 or
 * invalid JSON is one `config_read_failed` naming the file (and line and column for JSON); a
 * leading BOM is accepted with a warning; in a user or project file each repeated key is a
 * `duplicate_key` warning at its line and column, and the last value is used, as JSON.parse and
 * Python's json read it (so one repeated key never takes a user's guard away). Never throws for
 * file problems.
 */
export async function readHooksFile(options: ReadHooksFileOptions): Promise<HooksFileRead> {
  const { file, origin } = options;
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(file, { maxBytes: HOOKS_FILE_MAX_BYTES, followSymlink: true });
  } catch (error) {
    if (MISSING_CODES.has(errnoCode(error) ?? '')) return { status: 'missing' };
    return failed(file, origin, `cannot read ${file}: ${readFailureReason(error)}`);
  }
  return parseHooksBytes(bytes, options);
}

/**
 * readHooksFile's reading of bytes already read from `options.file`: the same outcomes but
 * `missing`. For a caller that must show and hash the very bytes it parses (the trust question,
 * engine.md T4), never a second read of a file that may have changed in between.
 */
export function parseHooksBytes(bytes: Uint8Array, options: ReadHooksFileOptions): HooksFileRead {
  const { file, origin } = options;
  const text = strictUtf8(bytes, 'keep');
  if (text === null) return failed(file, origin, `cannot read ${file}: it is not valid UTF-8`);
  const json = parseJson(text, file, { duplicateKeys: options.legacy ? 'last' : 'refuse' });
  if (!json.ok) {
    const where = `${file}:${json.line}:${json.column}`;
    return failed(file, origin, `invalid JSON at ${where}: ${json.message}`);
  }
  const parsed = parseHooksDocument(json.value, { file, legacy: options.legacy });
  const diagnostics: Diagnostic[] = parsed.diagnostics.map((d) => ({ ...d, origin }));
  diagnostics.unshift(
    ...json.duplicates.map((d) =>
      diagnostic('duplicate_key', 'warning', `${d.message}; the last value is used`, {
        origin,
        path: `${file}:${d.line}:${d.column}`,
      }),
    ),
  );
  if (json.bom) {
    const message = `${file} starts with a byte-order mark; it was ignored`;
    diagnostics.unshift(diagnostic('byte_order_mark', 'warning', message, { origin, path: file }));
  }
  return { status: 'parsed', parsed, diagnostics, sha256: sha256Hex(bytes) };
}

function failed(file: string, origin: Origin, message: string): HooksFileRead {
  return {
    status: 'failed',
    diagnostic: diagnostic('config_read_failed', 'error', `${message}; this file is skipped`, {
      origin,
      path: file,
    }),
  };
}
