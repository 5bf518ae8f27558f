import type { FileChange, RoledFile } from './code-files.js';
import { diffText } from './text-diff.js';
import { strictUtf8 } from '../text/strict-utf8.js';

/**
 * The readable diff of the code files an update changes
 * (docs/guides/installing-plugins.md#consent): per file, what happened, its digests and modes, line
 * counts, and for text the unified diff - bounded per file and in total (CODE_DIFF_LIMITS), so a
 * review stays readable whatever the plugin holds.
 */
export interface CodeFileChange {
  path: string;
  status: FileChange['status'];
  before: FileFacts | null;
  after: FileFacts | null;
  /** `text`: counted and diffed; `binary` (a NUL byte, or not UTF-8) and `too-large`: neither. */
  content: 'text' | 'binary' | 'too-large';
  /** Lines added and removed (every line of an added or removed file); null unless text. */
  linesAdded: number | null;
  linesRemoved: number | null;
  /** Unified-diff lines (an added file as `+` lines), at most the limits allow. */
  diff: string[];
  /** Lines were left out of `diff`. */
  truncated: boolean;
}

export interface FileFacts {
  kind: RoledFile['kind'];
  sha256: string;
  mode: number;
}

/**
 * Against the consented tree: `same` (the very tree that was consented, by its fingerprint),
 * `read` (its files were compared), or `unreadable` (its files no longer match the fingerprint
 * recorded at install, or are gone: what changed cannot be told, so consent is needed).
 */
export interface CodeDiff {
  baseline: 'same' | 'read' | 'unreadable';
  files: CodeFileChange[];
  /** Some file's diff was cut by the total bound. */
  truncated: boolean;
}

export const CODE_DIFF_LIMITS = {
  linesPerFile: 80,
  linesTotal: 400,
  /** A diff line longer than this is cut, saying how much was left out (cutLine). */
  charsPerLine: 1000,
  bytesPerFile: 1024 * 1024,
};

/** A file's bytes, or `too-large` past bytesPerFile, or null when it is not a regular file. */
export type FileBytes = Uint8Array | 'too-large' | null;

export interface ChangeContents {
  before: FileBytes;
  after: FileBytes;
}

/** Whether a code diff leaves the consent given to the files standing (nothing changed). */
export function codeUnchanged(diff: CodeDiff | null): boolean {
  return diff !== null && diff.baseline !== 'unreadable' && diff.files.length === 0;
}

export function describeCodeChanges(
  changes: readonly FileChange[],
  contents: ReadonlyMap<string, ChangeContents>,
): CodeDiff {
  let budget = CODE_DIFF_LIMITS.linesTotal;
  let truncated = false;
  const files = changes.map((change) => {
    const found = contents.get(change.path) ?? { before: null, after: null };
    const described = describeOne(change, found, Math.min(budget, CODE_DIFF_LIMITS.linesPerFile));
    budget -= described.diff.length;
    if (described.truncated && budget === 0) truncated = true;
    return described;
  });
  return { baseline: 'read', files, truncated };
}

function describeOne(change: FileChange, found: ChangeContents, maxLines: number): CodeFileChange {
  const base = {
    path: change.path,
    status: change.status,
    before: factsOf(change.before),
    after: factsOf(change.after),
  };
  if (change.before !== null && change.after !== null) {
    if (change.before.sha256 === change.after.sha256 && change.before.kind === change.after.kind)
      return {
        ...base,
        content: 'text',
        linesAdded: 0,
        linesRemoved: 0,
        diff: [],
        truncated: false,
      };
  }
  const before = change.before === null ? { text: '' } : textOf(found.before);
  const after = change.after === null ? { text: '' } : textOf(found.after);
  if (!('text' in before) || !('text' in after)) {
    const whys = [before, after].map((side) => ('why' in side ? side.why : null));
    const content = whys.includes('too-large') ? 'too-large' : 'binary';
    return { ...base, content, linesAdded: null, linesRemoved: null, diff: [], truncated: false };
  }
  const diff = diffText(before.text, after.text, { maxLines });
  return {
    ...base,
    content: 'text',
    linesAdded: diff.added,
    linesRemoved: diff.removed,
    diff: diff.lines.map(cutLine),
    truncated: diff.truncated,
  };
}

/**
 * A diff line of at most charsPerLine characters (UTF-16 units, never half a pair) and a note of
 * how many were left out, so a one-line file of a megabyte prints as a bounded line.
 */
function cutLine(line: string): string {
  let end = CODE_DIFF_LIMITS.charsPerLine;
  if (line.length <= end) return line;
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${line.slice(0, end)} ... (${line.length - end} more characters)`;
}

function factsOf(file: RoledFile | null): FileFacts | null {
  return file === null ? null : { kind: file.kind, sha256: file.sha256, mode: file.mode };
}

/** The text of a file, or why there is none (`binary` also for a link or special file). */
function textOf(bytes: FileBytes): { text: string } | { why: 'binary' | 'too-large' } {
  if (bytes === 'too-large') return { why: 'too-large' };
  if (bytes === null || bytes.includes(0)) return { why: 'binary' };
  const text = strictUtf8(bytes, 'drop');
  return text === null ? { why: 'binary' } : { text };
}
