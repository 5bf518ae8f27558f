import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { diagnostic, type Diagnostic } from '../hooks/diagnostic.js';
import { describeValue } from '../json/describe-value.js';

/**
 * The `cwd_unusable` warning (cli.md W2): the payload's cwd `problem`, and the directory handlers
 * run in instead, `where` saying which one it is (default: the session's own directory, as
 * `hookpm session` falls back to).
 */
export function cwdUnusable(
  problem: string,
  cwd: string,
  where = "the session's directory",
): Diagnostic {
  return diagnostic('cwd_unusable', 'warning', `${problem}; handlers run in ${cwd}, ${where}`);
}

/**
 * Why a payload's `cwd` cannot be where handlers run, or null when it names an existing directory
 * hookpm may enter: absent, not a string, not an absolute path, a path that does not exist, a file.
 * `what` names the value in the reason (a host's `cwd` option is checked so too). Synchronous: one
 * stat and one access on the path of every linked event.
 */
export function cwdProblem(value: unknown, what = "the payload's cwd"): string | null {
  if (value === undefined) return 'the payload has no cwd';
  if (typeof value !== 'string') return `${what} is ${describeValue(value)}, not a path`;
  if (!isAbsolute(value)) return `${what} is not an absolute path`;
  try {
    if (!statSync(value).isDirectory()) return `${what} is not a directory`;
    accessSync(value, constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    return code === 'ENOENT'
      ? `${what} does not exist`
      : `${what} cannot be entered (${code ?? 'not a path'})`;
  }
  return null;
}
