import semver from '../versions/semver.js';
import { describeValue, isPlainObject } from '../../json/describe-value.js';
import { DIST_TAG_PATTERN, isNpmPackageName } from '../name-rules.js';
import { checkUrl } from '../http/url-policy.js';
import {
  checkRepositoryUrl,
  githubUrl,
  isCommitSha,
  isGithubRepo,
  isSafeRef,
} from '../git/repository-url.js';

/**
 * Where a marketplace entry's plugin comes from (docs/reference/rules/registry.md#registry-kinds,
 * the Claude Code marketplace format), normalised:
 * - `path`: a directory relative to the marketplace root (the directory holding
 *   `.claude-plugin/`), `/`-separated and lexically normalised; it may start with `../` segments
 *   (`climbs` counts them), which the reader checks against the repository root;
 * - `git`: a repository to clone (`github` -> `https://github.com/<repo>.git`, `url`, and
 *   `git-subdir`, whose `path` is a subdirectory; a `path` on a `url` source is honoured alike);
 * - `npm`: a package of the npm registry (or of `registry`), `version` a range or dist-tag.
 */
export type EntrySource =
  | { kind: 'path'; path: string; climbs: number }
  | {
      kind: 'git';
      from: 'github' | 'url' | 'git-subdir';
      url: string;
      ref?: string;
      sha?: string;
      /** A subdirectory of the repository, normalised, never climbing out of it. */
      path?: string;
    }
  | { kind: 'npm'; package: string; version?: string; registry?: string };

/** A problem with a source: what is wrong, and the JSON path below the entry (`source.url`). */
export interface SourceProblem {
  at: string;
  problem: string;
}

export const SOURCE_KINDS = ['github', 'url', 'git-subdir', 'npm'] as const;

/**
 * Parses an entry's `source`. A string is a relative path that must start with `./` (or, when
 * the marketplace sets `metadata.pluginRoot`, a bare path below that root).
 */
export function parseEntrySource(
  value: unknown,
  pluginRoot: string | undefined,
): EntrySource | SourceProblem {
  if (typeof value === 'string') return parseRelativeSource(value, pluginRoot);
  if (!isPlainObject(value)) {
    return {
      at: 'source',
      problem: `must be a "./" path or a source object, found ${describeValue(value)}`,
    };
  }
  const kind = value['source'];
  switch (kind) {
    case 'github':
      return parseGithub(value);
    case 'url':
    case 'git-subdir':
      return parseGitUrl(value, kind);
    case 'npm':
      return parseNpm(value);
    default:
      return {
        at: 'source.source',
        problem: `is ${describeValue(kind)}; hookpm installs the source kinds ${SOURCE_KINDS.map((k) => `"${k}"`).join(', ')} and "./" paths`,
      };
  }
}

function parseRelativeSource(
  raw: string,
  pluginRoot: string | undefined,
): EntrySource | SourceProblem {
  const base = raw.startsWith('./') || pluginRoot === undefined ? '' : `${pluginRoot}/`;
  if (base === '' && !raw.startsWith('./')) {
    return {
      at: 'source',
      problem: `${describeValue(raw)} must start with "./" (a path relative to the marketplace root)`,
    };
  }
  const normal = normalizeRelativePath(base + raw);
  if ('problem' in normal) return { at: 'source', problem: normal.problem };
  return { kind: 'path', path: normal.path, climbs: normal.climbs };
}

function parseGithub(value: Record<string, unknown>): EntrySource | SourceProblem {
  const repo = value['repo'];
  if (typeof repo !== 'string' || !isGithubRepo(repo)) {
    return { at: 'source.repo', problem: `must be "owner/name", found ${describeValue(repo)}` };
  }
  const pins = parsePins(value);
  if ('problem' in pins) return pins;
  return { kind: 'git', from: 'github', url: githubUrl(repo), ...pins };
}

function parseGitUrl(
  value: Record<string, unknown>,
  from: 'url' | 'git-subdir',
): EntrySource | SourceProblem {
  const raw = value['url'];
  if (typeof raw !== 'string')
    return { at: 'source.url', problem: `must be a git URL, found ${describeValue(raw)}` };
  const url = from === 'git-subdir' && isGithubRepo(raw) ? githubUrl(raw) : raw;
  const checked = checkRepositoryUrl(url);
  if (!checked.ok) return { at: 'source.url', problem: checked.problem };
  const pins = parsePins(value);
  if ('problem' in pins) return pins;
  const source: EntrySource = { kind: 'git', from, url: checked.url, ...pins };
  const path = value['path'];
  if (path === undefined && from === 'url') return source;
  if (typeof path !== 'string')
    return {
      at: 'source.path',
      problem: `must be a path inside the repository, found ${describeValue(path)}`,
    };
  const normal = normalizeRelativePath(path);
  if ('problem' in normal) return { at: 'source.path', problem: normal.problem };
  if (normal.climbs > 0)
    return { at: 'source.path', problem: `${describeValue(path)} climbs out of the repository` };
  return { ...source, path: normal.path };
}

function parsePins(value: Record<string, unknown>): { ref?: string; sha?: string } | SourceProblem {
  const out: { ref?: string; sha?: string } = {};
  const { ref, sha } = value;
  if (ref !== undefined) {
    if (typeof ref !== 'string' || !isSafeRef(ref))
      return {
        at: 'source.ref',
        problem: `must be a branch or tag name, found ${describeValue(ref)}`,
      };
    out.ref = ref;
  }
  if (sha !== undefined) {
    if (typeof sha !== 'string' || !isCommitSha(sha))
      return {
        at: 'source.sha',
        problem: `must be a full commit id (40 hex digits), found ${describeValue(sha)}`,
      };
    out.sha = sha.toLowerCase();
  }
  return out;
}

function parseNpm(value: Record<string, unknown>): EntrySource | SourceProblem {
  const pkg = value['package'];
  if (typeof pkg !== 'string' || !isNpmPackageName(pkg)) {
    return {
      at: 'source.package',
      problem: `must be an npm package name, found ${describeValue(pkg)}`,
    };
  }
  const source: EntrySource = { kind: 'npm', package: pkg };
  const { version, registry } = value;
  if (version !== undefined) {
    const ok =
      typeof version === 'string' &&
      (semver.validRange(version) !== null || DIST_TAG_PATTERN.test(version));
    if (!ok)
      return {
        at: 'source.version',
        problem: `must be a semver range or a dist-tag, found ${describeValue(version)}`,
      };
    source.version = version;
  }
  if (registry !== undefined) {
    if (typeof registry !== 'string')
      return {
        at: 'source.registry',
        problem: `must be a registry URL, found ${describeValue(registry)}`,
      };
    try {
      checkUrl(registry, 'index');
    } catch (error) {
      return { at: 'source.registry', problem: (error as Error).message };
    }
    source.registry = registry;
  }
  return source;
}

/**
 * Lexical normalisation of a `/`-separated relative path: `.` and empty segments go, `..` removes
 * the segment before it or, at the start, counts as one climb above the base. Absolute paths,
 * backslashes, `~` and control characters are refused. The result is `.` for the base itself.
 */
export function normalizeRelativePath(
  raw: string,
): { path: string; climbs: number } | { problem: string } {
  if (
    /[\u0000-\u001f\u007f\\]/.test(raw) ||
    raw.startsWith('/') ||
    raw.startsWith('~') ||
    /^[A-Za-z]:/.test(raw)
  ) {
    return { problem: `${describeValue(raw)} is not a relative "/"-separated path` };
  }
  const kept: string[] = [];
  let climbs = 0;
  for (const segment of raw.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') kept.push(segment);
    else if (kept.length > 0) kept.pop();
    else climbs += 1;
  }
  const path = [...Array<string>(climbs).fill('..'), ...kept].join('/');
  return { path: path === '' ? '.' : path, climbs };
}
