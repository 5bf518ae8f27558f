import { canonicalJson, sha256Base64 } from '../json/canonical-json.js';
import type { Diagnostic } from '../hooks/diagnostic.js';
import {
  EVENTS,
  isClaudeCodeEvent,
  isEventName,
  isHookEventName,
  type EventName,
  type HookEventName,
} from '../hooks/events.js';
import { parseIfRule } from '../hooks/if-rule.js';
import { compileMatcher } from '../hooks/matcher.js';
import type { DeclaredHandler, HandlerConfig } from '../hooks/types.js';
import { normalizeCapabilities, type Capabilities } from './capabilities.js';
import { hookKey } from './hook-key.js';
import type { PluginDocument } from './loaded-plugin.js';

/**
 * The consent surface (docs/reference/rules/plugins.md#consent-surface): every handler a plugin
 * declares, valid or not, as the user sees and approves it. Field values are the declared JSON
 * values with the defaults made explicit: an absent matcher, `if`, type, argv or statusMessage is
 * null; an absent timeout is the event's default (docs/reference/rules/engine.md#events; null under
 * an unknown event); a handler given only as argv shows the command the engine shows (argv joined
 * by spaces).
 */
export interface SurfaceEntry extends Pick<
  DeclaredHandler,
  'event' | 'matcher' | 'if' | 'type' | 'command' | 'argv' | 'timeout' | 'statusMessage'
> {
  /**
   * Claude Code's `args` and `shell` as declared; null when absent. The engine runs them (`argv`
   * then holds `[command, ...args]`, and `shell: "bash"` picks bash for a command).
   */
  args: unknown;
  shell: unknown;
  /**
   * Claude Code's `onFailure` as declared; null when absent. `"block"` makes a failure of the
   * handler a block (engine.md X9), so it is consented to like what runs.
   */
  onFailure: unknown;
  /**
   * Claude Code's `async`, `asyncRewake`, `rewakeMessage` and `rewakeSummary` as declared; null
   * when absent. `async: true` moves the handler to the background inside Claude Code and out of
   * every other agent (G3), and `asyncRewake` lets its exit 2 wake the model with its message, so
   * they are consented to like what runs: an update dropping `async` makes an inert handler run
   * everywhere.
   */
  async: unknown;
  asyncRewake: unknown;
  rewakeMessage: unknown;
  rewakeSummary: unknown;
  source: string;
  /** The hook's key (plugin/hook-key.ts), for per-hook opt-outs; never hashed. */
  key: string;
  /** false: the entry never runs (invalid, under an unknown event, bad matcher or `if`). */
  valid: boolean;
  /** Why it is invalid, for review; never hashed. */
  diagnostic?: string;
  /**
   * Where a valid entry runs when not everywhere hookpm runs handlers; never hashed. `claude`: an
   * entry under one of Claude Code's own events (plugins.md G1), run only by `hookpm wire claude`;
   * `claude-background`: a background handler (`async: true`, plugins.md G3), run in the
   * background inside Claude Code only (an `asyncRewake` handler without `async` is an ordinary
   * handler everywhere, G11).
   */
  runsIn?: 'claude' | 'claude-background';
}

export interface Surface {
  /** Q1: the engine events with at least one valid entry, in declaration order, no repeats. */
  events: EventName[];
  entries: SurfaceEntry[];
  /** Q2: `sha256-` + base64 SHA-256 of the canonical JSON of the consented fields. */
  surfaceHash: string;
  /** Z1: the manifest's declared capabilities, canonical; null when it declares none. */
  capabilities: Capabilities | null;
}

export interface SurfaceInput {
  documents: ReadonlyArray<Pick<PluginDocument, 'source' | 'config' | 'declared'>>;
  /** The plugin's diagnostics; an invalid entry's message is taken from the one at its path. */
  diagnostics?: readonly Diagnostic[];
  /** The plugin's manifest, for its declared capabilities (Z1); absent or null: none declared. */
  manifest?: { capabilities?: Capabilities | undefined } | null;
}

/**
 * Q2, the hashed form: for each entry, in order, exactly these fields with defaults explicit
 * (see SurfaceEntry), as canonical JSON (sorted keys, no whitespace). What a user consents to is
 * what would run, when and from where, so:
 * - in: every field shown in review; the entry order (it is the run and reduction order).
 *   `args`, `shell`, `onFailure` and the background fields are in only when declared
 *   (OPTIONAL_CONSENTED_FIELDS): a surface without them hashes the fields above alone, as index
 *   entries built by any hookpm version do.
 * - out: `key` (derived from the fields above); `valid` and `diagnostic` (hookpm's judgement of
 *   the request, whose wording may change between hookpm versions without the plugin changing);
 *   unknown keys (C3: never used); the plugin's name, version and description (a new version with
 *   the same hooks keeps consent).
 * - A group without a `hooks` array, or an event key whose value is not an array, declares no
 *   handler entry: it adds nothing here and is shown through its diagnostic.
 */
export const CONSENTED_FIELDS = [
  'event',
  'matcher',
  'if',
  'type',
  'command',
  'argv',
  'timeout',
  'statusMessage',
  'source',
] as const;

/** Claude Code's background fields (plugins.md G3, G11), which review shows by these names. */
export const BACKGROUND_FIELDS = [
  'async',
  'asyncRewake',
  'rewakeMessage',
  'rewakeSummary',
] as const;

/**
 * Claude Code's exec form, shell, failure policy and background fields: hashed when declared, left
 * out of the hash when absent.
 */
export const OPTIONAL_CONSENTED_FIELDS = [
  'args',
  'shell',
  'onFailure',
  ...BACKGROUND_FIELDS,
] as const;

export function buildSurface(plugin: SurfaceInput): Surface {
  const entries: SurfaceEntry[] = [];
  const problems = problemsByPath(plugin.diagnostics ?? []);
  for (const document of plugin.documents) {
    for (const declared of document.declared) {
      const handler = configuredHandler(document, declared);
      entries.push(entryOf(declared, handler, document.source, problems));
    }
  }
  const events: EventName[] = [];
  for (const entry of entries) {
    // Q1: what hookpm's engine runs; entries that run only inside Claude Code (G1, G3) add none.
    if (entry.valid && entry.runsIn === undefined && isEventName(entry.event))
      if (!events.includes(entry.event)) events.push(entry.event);
  }
  const declared = plugin.manifest?.capabilities;
  const capabilities = declared === undefined ? null : normalizeCapabilities(declared);
  return { events, entries, surfaceHash: surfaceHash(entries, capabilities), capabilities };
}

/**
 * Q2, and Z2 for declared capabilities: without them the hash is that of the entries alone (so
 * every surface hashed before capabilities existed keeps its hash); with them it is that of
 * `{"capabilities": ..., "hooks": [entries]}`, an object where the other form is an array.
 */
export function surfaceHash(
  entries: readonly SurfaceEntry[],
  capabilities: Capabilities | null = null,
): string {
  const forms = entries.map(consentedForm);
  const hashed = capabilities === null ? forms : { capabilities, hooks: forms };
  return `sha256-${sha256Base64(canonicalJson(hashed))}`;
}

/** An entry reduced to what the user consents to (CONSENTED_FIELDS). */
function consentedForm(entry: SurfaceEntry): Record<string, unknown> {
  const form = Object.fromEntries(CONSENTED_FIELDS.map((field) => [field, entry[field]]));
  for (const field of OPTIONAL_CONSENTED_FIELDS)
    if (entry[field] !== null) form[field] = entry[field];
  return form;
}

function configuredHandler(
  document: Pick<PluginDocument, 'config'>,
  declared: DeclaredHandler,
): HandlerConfig | null {
  if (!declared.valid || !isHookEventName(declared.event)) return null;
  return (
    document.config?.[declared.event]?.[declared.groupIndex]?.hooks[declared.handlerIndex] ?? null
  );
}

function entryOf(
  declared: DeclaredHandler,
  handler: HandlerConfig | null,
  source: string,
  problems: ReadonlyMap<string, string>,
): SurfaceEntry {
  const known = isEventName(declared.event) ? declared.event : null;
  const hooked = isHookEventName(declared.event) ? declared.event : null;
  const entry: SurfaceEntry = {
    event: declared.event,
    matcher: declared.matcher ?? null,
    if: declared.if ?? null,
    type: declared.type ?? null,
    command: handler?.command ?? declared.command ?? null,
    argv: handler?.argv ?? declared.argv ?? null,
    timeout: declared.timeout ?? (known === null ? null : EVENTS[known].defaultTimeoutSec),
    statusMessage: declared.statusMessage ?? null,
    args: declared.args ?? null,
    shell: declared.shell ?? null,
    onFailure: declared.onFailure ?? null,
    async: declared.async ?? null,
    asyncRewake: declared.asyncRewake ?? null,
    rewakeMessage: declared.rewakeMessage ?? null,
    rewakeSummary: declared.rewakeSummary ?? null,
    source,
    key: '',
    valid: handler !== null,
  };
  entry.key = hookKey(entry);
  const problem =
    handler === null ? declaredProblem(declared, problems) : runtimeProblem(entry, hooked);
  if (problem !== null) {
    entry.valid = false;
    entry.diagnostic = problem;
  } else if (handler?.background !== undefined) entry.runsIn = 'claude-background';
  else if (isClaudeCodeEvent(declared.event)) entry.runsIn = 'claude';
  return entry;
}

/**
 * The message of the first diagnostic at each path, `unknown_key` warnings left out: looked up once
 * per invalid entry, so a document of many invalid handlers costs time in proportion to them.
 */
function problemsByPath(diagnostics: readonly Diagnostic[]): Map<string, string> {
  const problems = new Map<string, string>();
  for (const d of diagnostics) {
    if (d.path === undefined || d.code === 'unknown_key' || problems.has(d.path)) continue;
    problems.set(d.path, d.message);
  }
  return problems;
}

/** The diagnostic at the entry's path, else at its group's, else at its event's (C1, C2). */
function declaredProblem(declared: DeclaredHandler, problems: ReadonlyMap<string, string>): string {
  const handlerPath = declared.path;
  const groupPath = handlerPath.slice(0, handlerPath.lastIndexOf('.hooks['));
  const eventPath = groupPath.slice(0, groupPath.lastIndexOf('['));
  for (const path of [handlerPath, groupPath, eventPath]) {
    const found = problems.get(path);
    if (found !== undefined) return found;
  }
  return isHookEventName(declared.event)
    ? 'this handler is invalid and never runs'
    : `unknown event ${JSON.stringify(declared.event)}; this handler never runs`;
}

/** Problems found when a snapshot is built: a matcher (E4, E5) or `if` rule (F3) that never works. */
function runtimeProblem(entry: SurfaceEntry, event: HookEventName | null): string | null {
  if (event === null) return null;
  const matcher = typeof entry.matcher === 'string' ? entry.matcher : null;
  const compiled = compileMatcher(matcher, event);
  if (!compiled.ok) return `${compiled.code}: ${compiled.message}`;
  if (typeof entry.if !== 'string') return null;
  if (!EVENTS[event].tool)
    return `invalid_if: an "if" rule on ${event}, which is not a tool event, never holds`;
  const rule = parseIfRule(entry.if);
  return rule.ok ? null : `invalid_if: ${rule.message}`;
}
