import { posix } from 'node:path';
import { compileGlob, globMatches, type Glob } from './glob.js';

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
 * and every pattern holds for a file path that only the home places (`~/p`, or a relative path
 * from a `~/` cwd): it could be anywhere, so a guard is never skipped for it.
 */
export function pathRuleHolds(
  rule: PathRule,
  filePath: string,
  cwd: unknown,
  home: string | null,
): boolean {
  const homeDir = directory(home, null);
  const file = slashes(filePath);
  if (homeDir === null && (isHome(file) || (!isAbsolute(file) && isHomeDir(cwd)))) return true;
  const base = directory(cwd, homeDir);
  const target = absolute(file, base, homeDir);
  if (rule.fixed.some((glob) => globMatches(glob, target))) return true;
  return rule.rooted.some((reading) =>
    rootedHolds(reading, reading.root === 'cwd' ? base : homeDir, target),
  );
}

/** A path pattern compiled once (compilePathRule), for any `cwd` and home. */
export interface PathRule {
  /** The globs of the readings that name no directory of the invocation. */
  readonly fixed: readonly Glob[];
  /** The readings from the `cwd` or the home. */
  readonly rooted: readonly RootedReading[];
}

/** A reading of the pattern from a directory of the invocation: its `cwd` or the home. */
interface RootedReading {
  readonly root: 'cwd' | 'home';
  /** The pattern below that directory. */
  readonly rest: string;
  /** The globs when the directory is not known: `rest` under any directory. */
  readonly anywhere: readonly Glob[];
  /**
   * The globs of `/<rest>` that hold below a directory with no glob character in it, matched
   * against what follows that directory; null when `rest` is not normalised (`..`, `.`, `//`,
   * empty: isNormal), which the directory must then be normalised with at each match.
   */
  readonly below: readonly Glob[] | null;
}

/** The readings of `pattern` (pathRuleHolds), compiled. */
export function compilePathRule(pattern: string): PathRule {
  const fixed: string[] = [];
  const rooted: RootedReading[] = [];
  const from = (root: 'cwd' | 'home', rest: string): void => {
    const below = isNormal(rest) ? variants(`/${rest}`).map(compileGlob) : null;
    const anywhere = variants(`*/${fromAnyDirectory(rest)}`).map(compileGlob);
    rooted.push({ root, rest, anywhere, below });
  };
  if (pattern.startsWith('//')) fixed.push(pattern.slice(1));
  else if (pattern.startsWith('~/')) from('home', pattern.slice(2));
  else if (pattern.startsWith('/')) {
    fixed.push(pattern);
    from('cwd', pattern.slice(1));
  } else {
    const rest = pattern.replace(/^(?:\.\/)+/, '');
    from('cwd', rest);
    if (!rest.replace(/\/+$/, '').includes('/')) fixed.push(`*/${rest}`);
  }
  return { fixed: fixed.flatMap(variants).map(compileGlob), rooted };
}

/**
 * `rest` normalised as read from a directory not known: `a/../b` is `b`, and a leading `/` or `..`
 * is dropped, since the parent of any directory is any directory (`../shared/**` is `shared/**`).
 */
function fromAnyDirectory(rest: string): string {
  let path = posix.normalize(rest).replace(/^\/+/, '');
  while (path === '..' || path.startsWith('../')) path = path.slice(3);
  return path === '.' || path === './' ? '' : path;
}

/**
 * Whether `reading` holds for `target` from `root` (a normalised absolute directory, or null when
 * not known): the glob of `root` joined to the reading's rest, normalised. A root holding no glob
 * character is a literal head of that glob, so the rest's compiled globs match what follows it.
 */
function rootedHolds(reading: RootedReading, root: string | null, target: string): boolean {
  if (root === null) return reading.anywhere.some((glob) => globMatches(glob, target));
  const { below } = reading;
  if (below !== null && root !== '.' && !UNSPLIT_ROOT.test(root)) {
    const head = root === '/' ? '' : root;
    if (!target.startsWith(head)) return false;
    const tail = target.slice(head.length);
    return below.some((glob) => globMatches(glob, tail));
  }
  const joined = variants(posix.normalize(`${root}/${reading.rest}`));
  return joined.some((glob) => globMatches(compileGlob(glob), target));
}

/**
 * A root that cannot be a literal head: it holds a glob character, or ends in a high surrogate,
 * which the code point splitting of globMatches may join to the next unit of the target.
 */
const UNSPLIT_ROOT = /[*?]|[\uD800-\uDBFF]$/;

/**
 * Whether joining `rest` to a normalised directory needs no normalising: it has a segment, and no
 * empty, `.` or `..` one (but for what one trailing `/` leaves).
 */
function isNormal(rest: string): boolean {
  const segments = rest.split('/');
  if (segments.at(-1) === '') segments.pop();
  return segments.length > 0 && segments.every((s) => s !== '' && s !== '.' && s !== '..');
}

/** The globs of one reading; a directory's also hold for what it holds. */
function variants(reading: string): string[] {
  // `a/**/b` also holds for `a/b` (gitignore: `**/` is zero or more directories).
  const zeroDirs = reading.replace(/\/\*\*\//g, '*/');
  return [zeroDirs, `${zeroDirs.replace(/\/+$/, '')}/**`];
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

/** Whether `dir` is a string naming a place from the home (`~`, `~/p`). */
function isHomeDir(dir: unknown): boolean {
  return typeof dir === 'string' && isHome(slashes(dir));
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
