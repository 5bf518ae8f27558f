import { LINK_TIMEOUT_RANGE, LINK_TIMEOUT_SEC, type AgentId } from '../../agents/agent.js';
import { HookpmError } from '../../errors.js';
import { applyLink, linkHandlersOf } from '../../agents/link-edit.js';
import type { EventName } from '../../hooks/events.js';
import { sha256Hex } from '../../json/canonical-json.js';
import {
  backupSettings,
  discardBackup,
  linkKey,
  pruneBackups,
  putBackLinkRecord,
  readLinkRecord,
  writeLinkRecord,
  type LinkRecord,
} from '../../store/link-records.js';
import { withStoreLock } from '../../store/state/state.js';
import type { StorePaths } from '../../store/store-paths.js';
import { missingDirOf, writeSettingsFile } from '../../workspace/agent-settings-file.js';
import {
  backgroundLinkHandler,
  cappedTimeouts,
  linkHandler,
  type HookpmPaths,
} from '../steps/links/hookpm-command.js';
import { assertWriteInside } from '../../workspace/inside-root.js';
import {
  linkTarget,
  type LinkScope,
  type LinkTarget,
  type LinkTargetOptions,
} from '../steps/links/link-target.js';
import { claudeLinkPlan } from '../steps/links/claude-code-events.js';
import {
  assertWritable,
  changedMeanwhile,
  readSettingsText,
  settingsBefore,
  settingsBytes,
  unchangedSince,
  type SettingsText,
} from '../steps/links/settings-text.js';

export interface LinkOptions extends LinkTargetOptions {
  store: StorePaths;
  /** The hookpm the handler runs, with the home whose plugins it runs (currentHookpm). */
  hookpm: HookpmPaths;
  /**
   * The agent's deadline for hookpm's handler, whole seconds in LINK_TIMEOUT_RANGE (`--timeout`);
   * default LINK_TIMEOUT_SEC.
   */
  timeoutSec?: number;
}

export interface LinkResult {
  agent: AgentId;
  name: string;
  scope: LinkScope;
  file: string;
  /** False when the file already held exactly this link (nothing was written). */
  changed: boolean;
  /**
   * The events with a hookpm handler, as the agent's settings name them: the agent's engine events,
   * then (Claude Code) those of its own events that an enabled plugin hooks (plugins.md G1).
   */
  events: readonly string[];
  /** plugins.md G3: the events with a background link entry (Claude Code's `async: true`). */
  background: readonly string[];
  /** The engine event of each of the agent's engine events, the first of `events`, in order. */
  engineEvents: readonly EventName[];
  /** The agent's events that the engine does not have, so are not linked. */
  eventsNotLinked: readonly string[];
  /** What the user must do once before the agent runs the handlers (Codex's hook trust); or null. */
  trustNote: string | null;
  command: string;
  /** The agent's deadline for hookpm's handler, in seconds (`timeout` in the agent's unit). */
  timeoutSec: number;
  /** The copy of the file as it was before this write; null when nothing was written or no file. */
  backup: string | null;
}

/**
 * `hookpm link <agent>`: one hookpm handler per event the agent has, in a group of its own that
 * matches everything, and nothing else changed (link-edit.ts), each with the agent's deadline
 * (`timeoutSec`) as its timeout and on its command line (`wire --deadline`). Under the store lock;
 * the file is backed up and the link record written, then the file is replaced durably, and only
 * if no one else wrote it since it was read: a failure at any step leaves the file byte-identical.
 * Errors: E_USAGE (a timeout out of range), E_AGENT_SETTINGS (the file is left untouched: not
 * strict JSON of the settings shape, or read-only, settings-text.ts), E_IO,
 * E_NOSPC, E_STORE_READONLY, E_LOCKED.
 */
export async function linkAgent(options: LinkOptions): Promise<LinkResult> {
  const target = await linkTarget(options);
  if (target.root !== undefined) assertWriteInside(target.root, target.file, 'the project');
  const { timeoutSec, handler, events, background } = await linkPlanOf(options, target);
  const result: LinkResult = {
    agent: options.agent,
    name: target.agent.name,
    scope: target.scope,
    file: target.file,
    changed: false,
    events,
    background: background.map((b) => b.event),
    engineEvents: target.agent.events,
    eventsNotLinked: target.agent.eventsNotLinked,
    trustNote: target.agent.trustNote(target.scope),
    command: handler.command,
    timeoutSec,
    backup: null,
  };
  return withStoreLock(options.store, async () => {
    const read = await readSettingsText(target.file, target.agent.hooksConfigKeys);
    const timeouts = cappedTimeouts(options.agent, timeoutSec);
    const key = linkKey(options.agent, target.file);
    const earlier = await readLinkRecord(options.store, key);
    const text = applyLink({
      ...read,
      agent: options.agent,
      events,
      handler,
      timeouts,
      background,
      before: settingsBefore(options.store, key, earlier, target.agent.hooksConfigKeys),
    });
    if (text === read.text) return result;
    assertWritable(read);
    const backup =
      read.file.bytes === null
        ? null
        : await backupSettings(options.store, key, read.file.bytes, read.file.mode);
    const bytes = settingsBytes(text, read.bom);
    let record: Omit<LinkRecord, 'writtenSha256'>;
    try {
      const madeDir = read.file.bytes === null ? await missingDirOf(read.file) : null;
      record = nextRecord(options.agent, read, earlier, backup, madeDir);
      // The record before the file: a store that cannot take it fails the link with the user's
      // file untouched; a file that cannot be written gets the earlier record back.
      await writeLinkRecord(options.store, key, { ...record, writtenSha256: sha256Hex(bytes) });
      try {
        if (!(await unchangedSince(read))) throw changedMeanwhile(target.file);
        await writeSettingsFile(read.file, bytes);
      } catch (error) {
        await putBackLinkRecord(options.store, key, earlier);
        throw error;
      }
    } catch (error) {
      // A failed link leaves the store's backups as they were.
      if (backup !== null) await discardBackup(backup);
      throw error;
    }
    await pruneBackups(options.store, key, record.before);
    return { ...result, changed: true, backup };
  });
}

/** The handlers `link` wants in the file: the foreground one per event, the background ones. */
async function linkPlanOf(options: LinkOptions, target: LinkTarget) {
  const timeoutSec = linkTimeoutOf(options.timeoutSec);
  const handler = linkHandler(options.agent, options.hookpm, timeoutSec);
  const plan =
    options.agent === 'claude'
      ? await claudeLinkPlan(options.store, { project: options.project, cwd: options.cwd })
      : { events: [], background: [] };
  const events = [...target.agent.settingsEvents, ...plan.events];
  const background = plan.background.map((b) => ({
    event: b.event,
    handler: backgroundLinkHandler(options.hookpm, b),
  }));
  return { timeoutSec, handler, events, background };
}

/**
 * Whether `link` would change the link in a document `settings` (one read leniently from a file
 * that `link` refuses to edit): a handler missing, out of place or not the one it writes.
 */
export async function linkWouldChange(
  options: LinkOptions,
  settings: Record<string, unknown>,
): Promise<boolean> {
  const target = await linkTarget(options);
  const { timeoutSec, handler, events, background } = await linkPlanOf(options, target);
  const text = JSON.stringify(settings);
  const timeouts = cappedTimeouts(options.agent, timeoutSec);
  const input = { text, settings, agent: options.agent, events, handler, timeouts, background };
  return applyLink(input) !== text;
}

/** `--timeout`: whole seconds in LINK_TIMEOUT_RANGE; E_USAGE otherwise. */
function linkTimeoutOf(given: number | undefined): number {
  if (given === undefined) return LINK_TIMEOUT_SEC;
  const { min, max } = LINK_TIMEOUT_RANGE;
  if (Number.isSafeInteger(given) && given >= min && given <= max) return given;
  throw new HookpmError('E_USAGE', `--timeout must be whole seconds from ${min} to ${max}`, {
    expected: `an integer from ${min} to ${max}`,
    found: given,
    hint: `The agent's deadline for hookpm's handler, in seconds (default ${LINK_TIMEOUT_SEC}).`,
  });
}

/**
 * What unlink may restore: the file before any link, when the file holds no link of the agent now;
 * the earlier record's, when the file is still exactly what hookpm last wrote; else nothing.
 */
function nextRecord(
  agent: AgentId,
  read: SettingsText,
  earlier: LinkRecord | null,
  backup: string | null,
  madeDir: string | null,
): Omit<LinkRecord, 'writtenSha256'> {
  const base = { version: 1 as const, agent, file: read.file.path };
  if (linkHandlersOf(read.settings, agent).length === 0)
    return { ...base, before: backup, restorable: true, ...(madeDir === null ? {} : { madeDir }) };
  const sha = read.file.bytes === null ? null : sha256Hex(read.file.bytes);
  if (earlier !== null && earlier.writtenSha256 === sha) {
    const { before, restorable, madeDir: made } = earlier;
    return { ...base, before, restorable, ...(made === undefined ? {} : { madeDir: made }) };
  }
  return { ...base, before: null, restorable: false };
}
