import type { PluginRecord } from '../../../store/state/state-schema.js';
import type { ConsentDecision, EnableMode } from '../consent/consent.js';
import type { StagedPlugin } from '../staging/types.js';
import type { ReviewDiff, ReviewReport } from '../consent/report.js';

/** `installed` is the outcome per plugin; `pending`: installed, waiting for consent to a widened surface (Q5). */
export type InstallStatus = 'installed' | 'unchanged' | 'pending' | 'would-install' | 'would-keep';

/** One entry of `hookpm install --json` (docs/reference/rules/cli.md#json-shapes: id, name, version, integrity, enabled, events). */
export interface InstalledEntry {
  id: string;
  name: string;
  version: string;
  integrity: string;
  enabled: boolean;
  events: string[];
  status: InstallStatus;
  /** Whether the plugin's hooks run now (Q4: enabled and consented to this surface). */
  active: boolean;
  source: string;
  surfaceHash: string;
  path: string | null;
  /** Status `pending` only: the version installed beside this one, waiting for consent (Q5). */
  pending?: string;
  /** `--dry-run` only: what would change. */
  plan?: InstallPlan;
}

/** What `hookpm install` (and update) did, or with --dry-run would do. */
export interface InstallResult {
  installed: InstalledEntry[];
  dryRun: boolean;
  /** Things the user should know (how to enable, what --force does), for the CLI to print. */
  notes: string[];
}

/** `--dry-run` (install and update): the versions, the surface diff and the files of one plugin. */
export interface InstallPlan {
  /** The installed version it would replace (or wait beside), null when new. */
  from: string | null;
  to: string;
  /** Q5: against the consented surface; null when nothing was consented yet. */
  diff: ReviewDiff | null;
  /** Q4, Q5: whether the consent would carry over, be asked for, or none is needed (not enabled). */
  consent: 'carries' | 'required' | 'none';
  /** The files the installed tree would hold, relative, sorted. */
  files: string[];
  /** The whole review (plugins.md Q3), as `hookpm review` shows it. */
  review: ReviewReport;
}

/**
 * The state record of a staged plugin promoted to `path`; disabled and without consent. `at` is
 * its updatedAt, and its installedAt unless `installedAt` (the replaced record's) is given.
 * `registryLocation`: where its registry was when it was staged (installedFrom), kept for the
 * policy (A12).
 */
export function recordOf(
  staged: StagedPlugin,
  path: string,
  at: string,
  installedAt: string = at,
  registryLocation?: string,
): PluginRecord {
  const { id, version, plugin, surface } = staged.inspected;
  return {
    id,
    name: plugin.name,
    registry: staged.source.registry,
    version,
    source: staged.source.path,
    ...(registryLocation === undefined ? {} : { registryLocation }),
    range: staged.source.range,
    integrity: staged.integrity,
    fingerprint: staged.fingerprint,
    path,
    enabled: false,
    installedAt,
    updatedAt: at,
    consent: null,
    surfaceHash: surface.surfaceHash,
    events: [...surface.events],
    pending: null,
  };
}

/** Q5: the record's tree as an update waiting for consent. */
export function pendingOf(record: PluginRecord): NonNullable<PluginRecord['pending']> {
  const { version, path, integrity, fingerprint, surfaceHash, events, source } = record;
  return {
    version,
    path,
    integrity,
    fingerprint,
    surfaceHash,
    events,
    source,
    ...keptFrom(record),
  };
}

/** policy.md A12: the record's `registryLocation`, as a field to spread, none when it has none. */
export function keptFrom(record: { registryLocation?: string }): { registryLocation?: string } {
  return record.registryLocation === undefined ? {} : { registryLocation: record.registryLocation };
}

/** The install report entry of a record. */
export function entryOf(record: PluginRecord, status: InstallStatus): InstalledEntry {
  return {
    id: record.id,
    name: record.name,
    version: record.version,
    integrity: record.integrity,
    enabled: record.enabled,
    events: [...record.events],
    status,
    active: record.enabled && record.consent?.surfaceHash === record.surfaceHash,
    source: record.source,
    surfaceHash: record.surfaceHash,
    path: record.path,
    ...(status === 'pending' && record.pending != null ? { pending: record.pending.version } : {}),
  };
}

/** Q4, Q5: sets the consent and enabled flag of a new record from the decision. */
export function applyConsent(
  record: PluginRecord,
  existing: PluginRecord | undefined,
  decision: ConsentDecision,
  mode: EnableMode,
  at: string,
): void {
  const consent = { surfaceHash: record.surfaceHash, at, version: record.version };
  // Z4: the user's own confinement (`enable --confine`) stays with the consent across versions.
  const confine = existing?.consent?.confine;
  if (confine !== undefined) Object.assign(consent, { confine });
  if (decision === 'grant') {
    record.consent = consent;
    record.enabled = true;
  } else if (decision === 'carry') {
    record.consent = consent;
    record.enabled = (existing?.enabled ?? false) || mode === 'yes';
  }
}

/**
 * Per-hook opt-outs when a new version becomes the active one: the keys naming a hook of it stay
 * off; the others lapse (that hook changed or went, which its review showed). Undefined when none
 * is left, so the record carries no empty list.
 */
export function keptOptOuts(
  disabledHooks: readonly string[] | undefined,
  hooks: ReadonlyArray<{ key: string }>,
): string[] | undefined {
  const keys = new Set(hooks.map((h) => h.key));
  const kept = (disabledHooks ?? []).filter((key) => keys.has(key));
  return kept.length === 0 ? undefined : kept;
}

/**
 * docs/reference/commands.md#rollback: `next` (the record about to replace `before`) remembers the
 * version `before` ran, with its consent and hook opt-outs, when another version becomes the
 * active one; otherwise it keeps what `before` remembered. A version never consented is not
 * remembered (there would be nothing to return to), nor the tree a reinstall of the same version
 * (`--force`) replaces, nor a linked directory (plugins.md D15), which is no tree of the store: its
 * record would name the user's directory as an installed copy.
 */
export function withPrevious(next: PluginRecord, before: PluginRecord | undefined): PluginRecord {
  if (before === undefined) return next;
  const moved = before.path !== next.path && before.version !== next.version;
  if (moved && before.consent !== null && before.linked !== true) {
    const { version, path, integrity, fingerprint, surfaceHash, events, source } = before;
    const consent = { ...before.consent };
    const kept = { version, path, integrity, fingerprint, surfaceHash, events, source };
    // The hooks the user turned off in it stay off when it is rolled back to.
    const off = before.disabledHooks === undefined ? {} : { disabledHooks: before.disabledHooks };
    return { ...next, previous: { ...kept, ...keptFrom(before), consent, ...off } };
  }
  if (before.previous === undefined) return next;
  return { ...next, previous: before.previous };
}
