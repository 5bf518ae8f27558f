import type { Diagnostic, Origin } from './diagnostic.js';
import type { HookEventName } from './events.js';

/** A valid command handler after validation (docs/reference/rules/engine.md#configuration). */
export interface HandlerConfig {
  type: 'command';
  /** Shell form; with argv it is only shown. */
  command: string;
  /** Direct execution without a shell (X3); Claude Code's `args` form arrives here as `[command, ...args]`. */
  argv?: readonly string[];
  /** The shell that runs `command` when there is no argv; absent means `/bin/sh`. */
  shell?: 'bash';
  /** Seconds, finite and > 0. */
  timeout?: number;
  statusMessage?: string;
  /** A permission rule (docs/reference/rules/engine.md#the-if-predicate). */
  if?: string;
  /** C4: a migrated legacy handler gets this fixed stdin; its output and exit code are ignored. */
  legacyStdin?: Readonly<Record<string, unknown>>;
  /** X9: a failure of this handler (exit other than 0 and 2, timeout, no launch) is a block. */
  onFailure?: 'block';
  /**
   * plugins.md G3: Claude Code's `async: true` (or `asyncRewake: true`): run in the background,
   * inside Claude Code only; hookpm's engine never matches it.
   */
  background?: BackgroundRun;
}

/** How a background handler runs inside Claude Code (plugins.md G3). */
export interface BackgroundRun {
  /** `asyncRewake`: its exit 2 wakes the model with its output. */
  rewake: boolean;
  /** `rewakeMessage`: the prefix of what the model is told. */
  message?: string;
  /** `rewakeSummary`: the line the user is shown. */
  summary?: string;
}

/**
 * A group after validation. An invalid handler is null so that positions, and with them handler
 * ids (R2) and diagnostic paths, never shift.
 */
export interface GroupConfig {
  matcher: string | null;
  hooks: ReadonlyArray<HandlerConfig | null>;
}

/** A validated hooks document: per event, its groups by original position; null = dropped group. */
export type HooksConfig = Partial<Record<HookEventName, ReadonlyArray<GroupConfig | null>>>;

/**
 * One handler as declared, valid or not, with its raw field values: what a user consents to
 * (plugins.md Q1) and what `hookpm validate` counts.
 */
export interface DeclaredHandler {
  event: string;
  groupIndex: number;
  handlerIndex: number;
  matcher: unknown;
  if: unknown;
  type: unknown;
  command: unknown;
  argv: unknown;
  timeout: unknown;
  statusMessage: unknown;
  /**
   * Claude Code's exec-form arguments and shell choice, as declared (the engine runs them: `args`
   * as argv after `command`, `shell: "bash"` for a command without argv); review shows them.
   */
  args?: unknown;
  shell?: unknown;
  /** Claude Code's `onFailure` as declared (engine.md X9); review shows it. */
  onFailure?: unknown;
  /**
   * Claude Code's background fields as declared (plugins.md G3, G11): where the handler runs and
   * what its exit 2 tells the model; review shows them.
   */
  async?: unknown;
  asyncRewake?: unknown;
  rewakeMessage?: unknown;
  rewakeSummary?: unknown;
  valid: boolean;
  /** `<file>:hooks.<Event>[g].hooks[h]` */
  path: string;
}

export interface ParsedDocument {
  /** null when the document is not loaded at all (C2). */
  config: HooksConfig | null;
  declared: DeclaredHandler[];
  diagnostics: Diagnostic[];
}

/** Where a document came from, as the snapshot sees it (engine.md S1, S3). */
export interface SourceDocument {
  origin: Origin;
  /** Shown as the handler's `source`: a path, or `plugin.json#hooks`. */
  file: string;
  config: HooksConfig;
  plugin?: PluginBinding;
}

/** What a plugin's handlers get (docs/reference/rules/plugins.md#variables). */
export interface PluginBinding {
  id: string;
  root: string;
  data: string;
  /**
   * Projects (docs/guides/projects.md): `project` for a plugin the project's hookpm.json names,
   * enabled for that project only; absent for a user-wide plugin. Project plugins come after the
   * user's (S3).
   */
  scope?: 'project';
  /**
   * Z4 (security.md#confinement): the confinement its handlers run under, from its declared
   * capabilities narrowed by the user's `enable --confine`; absent: they run unconfined.
   */
  confine?: HandlerConfinement;
}

/** Z4: what a confined handler may do, and what it may not even read (Z3). */
export interface HandlerConfinement {
  network: boolean;
  write: ReadonlyArray<'data' | 'project' | 'tmp'>;
  /** Directories hidden behind an empty folder (the store's), except the plugin's own tree and data. */
  hide: readonly string[];
}

/** One runnable handler of a snapshot, in merged configuration order (engine.md R2, S3). */
export interface SnapshotHandler {
  /** `<Event>:<groupIndex>:<handlerIndex>` (R2). */
  id: string;
  event: HookEventName;
  groupIndex: number;
  handlerIndex: number;
  origin: Origin;
  /** Plugin id (`name@registry`) for plugin handlers, else null. */
  plugin: string | null;
  /** The document it came from (docs/reference/rules/plugins.md#consent-surface `source`). */
  source: string;
  matcher: string | null;
  if: string | null;
  command: string;
  argv: readonly string[] | null;
  /** `'bash'`: `command` runs under `bash -c` (found on PATH); absent: under `/bin/sh -c`. */
  shell?: 'bash';
  /** The handler's timeout, else the event default (X6). */
  timeoutSec: number;
  /** X9: `'block'` when a failure of this handler blocks; absent: a failure only adds a diagnostic. */
  onFailure?: 'block';
  statusMessage: string | null;
  /** Plugin variables CLAUDE_PLUGIN_ROOT, PLUGIN_ROOT, CLAUDE_PLUGIN_DATA, PLUGIN_DATA; {} otherwise. */
  pluginEnv: Readonly<Record<string, string>>;
  /** C4 legacy handler: this object is its stdin, and its output and exit code are ignored. */
  legacyStdin: Readonly<Record<string, unknown>> | null;
  /** Z4: its plugin's confinement (PluginBinding.confine); absent: unconfined. */
  confine?: HandlerConfinement;
  /** plugins.md G3: a background handler, run only by `hookpm wire claude --background`. */
  background?: BackgroundRun;
}
