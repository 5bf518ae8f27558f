import type { InstallProgress } from '../../ops/steps/context/operation-context.js';
import { formatSize, progressLineFor } from './progress-line.js';

/**
 * docs/reference/rules/cli.md#conventions: progress of downloads and bulk installs on stderr, only
 * on a TTY: one line, rewritten in place (at most every 80 ms) and cleared by `done`. A single
 * plugin staged is not a bulk install, so it draws nothing.
 */
export interface InstallProgressView {
  /** For OperationContext.onProgress; undefined when the given stream is not a TTY. */
  onProgress: ((progress: InstallProgress) => void) | undefined;
  done: () => void;
}

/**
 * On `stream`, or else on stderr, which is looked at only when there is something to draw (STYLE
 * "Start-up cost": a single install from the cache draws nothing and never pays for it).
 */
export function createInstallProgress(stream?: NodeJS.WriteStream): InstallProgressView {
  const line = progressLineFor(stream);
  if (line === null) return { onProgress: undefined, done: () => undefined };
  const onProgress = (p: InstallProgress): void => {
    if (p.kind === 'staged') {
      if (p.total > 1) line.draw(`staged ${p.done}/${p.total}: ${p.plugin}`, p.done === p.total);
      return;
    }
    const total = p.total === null ? '' : ` / ${formatSize(p.total)}`;
    const what = p.kind === 'index' ? `the index of ${p.registry}` : p.plugin;
    line.draw(`downloading ${what}: ${formatSize(p.received)}${total}`, p.received === p.total);
  };
  return { onProgress, done: line.clear };
}
