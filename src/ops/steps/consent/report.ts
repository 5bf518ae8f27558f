import type { Diagnostic } from '../../../hooks/diagnostic.js';
import type { EventName } from '../../../hooks/events.js';
import { codeUnchanged, type CodeDiff } from '../../../plugin/code-diff.js';
import type { RoledFile } from '../../../plugin/code-files.js';
import type { LoadedPlugin } from '../../../plugin/loaded-plugin.js';
import { widensCapabilities, type Capabilities } from '../../../plugin/capabilities.js';
import { diffSurfaces } from '../../../plugin/surface-diff.js';
import type { Surface, SurfaceEntry } from '../../../plugin/surface.js';

/** One surface entry as `hookpm review --json` shows it (docs/reference/rules/cli.md#json-shapes, docs/reference/rules/plugins.md#consent-surface). */
export type ReviewHook = Omit<SurfaceEntry, 'diagnostic'> & {
  /** Why an entry is invalid (Q1); null for a valid entry. */
  diagnostic: string | null;
  /** The user turned this hook off (`hookpm disable <plugin> --hook <key>`): it does not run. */
  off: boolean;
};

export interface ReviewDiff {
  added: ReviewHook[];
  removed: ReviewHook[];
  changed: Array<{ before: ReviewHook; after: ReviewHook }>;
  /**
   * Z2: the declared capabilities changed (null: the same); `widens` when the new ones allow
   * more, which waits for consent like a new hook; a narrowing carries consent.
   */
  capabilities?: {
    before: Capabilities | null;
    after: Capabilities | null;
    widens: boolean;
  } | null;
}

export interface ReviewDiagnostic {
  severity: 'error' | 'warning' | 'info';
  code: string;
  message: string;
  /** The file (or `<file>:<JSON path>`) inside the plugin. */
  path: string | null;
}

/** `hookpm review --json` (docs/reference/rules/cli.md#json-shapes), plus what Q3 shows and what install needs. */
export interface ReviewReport {
  id: string;
  name: string;
  version: string;
  description: string | null;
  /** Where the plugin comes from: a directory path, or the source recorded at install. */
  source: string;
  integrity: string | null;
  events: EventName[];
  hooks: ReviewHook[];
  surfaceHash: string;
  /** Z1: the declared capabilities; null: none declared, its hooks run unconfined. */
  capabilities: Capabilities | null;
  /** Z4: the confinement the user recorded with the consent (`enable --confine`), if any. */
  confine?: Capabilities;
  /**
   * Q4: the consent record holds this surfaceHash, and the plugin's code files are those
   * consented to (docs/guides/installing-plugins.md#consent).
   */
  consented: boolean;
  /** Q5: against the consented surface; null when nothing was consented yet. */
  diff: ReviewDiff | null;
  /** Every file of the reviewed tree with its digest, mode and role, sorted by path. */
  files: RoledFile[];
  /** The code files changed against the consented tree; null when nothing was consented yet. */
  codeDiff: CodeDiff | null;
  /**
   * The installed plugin's hook opt-outs: each key, and whether it names a hook of this surface
   * (false: that hook changed or went, so the opt-out no longer applies).
   */
  optedOut: Array<{ key: string; applies: boolean }>;
  /** P4: false when an error would make install refuse the plugin. */
  ok: boolean;
  diagnostics: ReviewDiagnostic[];
  /** The installed plugin of the same id, if any. */
  installed: { version: string; enabled: boolean; pending: string | null } | null;
}

export interface ReviewInput {
  id: string;
  version: string;
  plugin: LoadedPlugin;
  surface: Surface;
  source: string;
  integrity: string | null;
  /** The surfaceHash of the consent record, if any. */
  consentedHash: string | null;
  /** The entries of the consented surface, when they can be read (the active installed tree). */
  consentedEntries: readonly SurfaceEntry[] | null;
  /** Z2: the consented surface's capabilities, read with consentedEntries; absent: none. */
  consentedCapabilities?: Capabilities | null;
  /** Z4: the installed plugin's `enable --confine`, if any. */
  confine?: Capabilities | undefined;
  installed: ReviewReport['installed'];
  files: RoledFile[];
  codeDiff: CodeDiff | null;
  /** The installed plugin's `disabledHooks`. */
  disabledHooks: readonly string[];
}

export function buildReview(input: ReviewInput): ReviewReport {
  const diff =
    input.consentedEntries === null
      ? null
      : diffSurfaces(input.consentedEntries, input.surface.entries);
  const off = new Set(input.disabledHooks);
  const toReviewHook = (entry: SurfaceEntry): ReviewHook => reviewHookOf(entry, off.has(entry.key));
  const keys = new Set(input.surface.entries.map((e) => e.key));
  return {
    id: input.id,
    name: input.plugin.name,
    version: input.version,
    description: input.plugin.description,
    source: input.source,
    integrity: input.integrity,
    events: [...input.surface.events],
    hooks: input.surface.entries.map(toReviewHook),
    surfaceHash: input.surface.surfaceHash,
    capabilities: input.surface.capabilities,
    ...(input.confine === undefined ? {} : { confine: input.confine }),
    consented: input.consentedHash === input.surface.surfaceHash && codeUnchanged(input.codeDiff),
    diff:
      diff === null
        ? null
        : {
            added: diff.added.map(toReviewHook),
            removed: diff.removed.map(toReviewHook),
            changed: diff.changed.map((c) => ({
              before: toReviewHook(c.before),
              after: toReviewHook(c.after),
            })),
            capabilities: capabilitiesChange(
              input.consentedCapabilities ?? null,
              input.surface.capabilities,
            ),
          },
    files: input.files,
    codeDiff: input.codeDiff,
    optedOut: [...off].sort().map((key) => ({ key, applies: keys.has(key) })),
    ok: !input.plugin.diagnostics.some((d) => d.severity === 'error'),
    diagnostics: input.plugin.diagnostics
      .filter((d) => d.code !== 'unknown_key')
      .map(toReviewDiagnostic),
    installed: input.installed,
  };
}

function capabilitiesChange(
  before: Capabilities | null,
  after: Capabilities | null,
): ReviewDiff['capabilities'] {
  if (JSON.stringify(before) === JSON.stringify(after)) return null;
  return { before, after, widens: widensCapabilities(before, after) };
}

function reviewHookOf(entry: SurfaceEntry, off: boolean): ReviewHook {
  return {
    event: entry.event,
    matcher: entry.matcher,
    if: entry.if,
    type: entry.type,
    command: entry.command,
    argv: entry.argv,
    args: entry.args,
    shell: entry.shell,
    onFailure: entry.onFailure ?? null,
    async: entry.async,
    asyncRewake: entry.asyncRewake,
    rewakeMessage: entry.rewakeMessage,
    rewakeSummary: entry.rewakeSummary,
    timeout: entry.timeout,
    statusMessage: entry.statusMessage,
    source: entry.source,
    key: entry.key,
    off,
    valid: entry.valid,
    diagnostic: entry.diagnostic ?? null,
    ...(entry.runsIn === undefined ? {} : { runsIn: entry.runsIn }),
  };
}

function toReviewDiagnostic(d: Diagnostic): ReviewDiagnostic {
  return { severity: d.severity, code: d.code, message: d.message, path: d.path ?? null };
}
