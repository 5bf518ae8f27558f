import { storePathsOf, type GlobalOptions } from './global-options.js';
import type { Confirm, PluginContext } from '../ops/steps/context/plugin-context.js';
import { canAsk } from './prompt/can-ask.js';
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
  const ctx = pluginContextOf(globals);
  if (progress.onProgress !== undefined) ctx.onProgress = progress.onProgress;
  // The consent question is printed on stderr below the progress line, which goes first: a
  // finished download's line would otherwise run into the review (docs/reference/commands.md#terminals-and-pipes).
  const ask = ctx.confirm;
  if (ask !== undefined)
    ctx.confirm = (review) => {
      progress.done();
      return ask(review);
    };
  return { ctx, progress };
}
