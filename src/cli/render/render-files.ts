import {
  CODE_DIFF_LIMITS,
  type CodeDiff,
  type CodeFileChange,
  type FileFacts,
} from '../../plugin/code-diff.js';
import type { RoledFile } from '../../plugin/code-files.js';

/** How many files a review lists in text (`--json` lists them all). */
export const FILES_SHOWN = 100;

const ROLE_WORDS: Readonly<Record<RoledFile['role'], string>> = {
  code: 'code',
  hooks: 'hooks (compared as the hooks above)',
  docs: 'docs (not compared)',
};

/**
 * The files of the reviewed tree: digest (first 12 hex of the SHA-256), mode, path, role; a
 * symlink's or other non-regular file's kind first (as the code diff gives it), so a script that
 * is a link (its digest that of the link text) or a FIFO cannot pass for a regular file.
 */
export function fileLines(files: readonly RoledFile[]): string[] {
  if (files.length === 0) return ['files: none'];
  const lines = [`files (${files.length}; sha256, mode, role):`];
  for (const file of files.slice(0, FILES_SHOWN))
    lines.push(
      `  ${kindWord(file)}${digest(file.sha256)} ${mode(file.mode)} ${showPath(file.path)}  ${ROLE_WORDS[file.role]}`,
    );
  if (files.length > FILES_SHOWN)
    lines.push(`  ... and ${files.length - FILES_SHOWN} more (--json lists every file)`);
  return lines;
}

/** The code files changed since consent, each with its counts and its bounded diff. */
export function codeDiffLines(diff: CodeDiff): string[] {
  if (diff.baseline === 'unreadable')
    return [
      'files changed since consent: unknown - the consented files changed after install or are gone, so every file counts as changed',
    ];
  if (diff.files.length === 0) return ['files changed since consent: none'];
  const lines = ['files changed since consent:'];
  for (const change of diff.files) {
    lines.push(
      `  ${MARKS[change.status]} ${showPath(change.path)}  ${counts(change)}${facts(change)}`,
    );
    for (const line of change.diff) lines.push(`      ${line}`);
    if (change.truncated) lines.push('      ... (diff cut; --json has the same cut diff)');
  }
  if (diff.truncated) lines.push('  ... (more diff lines than a review shows)');
  return lines;
}

const MARKS: Readonly<Record<CodeFileChange['status'], string>> = {
  added: '+',
  removed: '-',
  changed: '~',
};

function counts(change: CodeFileChange): string {
  if (change.content === 'binary') return 'binary, not shown';
  if (change.content === 'too-large')
    return `over ${CODE_DIFF_LIMITS.bytesPerFile / (1024 * 1024)} MiB, not shown`;
  if (change.status === 'added') return `${change.linesAdded} lines`;
  if (change.status === 'removed') return `${change.linesRemoved} lines`;
  return `+${change.linesAdded} -${change.linesRemoved} lines`;
}

function facts(change: CodeFileChange): string {
  const { before, after } = change;
  const side = (f: FileFacts | null): string =>
    f === null ? '' : `${kindWord(f)}${digest(f.sha256)} ${mode(f.mode)}`;
  if (before === null) return `  (${side(after)})`;
  if (after === null) return `  (was ${side(before)})`;
  return `  (${side(before)} -> ${side(after)})`;
}

/** `symlink ` or `other ` before the digest of a file that is not a regular one. */
function kindWord(file: { kind: FileFacts['kind'] }): string {
  return file.kind === 'file' ? '' : `${file.kind} `;
}

function digest(sha256: string): string {
  return sha256.slice(0, 12);
}

function mode(value: number): string {
  return value.toString(8).padStart(4, '0');
}

/** The characters of a path shown bare: any other makes it quoted (showPath). */
const PLAIN_PATH = /^[A-Za-z0-9._/#@+:[\]-]+$/;

/**
 * A path inside a plugin (a file, a document's source, a diagnostic's `<file>:<JSON path>`) as
 * review shows it: bare when it holds only path characters, else as JSON text, so a file named
 * `x.json  key 0123456789  INERT: ...` cannot print as review's own words after it.
 */
export function showPath(path: string): string {
  return PLAIN_PATH.test(path) ? path : show(path);
}

/** A plugin value as JSON text, so strings are quoted and every kind of value is visible. */
export function show(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}
