import type { DispatchResult } from '../../src/engine/types.js';
import { parseHooksDocument } from '../../src/hooks/parse-document.js';
import { buildSnapshot, type Snapshot } from '../../src/hooks/snapshot/snapshot.js';
import type { HooksConfig, PluginBinding, SourceDocument } from '../../src/hooks/types.js';

export {
  argv,
  fixture,
  group,
  makeTempDir,
  printsJson,
  removeDir,
  sh,
} from '../helpers/hook-fixtures.js';

export interface DocumentSource {
  origin: 'project' | 'user' | 'plugin';
  /** The `hooks` object of the document. */
  hooks: Record<string, unknown>;
  plugin?: PluginBinding;
}

/** Validates a real hooks document the way a file is validated (engine.md section 3). */
export function parsedConfig(hooks: Record<string, unknown>, file = 'hooks.json'): HooksConfig {
  const parsed = parseHooksDocument({ hooks }, { file, legacy: false });
  if (parsed.config === null) throw new Error(`Assertion failed: ${file} did not load`);
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`Assertion failed: ${JSON.stringify(errors)}`);
  return parsed.config;
}

/** A snapshot of real documents, in the order given (buildSnapshot applies S3 itself). */
export function snapshotOf(projectDir: string, ...documents: DocumentSource[]): Snapshot {
  const sources: SourceDocument[] = documents.map((d, i) => ({
    origin: d.origin,
    file: `${d.origin}-${i}.json`,
    config: parsedConfig(d.hooks, `${d.origin}-${i}.json`),
    ...(d.plugin === undefined ? {} : { plugin: d.plugin }),
  }));
  return buildSnapshot({ projectDir, sources });
}

/** A snapshot of one user document. */
export function userSnapshot(projectDir: string, hooks: Record<string, unknown>): Snapshot {
  return snapshotOf(projectDir, { origin: 'user', hooks });
}

export function codes(result: DispatchResult): string[] {
  return result.diagnostics.map((d) => d.code);
}
