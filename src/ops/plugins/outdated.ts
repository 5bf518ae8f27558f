import { compareCodeUnits } from '../../json/compare.js';
import { ownValue } from '../../json/own-value.js';
import { splitPluginId } from '../../project/plugin-id.js';
import { outdatedVersions } from '../../registry/versions/outdated-row.js';
import semver from '../../registry/versions/semver.js';
import { readState } from '../../store/state/state.js';
import type { PluginRecord } from '../../store/state/state-schema.js';
import { npmReinstallCommand } from './npm-reinstall.js';
import type { OperationContext } from '../steps/context/operation-context.js';
import { openProject } from '../steps/transaction/project-scope.js';
import { loadCatalogs } from '../steps/catalogs/load-catalogs.js';
import { releaseAgeOf } from '../steps/policy/release-age-of.js';
import { policyRefusalOf } from '../steps/policy/enforce-policy.js';
import { holdBackYoung } from '../../registry/versions/release-age.js';

/** One row of `hookpm outdated` (docs/guides/projects.md). */
export interface OutdatedEntry {
  id: string;
  /** The installed version (a project plugin: this user's install for the project, else the locked one). */
  installed: string;
  /** The range (or dist-tag) updates stay within: the record's, or hookpm.json's. */
  wanted: string;
  inRange: string | null;
  latest: string | null;
  surfaceChangesInRange: boolean | null;
  surfaceChangesLatest: boolean | null;
  /**
   * Whether `hookpm update` would install a newer version (in range, old enough, A15; never for a
   * plugin the policy refuses, A20).
   */
  outdated: boolean;
  /** Whether a newer version exists, in range or overall: what `hookpm outdated` lists. */
  newer: boolean;
}

export interface OutdatedReport {
  scope: 'user' | 'project';
  /** The project root, for `--project`. */
  project: string | null;
  plugins: OutdatedEntry[];
  /** Registries that could not be read, and plugins no registry lists. */
  notes: string[];
  /**
   * The plugins that could not be checked (no registry read lists them), sorted: never called up
   * to date.
   */
  unchecked: string[];
}

interface Installed {
  id: string;
  version: string;
  surfaceHash: string;
  wanted: string;
}

/**
 * `hookpm outdated [--project] [--all]`: for every installed plugin (or the project's) with a
 * newer version (`newer`; every one with `all`), the installed version, the newest in its range,
 * the newest overall, and whether each changes the consent surface. Indexes are revalidated
 * unless the network is off; nothing is installed or written but the cache.
 */
export async function listOutdated(
  ctx: OperationContext,
  opts: { project: boolean; cwd: string; all?: boolean },
): Promise<OutdatedReport> {
  let installed: Installed[];
  let project: string | null = null;
  let scoped = ctx;
  const state = await readState(ctx.paths);
  if (opts.project) {
    const scope = await openProject(ctx, opts.cwd);
    project = scope.root;
    scoped = scope.ctx;
    const records = state.projects?.[scope.key]?.plugins ?? {};
    const wanted = scope.files.manifest?.plugins ?? {};
    const locked = scope.files.lock?.plugins ?? {};
    installed = Object.entries(wanted).flatMap(([id, range]) => {
      const record = ownValue(records, id) ?? ownValue(locked, id);
      return record === undefined
        ? []
        : [{ id, version: record.version, surfaceHash: record.surfaceHash, wanted: range }];
    });
  } else {
    installed = Object.values(state.plugins).map((r) => ({
      id: r.id,
      version: r.version,
      surfaceHash: r.surfaceHash,
      wanted: r.range === '' ? '*' : r.range,
    }));
  }
  const registries = new Set(installed.map((p) => splitPluginId(p.id)?.registry ?? ''));
  const loaded = await loadCatalogs(scoped, {
    refresh: true,
    only: (name) => registries.has(name),
    plugins: installed.flatMap((p) => splitPluginId(p.id)?.name ?? []),
  });
  const notes = loaded.warnings.map((w) => `${w.registry}: ${w.message}`);
  const plugins: OutdatedEntry[] = [];
  const unchecked: string[] = [];
  const age = releaseAgeOf(ctx);
  for (const p of installed.sort((a, b) => compareCodeUnits(a.id, b.id))) {
    const split = splitPluginId(p.id);
    const catalog = loaded.catalogs.find((c) => c.registry === split?.registry);
    const doc =
      catalog === undefined || split === null
        ? undefined
        : ownValue(catalog.index.plugins, split.name);
    if (doc === undefined) {
      notes.push(uncheckedNote(p.id, opts.project ? undefined : ownValue(state.plugins, p.id)));
      unchecked.push(p.id);
      continue;
    }
    // docs/reference/rules/policy.md#a15: what update would not install for its age is not newer.
    const offered = age === null ? doc : holdBackYoung(doc, age, p.version).plugin;
    const versions = outdatedVersions(offered, p, p.wanted);
    // What `hookpm update` warns of (the index moved backwards, docs/guides/projects.md), said here
    // too rather than "up to date" alone.
    if (!Object.hasOwn(doc.versions, p.version))
      notes.push(
        `${p.id}: the index of ${split!.registry} moved backwards: ${p.version} is installed, but it no longer lists it (newest: ${versions.latest ?? 'none'})`,
      );
    // policy.md A20: `update` passes over a plugin the policy refuses, so it is not outdated.
    const refused = policyRefusalOf(scoped, state, split!);
    if (refused !== null)
      notes.push(
        `${p.id}: the administrator's policy ${refused.file} refuses it (${refused.rule}); hookpm update passes over it`,
      );
    const outdated = refused === null && isNewer(versions.inRange, p.version);
    const newer = outdated || isNewer(versions.latest, p.version);
    if (newer || opts.all === true)
      plugins.push({
        id: p.id,
        installed: p.version,
        wanted: p.wanted,
        ...versions,
        outdated,
        newer,
      });
  }
  return { scope: opts.project ? 'project' : 'user', project, plugins, notes, unchecked };
}

/** Why `id` is not checked: an npm plugin's registry is not read yet (npm-reinstall.ts). */
function uncheckedNote(id: string, record: PluginRecord | undefined): string {
  if (record?.registry === 'npm')
    return `${id}: npm plugins are not checked yet; run \`${npmReinstallCommand(record)}\` to update it`;
  return `${id}: no registry lists it; it cannot be checked`;
}

function isNewer(version: string | null, than: string): boolean {
  return version !== null && semver.valid(version) !== null && semver.valid(than) !== null
    ? semver.gt(version, than)
    : false;
}
