import { posix } from 'node:path';
import { compileGlob, globMatches } from './glob.js';

/**
 * The path patterns of Read, Edit, Write and MultiEdit rules (engine.md F2), read as Claude Code
 * reads them (gitignore style, against the absolute path the tool names): `//p` from the root of
 * the file system, `~/p` from the home directory, `/p` from the project root, `p` and `./p` from
 * the current directory; a pattern without an inner `/` (`.env`, `*.pem`) names a file at any
 * depth; `**` followed by `/` is zero or more directories; a pattern naming a directory also
 * holds for everything under it.
 *
 * A guard is never skipped for the way a path is written: the file path is resolved against the
 * payload's `cwd`, `.` and `..` removed, `\` read as `/`; `/p` holds from the file-system root as
 * well as from the project root (taken to be `cwd`); without an absolute `cwd`, a relative
 * pattern holds under any directory, and a relative file path is read as under some directory.
 * The pattern as written is also matched against the path as written.
 *
 * `home` is the user's home directory, given by the caller as `cwd` is given by the payload (this
 * pure layer reads no process state); without an absolute one, `~/p` holds under any directory,
 * and a file path `~/p` is read as under some directory.
 */
export function pathRuleHolds(
  pattern: string,
  filePath: string,
  cwd: unknown,
  home: string | null,
): boolean {
  const homeDir = directory(home, null);
  const base = directory(cwd, homeDir);
  const target = absolute(slashes(filePath), base, homeDir);
  return readings(pattern, base, homeDir).some((reading) =>
    globMatches(compileGlob(reading), target),
  );
}

/** `dir` absolute and normalised, or null when it is not a string naming an absolute path. */
function directory(dir: unknown, home: string | null): string | null {
  if (typeof dir !== 'string') return null;
  const path = slashes(dir);
  if (!isAbsolute(path) || (isHome(path) && home === null)) return null;
  return absolute(path, null, home);
}

function slashes(path: string): string {
  return path.replace(/\\/g, '/');
}

const WINDOWS_ROOT = /^[A-Za-z]:\//;

/** Whether `path` (with `/` separators) names a place without a current directory. */
function isAbsolute(path: string): boolean {
  return isHome(path) || path.startsWith('/') || WINDOWS_ROOT.test(path);
}

function isHome(path: string): boolean {
  return path === '~' || path.startsWith('~/');
}

/**
 * `path` made absolute against `base` (a root when null) and `home`, and normalised. Without a
 * base or a home, a relative or `~/` path is read under some directory: `/` stands for it, and
 * the readings of a relative, `/p` or `~/p` pattern match it under any directory.
 */
function absolute(path: string, base: string | null, home: string | null): string {
  let full = path;
  if (isHome(path)) full = `${home ?? ''}/${path.slice(2)}`;
  else if (!isAbsolute(path)) full = `${base ?? ''}/${path}`;
  return posix.normalize(full).replace(/(.)\/+$/, '$1');
}

/** The absolute globs a pattern stands for: a directory's also hold for what it holds. */
function readings(pattern: string, base: string | null, home: string | null): string[] {
  const from = (root: string, rest: string): string =>
    root === '*' ? `*/${rest}` : posix.normalize(`${root}/${rest}`);
  const anyBase = base ?? '*';
  let globs: string[];
  if (pattern.startsWith('//')) globs = [pattern.slice(1)];
  else if (pattern.startsWith('~/')) globs = [from(home ?? '*', pattern.slice(2))];
  else if (pattern.startsWith('/')) globs = [pattern, from(anyBase, pattern.slice(1))];
  else {
    const rest = pattern.replace(/^(?:\.\/)+/, '');
    const anyDepth = !rest.replace(/\/+$/, '').includes('/');
    globs = anyDepth ? [from(anyBase, rest), `*/${rest}`] : [from(anyBase, rest)];
  }
  // `a/**/b` also holds for `a/b` (gitignore: `**/` is zero or more directories).
  const zeroDirs = globs.map((glob) => glob.replace(/\/\*\*\//g, '*/'));
  return zeroDirs.flatMap((glob) => [glob, `${glob.replace(/\/+$/, '')}/**`]);
}
