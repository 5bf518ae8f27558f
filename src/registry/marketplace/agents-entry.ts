import { describeValue, isPlainObject } from '../../json/describe-value.js';
import {
  normalizeRelativePath,
  type EntrySource,
  type SourceProblem,
} from './marketplace-source-schema.js';

/**
 * What an entry of Codex's `.agents/plugins/marketplace.json` (docs/reference/rules/plugins.md#g10)
 * adds to a Claude Code entry:
 * - `source: {"source": "local", "path": "./dir"}`, a directory relative to the marketplace root
 *   (the directory holding `.agents/`), which must start with `./`, name something below `./` and
 *   never climb (`..`), as Codex requires; `source` is then that path;
 * - `policy.installation: "NOT_AVAILABLE"`, which Codex refuses to install: a problem, so the
 *   entry is left out with that reason.
 * Any other `source` (a `./` string, a github, url, git-subdir or npm object, as Deep Agents Code
 * reads them in either file) is the Claude Code entry's: `source` is null then.
 */
export function parseAgentsEntry(
  raw: Record<string, unknown>,
): { source: EntrySource | null } | SourceProblem {
  const policy = raw['policy'];
  if (isPlainObject(policy) && policy['installation'] === 'NOT_AVAILABLE') {
    return {
      at: 'policy.installation',
      problem: 'is "NOT_AVAILABLE": the catalog does not offer it for install',
    };
  }
  const source = raw['source'];
  if (!isPlainObject(source) || source['source'] !== 'local') return { source: null };
  const path = source['path'];
  if (typeof path !== 'string' || !path.startsWith('./') || path.length <= 2) {
    return {
      at: 'source.path',
      problem: `must be a "./" path below the marketplace root, found ${describeValue(path)}`,
    };
  }
  const normal = normalizeRelativePath(path);
  if ('problem' in normal) return { at: 'source.path', problem: normal.problem };
  if (path.split('/').includes('..') || normal.path === '.') {
    return {
      at: 'source.path',
      problem: `${describeValue(path)} must stay below the marketplace root (no ".." segments)`,
    };
  }
  return { source: { kind: 'path', path: normal.path, climbs: 0 } };
}
