import { mkdirSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DispatchResult } from '../../engine/types.js';
import type { Diagnostic } from '../../hooks/diagnostic.js';
import type { EventName } from '../../hooks/events.js';
import { buildSnapshot } from '../../hooks/snapshot/snapshot.js';
import type { SourceDocument } from '../../hooks/types.js';
import { hasErrors } from '../../plugin/loaded-plugin.js';
import type { StorePaths } from '../../store/store-paths.js';
import type { RecordScope } from '../steps/installed/project-records.js';
import { findProjectRoot } from '../../workspace/find-project-root.js';
import { isFailedRun, type LoggedDecision } from '../steps/decision-log/run-outcome.js';
import type { DispatchRecord } from '../../engine/dispatch-options.js';
import { openHost } from '../steps/host/host.js';
import { readPluginUnderTest } from './plugin-under-test.js';
import { requireTestAllowed } from './test-policy.js';
import { effectiveConfinement } from '../../plugin/capabilities.js';
import type { PolicyInForce } from '../../policy/policy.js';
import { readPolicyFile } from '../../store/policy-file.js';
import { HookpmError } from '../../errors.js';
import { errnoCode, toUserFileError } from '../../io/fs-error.js';

export interface TestPluginOptions {
  /** A plugin directory, a tarball, or an installed plugin's name or id. */
  target: string;
  event: EventName;
  /**
   * The payload, or a function giving it from the plugin's root as its handlers see it (a
   * tarball's extracted copy, an installed tree): the CLI's reads the plugin's own sample,
   * `payloads/<Event>.json`. Called once, after the policy allowed the plugin, before any handler.
   */
  input:
    | Readonly<Record<string, unknown>>
    | ((root: string) => Promise<Readonly<Record<string, unknown>>>);
  cwd: string;
  store: StorePaths;
  /** Whose installed plugin `target` names: the user-wide ones (default) or a project's. */
  scope?: RecordScope;
  /** The data directory handlers get; default a fresh scratch directory, removed afterwards. */
  dataDir?: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** The administrator's policy (policy.md A10); absent: read now from this process's environment. */
  policy?: PolicyInForce;
}

/** One handler's run as `hookpm test` shows it. */
export interface TestedHandler {
  handler: string;
  command: string;
  exitCode: number | null;
  signal: string | null;
  ms: number;
  timedOut: boolean;
  failed: boolean;
  decision: LoggedDecision | null;
  stdout: string;
  stderr: string;
}

export interface TestPluginReport {
  plugin: string;
  version: string;
  kind: 'directory' | 'tarball' | 'installed';
  event: EventName;
  /** The data directory handlers got; null when it was a scratch one, now removed. */
  dataDir: string | null;
  handlers: TestedHandler[];
  /** Whether some handler failed (launch failure, timeout, signal, exit other than 0 and 2). */
  failed: boolean;
  /**
   * Whether the plugin has an error diagnostic: install would refuse it (P4), or, installed, its
   * files changed since and a snapshot leaves it out (Q6: `plugin_tampered`).
   */
  invalid: boolean;
  result: DispatchResult;
  /** The plugin's own findings (as `hookpm validate`), then the run's. */
  diagnostics: Diagnostic[];
}

/**
 * `hookpm test <plugin> <Event>` (docs/guides/writing-plugins.md): runs the plugin's handlers on
 * one event through the engine, as a dispatch would (matchers, `if` rules, X1-X8, reduction), with
 * its plugin variables naming its root and a scratch data directory; nothing is installed, enabled,
 * logged or changed in the store. Every handler of the plugin's valid documents runs, enabled or
 * not. Errors: those of readPluginUnderTest; E_POLICY when the administrator's policy would not let
 * the plugin run (requireTestAllowed), before any handler runs.
 */
export async function testPlugin(options: TestPluginOptions): Promise<TestPluginReport> {
  const plugin = await readPluginUnderTest(
    options.target,
    options.cwd,
    options.store,
    options.scope,
  );
  try {
    requireTestAllowed(options.policy ?? readPolicyFile(process.env), plugin);
  } catch (error) {
    await plugin.dispose();
    throw error;
  }
  const data = options.dataDir ?? mkdtempSync(join(tmpdir(), 'hookpm-test-data-'));
  try {
    if (options.dataDir !== undefined) makeDataDir(resolve(data));
    const { inspected } = plugin;
    // Z4: a plugin that declares capabilities, or that the user confined, is tested confined, as
    // it runs once installed.
    const confine = effectiveConfinement(inspected.surface.capabilities, plugin.confine);
    const hide = [options.store.config, options.store.data, options.store.cache];
    const binding = {
      id: inspected.id,
      root: plugin.root,
      data: resolve(data),
      ...(confine === null ? {} : { confine: { ...confine, hide } }),
    };
    const sources = inspected.plugin.documents.flatMap((d): SourceDocument[] =>
      d.config === null
        ? []
        : [{ origin: 'plugin', file: d.source, config: d.config, plugin: binding }],
    );
    const projectDir = await findProjectRoot(options.cwd);
    const snapshot = buildSnapshot({ projectDir, sources });
    let record: DispatchRecord | null = null;
    // The store's `env.pass` applies; nothing is logged (source null).
    const input =
      typeof options.input === 'function' ? await options.input(plugin.root) : options.input;
    const host = openHost({ snapshot, store: options.store, source: null });
    const result = await host.dispatch(options.event, input, {
      cwd: options.cwd,
      ...(options.env === undefined ? {} : { env: options.env }),
      log: (r) => (record = r),
    });
    const logged = record as DispatchRecord | null;
    const runs = logged?.runs ?? [];
    const handlers = runs.map((run, i) => ({
      handler: run.handler.id,
      command: run.handler.argv === null ? run.handler.command : JSON.stringify(run.handler.argv),
      exitCode: run.exitCode,
      signal: run.signal,
      ms: Math.round(run.durationMs * 100) / 100,
      timedOut: run.timedOut,
      failed: isFailedRun(run),
      decision: logged?.decisions[i] ?? null,
      stdout: run.stdout,
      stderr: run.stderr,
    }));
    return {
      plugin: inspected.id,
      version: inspected.version,
      kind: plugin.kind,
      event: options.event,
      dataDir: options.dataDir === undefined ? null : resolve(data),
      handlers,
      failed: handlers.some((h) => h.failed),
      invalid: hasErrors(inspected.plugin) || plugin.tampered !== null,
      result,
      diagnostics: [
        ...(plugin.tampered === null ? [] : [plugin.tampered]),
        ...inspected.plugin.diagnostics,
        ...snapshot.diagnostics,
        ...result.diagnostics,
      ],
    };
  } finally {
    await plugin.dispose();
    if (options.dataDir === undefined) await rm(data, { recursive: true, force: true });
  }
}

/**
 * `--data <dir>`, made when missing: E_USAGE naming it when a file is in its way, else the user's
 * file error (E_IO: permission denied, read-only).
 */
function makeDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'EEXIST' && code !== 'ENOTDIR') throw toUserFileError(error, dir, 'make');
    throw new HookpmError('E_USAGE', `--data ${dir} is not a directory (${code})`, {
      file: dir,
      hint: 'Give --data a directory (it is made when missing), or move the file aside.',
    });
  }
}
