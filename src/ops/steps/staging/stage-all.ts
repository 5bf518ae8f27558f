import { rm } from 'node:fs/promises';
import { redact } from '../../../errors.js';
import { deprecatedNote } from './pick.js';
import { stagePlugin } from './stage.js';
import type { InstallSource, StageEnv, StagedPlugin } from './types.js';

/** Downloads and extractions in flight at once in a bulk install. */
const PARALLEL_STAGES = 8;

/**
 * Stages every source into its own fresh staging directory, a few at a time, reporting each
 * finished one as progress. All or nothing: after the first failure no further source is started,
 * every staged directory is removed, and the error of the earliest failing source (in spec order)
 * is thrown. Results are in the order of `sources`. A spec is reported as it may be shown: a URL's
 * user and password, and a token in its query, redacted (registry.md N5).
 */
export async function stageAll(
  sources: readonly InstallSource[],
  env: StageEnv,
): Promise<StagedPlugin[]> {
  const ctx = env.ctx;
  const results: Array<StagedPlugin | undefined> = new Array(sources.length);
  const errors = new Map<number, unknown>();
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (errors.size === 0 && next < sources.length) {
      const index = next;
      next += 1;
      const source = sources[index] as InstallSource;
      try {
        results[index] = await stagePlugin(source, { paths: ctx.paths }, env);
        done += 1;
        ctx.onProgress?.({
          kind: 'staged',
          plugin: redact(source.spec),
          done,
          total: sources.length,
        });
      } catch (error) {
        errors.set(index, error);
      }
    }
  };
  const workers = Math.min(PARALLEL_STAGES, sources.length);
  await Promise.all(Array.from({ length: workers }, worker));
  if (errors.size === 0) return results as StagedPlugin[];
  await Promise.all(
    results.map((s) =>
      s === undefined
        ? undefined
        : rm(s.dir, { recursive: true, force: true }).catch(() => undefined),
    ),
  );
  const first = Math.min(...errors.keys());
  throw errors.get(first);
}

/**
 * registry.md V2: a deprecated version installs with a warning. A version picked from an index is
 * warned of when picked (pick.ts); one picked only while staging (npm) here, once staged.
 */
export function stagedNotes(staged: readonly StagedPlugin[]): string[] {
  return staged.flatMap((s) =>
    s.deprecated === undefined
      ? []
      : [deprecatedNote(s.inspected.id, s.inspected.version, s.deprecated)],
  );
}
