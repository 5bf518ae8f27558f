import { storePathsOf, type GlobalOptions } from './global-options.js';
import type { Confirm, PluginContext } from '../ops/plugin-context.js';
import { canAsk } from './prompt/can-ask.js';
import { removeTemporaries } from '../io/interrupt-cleanup.js';
import { clearDrawnLine } from './progress/drawn-line.js';
import { createInstallProgress, type InstallProgressView } from './progress/install-progress.js';
import { askConsent } from './prompt/prompt-consent.js';

/**
 * The context the plugin operations run with: the store, this process's environment, the
 * `--cwd` directory and, on a TTY, a consent prompt (none with --yes, which answers every question).
 */
export function pluginContextOf(globals: GlobalOptions): PluginContext {
  const confirm: Confirm | undefined =
    !globals.yes && canAsk(globals.json) ? askConsent : undefined;
  return {
    paths: storePathsOf(globals),
    env: process.env,
    cwd: globals.cwd,
    ...(confirm === undefined ? {} : { confirm }),
  };
}

/** The context of a command that installs (install, update), with its progress view on stderr. */
export function installContextOf(globals: GlobalOptions): {
  ctx: PluginContext;
  progress: InstallProgressView;
} {
  const progress = createInstallProgress();
  onInterrupt();
  const ctx = pluginContextOf(globals);
  if (progress.onProgress !== undefined) ctx.onProgress = progress.onProgress;
  // The consent question is printed on stderr below the progress line, which goes first: a
  // finished download's line would otherwise run into the review (issue 18).
  const ask = ctx.confirm;
  if (ask !== undefined)
    ctx.confirm = (review) => {
      progress.done();
      return ask(review);
    };
  return { ctx, progress };
}

const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
let interruptible = false;

/**
 * Ctrl+C (SIGINT) or SIGTERM while a command downloads or stages: the progress line is cleared,
 * the download's temporary file and the staging directories are removed (io/interrupt-cleanup.ts),
 * and the process exits 130 (143), as a shell reports a command the signal stopped. What was
 * committed stays; nothing is committed half (the state is written last, in one rename).
 */
function onInterrupt(): void {
  if (interruptible) return;
  interruptible = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      clearDrawnLine();
      removeTemporaries();
      process.exit(SIGNAL_EXIT[signal]);
    });
}
