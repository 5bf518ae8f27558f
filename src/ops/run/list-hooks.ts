import type { Diagnostic, Origin } from '../../hooks/diagnostic.js';
import { isEventName, type HookEventName } from '../../hooks/events.js';
import type { Snapshot } from '../../hooks/snapshot/snapshot.js';
import { hookKey } from '../../plugin/hook-key.js';

/** One handler as `hookpm hooks --json` shows it (docs/reference/rules/cli.md#json-shapes). */
export interface ListedHandler {
  id: string;
  event: HookEventName;
  origin: Origin;
  plugin: string | null;
  /** A plugin handler's key, for `hookpm disable <plugin> --hook <key>`; null for other origins. */
  key: string | null;
  matcher: string | null;
  if: string | null;
  command: string;
  /**
   * The program and its arguments, run without a shell: the handler's `argv`, or Claude Code's
   * exec form `[command, ...args]`; null when a shell runs `command`.
   */
  argv: readonly string[] | null;
  /** `bash` when `bash -c` runs `command` (`shell: "bash"`); null for `/bin/sh -c` or argv. */
  shell: 'bash' | null;
  /** Effective timeout in seconds (the handler's, else the event default). */
  timeout: number;
  statusMessage: string | null;
  source: string;
}

export interface HookListing {
  snapshotId: string;
  handlers: ListedHandler[];
  diagnostics: Diagnostic[];
}

/**
 * The effective merged hooks of a snapshot that hookpm's engine runs, in order, with origin and
 * id: not those only Claude Code runs (plugins.md G1, G3).
 */
export function describeSnapshot(snapshot: Snapshot): HookListing {
  const runs = snapshot.handlers.filter((h) => isEventName(h.event) && h.background === undefined);
  return {
    snapshotId: snapshot.id,
    handlers: runs.map((h) => ({
      id: h.id,
      event: h.event,
      origin: h.origin,
      plugin: h.plugin,
      key: h.plugin === null ? null : hookKey(h),
      matcher: h.matcher,
      if: h.if,
      command: h.command,
      argv: h.argv,
      shell: h.shell ?? null,
      timeout: h.timeoutSec,
      statusMessage: h.statusMessage,
      source: h.source,
    })),
    diagnostics: [...snapshot.diagnostics],
  };
}
