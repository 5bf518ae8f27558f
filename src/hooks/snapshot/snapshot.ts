import { compareCodeUnits } from '../../json/compare.js';
import { pluginVariables } from '../../plugin/path-variables.js';
import type { Diagnostic } from '../diagnostic.js';
import { HOOK_EVENT_NAMES, type HookEventName } from '../events.js';
import { compileGroup, createCompileCache, type SnapshotGroup } from './snapshot-compile.js';
import { snapshotId, type EffectiveConfig } from './snapshot-id.js';
import type { SnapshotHandler, SourceDocument } from '../types.js';

/** A plugin that contributed a source, with the events its runnable handlers hook (R4). */
export interface SnapshotPlugin {
  readonly id: string;
  readonly events: readonly HookEventName[];
}

/**
 * The immutable configuration of a session (engine.md R1). Built once; every object in it is
 * frozen. `groups` holds, per event, the groups that can run, in merged order (S3), each with its
 * compiled matcher and `if` rules, so matching does no parsing.
 */
export interface Snapshot {
  /** SHA-256 hex of the canonical effective configuration (R3). */
  readonly id: string;
  readonly projectDir: string;
  /**
   * Every runnable handler, events in table order, then merged group order (R2, S3). Handlers of
   * rejected groups and handlers whose `if` rule can never hold (F3) are not listed; ids keep
   * their positions all the same.
   */
  readonly handlers: readonly SnapshotHandler[];
  /** Load diagnostics (without C3 `unknown_key` warnings) then compile diagnostics (E4, E5, F3). */
  readonly diagnostics: readonly Diagnostic[];
  readonly plugins: readonly SnapshotPlugin[];
  readonly groups: Readonly<Partial<Record<HookEventName, readonly SnapshotGroup[]>>>;
}

export interface BuildSnapshotInput {
  projectDir: string;
  /** Documents in any order; they are put in S3 order (project, user, plugins by id). */
  sources: readonly SourceDocument[];
  /** Diagnostics of reading and parsing the sources, carried into the snapshot. */
  diagnostics?: readonly Diagnostic[];
  /**
   * The id an earlier build of exactly these sources computed (R3; a session pin keeps it): taken
   * as it is, so that a build on the path of every linked event hashes nothing.
   */
  id?: string;
}

const ORIGIN_RANK = { project: 0, user: 1, plugin: 2 } as const;

/** Where a document stands in S3: project file, user file, user plugins, then project plugins. */
function rankOf(source: SourceDocument): number {
  return ORIGIN_RANK[source.origin] + (source.plugin?.scope === 'project' ? 1 : 0);
}

/**
 * S3: project, then user, then the user's plugins sorted by id, then the project's plugins
 * (docs/guides/projects.md) sorted by id; a plugin's documents keep their order (H4).
 */
function orderSources(sources: readonly SourceDocument[]): SourceDocument[] {
  return [...sources].sort((a, b) => {
    const rank = rankOf(a) - rankOf(b);
    if (rank !== 0) return rank;
    return compareCodeUnits(a.plugin?.id ?? '', b.plugin?.id ?? '');
  });
}

/** The plugin variables of docs/reference/rules/plugins.md#variables; empty for user and project sources. */
function pluginEnvOf(source: SourceDocument): Readonly<Record<string, string>> {
  if (!source.plugin) return Object.freeze({});
  return Object.freeze(pluginVariables(source.plugin.root, source.plugin.data));
}

export function buildSnapshot(input: BuildSnapshotInput): Snapshot {
  const sources = orderSources(input.sources);
  const envs = sources.map(pluginEnvOf);
  const diagnostics = (input.diagnostics ?? []).filter((d) => d.code !== 'unknown_key');
  const cache = createCompileCache();
  const handlers: SnapshotHandler[] = [];
  const groups: Partial<Record<HookEventName, readonly SnapshotGroup[]>> = {};
  const effective: EffectiveConfig = {
    sources: sources.map((source, s) => ({
      origin: source.origin,
      plugin: source.plugin?.id ?? null,
      env: source.plugin ? (envs[s] ?? null) : null,
      ...(source.plugin?.confine === undefined ? {} : { confine: source.plugin.confine }),
    })),
    events: [],
  };

  for (const event of HOOK_EVENT_NAMES) {
    const runnable: SnapshotGroup[] = [];
    const described: EffectiveConfig['events'][number]['groups'] = [];
    sources.forEach((source, s) => {
      const env = envs[s] ?? Object.freeze({});
      (source.config[event] ?? []).forEach((group, localIndex) => {
        const index = described.length;
        described.push({ source: s, group });
        if (group === null) return;
        const compiled = compileGroup({ event, index, localIndex, group, source, env }, cache);
        for (const d of compiled.diagnostics) diagnostics.push(d);
        if (compiled.group === null) return;
        runnable.push(compiled.group);
        for (const entry of compiled.group.handlers) handlers.push(entry.handler);
      });
    });
    if (described.length > 0) effective.events.push({ event, groups: described });
    if (runnable.length > 0) groups[event] = Object.freeze(runnable);
  }

  return Object.freeze({
    id: input.id ?? snapshotId(effective),
    projectDir: input.projectDir,
    handlers: Object.freeze(handlers),
    diagnostics: Object.freeze(diagnostics.map((d) => Object.freeze({ ...d }))),
    plugins: Object.freeze(summarizePlugins(sources, handlers)),
    groups: Object.freeze(groups),
  });
}

function summarizePlugins(
  sources: readonly SourceDocument[],
  handlers: readonly SnapshotHandler[],
): SnapshotPlugin[] {
  const events = new Map<string, Set<HookEventName>>();
  for (const source of sources) if (source.plugin) events.set(source.plugin.id, new Set());
  for (const handler of handlers)
    if (handler.plugin) events.get(handler.plugin)?.add(handler.event);
  return [...events].map(([id, hooked]) =>
    Object.freeze({ id, events: Object.freeze(HOOK_EVENT_NAMES.filter((e) => hooked.has(e))) }),
  );
}
