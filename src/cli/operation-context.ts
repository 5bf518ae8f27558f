import type { EnableMode } from '../ops/steps/consent/consent.js';
import type { ConsentMode, OperationContext } from '../ops/steps/context/operation-context.js';
import { storePathsOf, type GlobalOptions } from './global-options.js';
import { canAsk } from './prompt/can-ask.js';
import { removeTemporaries } from '../io/interrupt-cleanup.js';
import { clearDrawnLine } from './progress/drawn-line.js';
import { createIndexProgress } from './progress/index-progress.js';
import { createInstallProgress } from './progress/install-progress.js';

/** Which progress a command draws on stderr (only on a TTY): downloads and bulk installs, or index fetches. */
export type ProgressKind = 'install' | 'index' | 'none';

/**
 * The one operation context of a command, built once from the global options: the store, the
 * network (`--offline`, this process's environment, the `--cwd` directory), the consent mode
 * (`--yes` answers every question; else a prompt on a TTY; else none, and operations never enable
 * silently) and the progress view. `done` clears the progress line: call it before printing and
 * when the command fails.
 */
export function createOperationContext(
  globals: GlobalOptions,
  progressKind: ProgressKind = 'none',
): { ctx: OperationContext; done: () => void } {
  if (progressKind !== 'none') onInterrupt();
  const consent: ConsentMode = globals.yes ? 'yes' : canAsk(globals.json) ? 'ask' : 'none';
  const progress =
    progressKind === 'install'
      ? createInstallProgress()
      : progressKind === 'index'
        ? createIndexProgress()
        : { onProgress: undefined, done: () => undefined };
  const ctx: OperationContext = {
    paths: storePathsOf(globals),
    offline: globals.offline,
    env: process.env,
    cwd: globals.cwd,
    consent,
    ...(progress.onProgress === undefined ? {} : { onProgress: progress.onProgress }),
  };
  // The consent question is printed on stderr below the progress line, which is cleared first: a
  // finished download's line would otherwise run into the review. The prompt's code is loaded
  // only when a question is asked (STYLE "Start-up cost").
  if (consent === 'ask')
    ctx.confirm = async (review) => {
      progress.done();
      const { askConsent } = await import('./prompt/prompt-consent.js');
      return askConsent(review);
    };
  return { ctx, done: progress.done };
}

/** The enable mode of an install-like command: `no` with --no-enable, else consentEnableMode. */
export function enableModeOf(ctx: OperationContext, enable: boolean): EnableMode {
  return enable ? consentEnableMode(ctx) : 'no';
}

/** `yes` when the consent mode answers every question (--yes), else `ask` (the prompt, or none). */
export function consentEnableMode(ctx: OperationContext): 'yes' | 'ask' {
  return ctx.consent === 'yes' ? 'yes' : 'ask';
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
