import type { Diagnostic } from '../../../hooks/diagnostic.js';
import { cwdProblem, cwdUnusable } from '../../../io/cwd-problem.js';

/** Where a linked event's handlers run, and the note that says why when not the payload's cwd. */
export interface EventCwd {
  /** The directory a new pin of the session is made for (its project's plugins join the pin). */
  forPin: string;
  /** The directory handlers run in, once the session's pin (and its project root) is known. */
  resolve(pinnedRoot: string | undefined): { cwd: string; notes?: Diagnostic[] };
}

const FALLBACK_WORDS = [
  'the project root this session was pinned for',
  'where the agent started hookpm',
  "the user's home",
];

/**
 * docs/reference/rules/cli.md#w2 (engine.md X4 for a linked event): handlers run in the payload's
 * `cwd`. When it cannot be used (cwdProblem), they run in the first usable of the project root the
 * session was pinned for, the directory the agent started hookpm in, and the user's home (the home
 * when none is), with a `cwd_unusable` warning naming the problem and the directory; a new pin is
 * made for the first usable of the last two.
 */
export function eventCwd(value: unknown, agentCwd: string, home: string): EventCwd {
  const problem = cwdProblem(value);
  if (problem === null) {
    const cwd = value as string;
    return { forPin: cwd, resolve: () => ({ cwd }) };
  }
  return {
    forPin: firstUsable([agentCwd, home]) === 0 ? agentCwd : home,
    resolve(pinnedRoot) {
      const dirs = [pinnedRoot, agentCwd, home];
      const at = firstUsable(dirs) ?? dirs.length - 1;
      const cwd = dirs[at]!;
      return { cwd, notes: [cwdUnusable(problem, cwd, FALLBACK_WORDS[at]!)] };
    },
  };
}

/**
 * docs/reference/rules/cli.md#w2 for a session (`hookpm session`, createSession): handlers run in
 * the payload's `cwd`; when it is absent or cannot be used, in the session's own directory; when
 * that cannot be entered either (removed since the session started), in the user's home, so that
 * every handler still runs and decides. `cwd` null: the payload's. The note says why, unless the
 * payload gave no cwd and the session's directory is used.
 */
export function sessionEventCwd(
  value: unknown,
  sessionDir: string,
  home: string,
): { cwd: string | null; notes?: Diagnostic[] } {
  const problem = value === undefined ? null : cwdProblem(value);
  if (value !== undefined && problem === null) return { cwd: null };
  if (cwdProblem(sessionDir) === null)
    return problem === null
      ? { cwd: sessionDir }
      : { cwd: sessionDir, notes: [cwdUnusable(problem, sessionDir)] };
  const why = `${problem ?? 'the payload has no cwd'}, and the session's directory ${sessionDir} cannot be entered`;
  return { cwd: home, notes: [cwdUnusable(why, home, "the user's home")] };
}

/** The index of the first of `dirs` that is an existing directory hookpm may enter; else null. */
function firstUsable(dirs: readonly (string | undefined)[]): number | null {
  const at = dirs.findIndex((dir) => dir !== undefined && cwdProblem(dir) === null);
  return at === -1 ? null : at;
}
