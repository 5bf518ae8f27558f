import type { FailClosed } from '../hooks/fail-closed-entry.js';
import type { Diagnostic } from '../hooks/diagnostic.js';
import { isHookEventName } from '../hooks/events.js';
import type { SourceDocument } from '../hooks/types.js';
import { isPlainObject } from '../json/describe-value.js';
import type { PluginRecord } from './state/state-schema.js';

/** The pin document versions this hookpm reads and writes; another version is not this hookpm's. */
export const PIN_VERSION = 1;

/**
 * The `fingerprint` of a pinned linked plugin (plugins.md D15): its directory is read in place and
 * not held to a fingerprint; its pinned documents are the consented ones read at the pin.
 */
export const LINKED_PIN_FINGERPRINT = 'linked';

/** What a pinned plugin's tree must still be (plugins.md Q6) for its documents to run. */
export interface PinnedPlugin {
  id: string;
  version: string;
  root: string;
  fingerprint: string;
  /** What it was installed from (for the `hookpm install --force` that restores it). */
  source: string;
  /** A project's plugin: the project's root (`hookpm ci` there restores it: restoreAdvice). */
  project?: string;
}

/**
 * The pin of an installed plugin's `record`; `project`: the root of the project whose plugin it is
 * (null: a user-wide one). A linked directory is held to no fingerprint (LINKED_PIN_FINGERPRINT).
 */
export function pinnedPluginOf(record: PluginRecord, project: string | null): PinnedPlugin {
  return {
    id: record.id,
    version: record.version,
    root: record.path,
    fingerprint: record.linked === true ? LINKED_PIN_FINGERPRINT : record.fingerprint,
    source: record.source,
    ...(project === null ? {} : { project }),
  };
}

/** One agent session's pin (session-pins.ts). */
export interface SessionPin {
  version: typeof PIN_VERSION;
  sessionId: string;
  agent: string;
  pinnedAt: string;
  /** The id of the snapshot of `sources` (engine.md R3). */
  snapshotId: string;
  plugins: PinnedPlugin[];
  /** Plugin documents the snapshot builder validated when the pin was made. */
  sources: SourceDocument[];
  diagnostics: Diagnostic[];
  /** Consecutive Stop continuations of the session so far (engine.md O3). */
  stopContinuations: number;
  /**
   * The project root (engine.md S2) of the directory the pin was made for: where handlers run when
   * a later payload's `cwd` cannot be used. Absent in a pin made without one.
   */
  projectRoot?: string;
  /**
   * The enabled plugins that could not run as consented when the pin was made, and a state that
   * could not be read (docs/reference/rules/engine.md#fail-closed). Absent in a pin written before
   * it existed: none. A pin with any is made afresh at each event (session-pin.ts).
   */
  failClosed?: FailClosed[];
}

/**
 * A pin file's JSON as a pin, or null when it is not one this hookpm wrote (the caller then pins
 * afresh). A check of the shape, by hand rather than with a zod schema (STYLE rule 4's exception):
 * the pin is hookpm's own file, read on every linked event, where loading zod would cost more
 * than the rest of the event (bench/link.bench.mjs); its documents were validated when pinned.
 */
export function parsePin(value: unknown): SessionPin | null {
  if (!isPlainObject(value) || value['version'] !== PIN_VERSION) return null;
  const strings = ['sessionId', 'agent', 'pinnedAt', 'snapshotId'].every(
    (k) => typeof value[k] === 'string',
  );
  const count = value['stopContinuations'];
  if (!strings || !Number.isSafeInteger(count) || (count as number) < 0) return null;
  if (value['projectRoot'] !== undefined && typeof value['projectRoot'] !== 'string') return null;
  const { plugins, sources, diagnostics } = value;
  if (!Array.isArray(plugins) || !plugins.every(isPinnedPlugin)) return null;
  if (!Array.isArray(sources) || !sources.every(isPinnedSource)) return null;
  if (!Array.isArray(diagnostics) || !diagnostics.every(isDiagnostic)) return null;
  const failClosed = value['failClosed'];
  if (failClosed !== undefined && (!Array.isArray(failClosed) || !failClosed.every(isFailClosed)))
    return null;
  return value as unknown as SessionPin;
}

/** Whether `value` has a PinnedPlugin's fields, of their types (a pin file is the user's). */
export function isPinnedPlugin(value: unknown): boolean {
  return (
    isPlainObject(value) &&
    ['id', 'version', 'root', 'fingerprint', 'source'].every((k) => typeof value[k] === 'string') &&
    (value['project'] === undefined || typeof value['project'] === 'string')
  );
}

function isPinnedSource(value: unknown): boolean {
  if (!isPlainObject(value) || value['origin'] !== 'plugin' || typeof value['file'] !== 'string')
    return false;
  const { config, plugin } = value;
  return (
    isPlainObject(config) &&
    Object.values(config).every(Array.isArray) &&
    isPlainObject(plugin) &&
    ['id', 'root', 'data'].every((k) => typeof plugin[k] === 'string')
  );
}

function isFailClosed(value: unknown): boolean {
  if (!isPlainObject(value) || typeof value['reason'] !== 'string') return false;
  const { plugin, events } = value;
  return (
    (plugin === null || typeof plugin === 'string') &&
    (events === null ||
      (Array.isArray(events) && events.every((e) => typeof e === 'string' && isHookEventName(e))))
  );
}

function isDiagnostic(value: unknown): boolean {
  return (
    isPlainObject(value) &&
    typeof value['code'] === 'string' &&
    typeof value['message'] === 'string' &&
    ['error', 'warning', 'info'].includes(value['severity'] as string)
  );
}
