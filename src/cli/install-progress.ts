import type { InstallProgress } from '../ops/plugin-context.js';
import { createProgressLine, formatSize } from './progress-line.js';

/**
 * cli.md section 1: progress of downloads and bulk installs on stderr, only on a TTY: one line,
 * rewritten in place (at most every 80 ms) and cleared by `done`.
 */
export interface InstallProgressView {
  /** For PluginContext.onProgress; undefined when stderr is not a TTY. */
  onProgress: ((progress: InstallProgress) => void) | undefined;
  done: () => void;
}

export function createInstallProgress(stream: NodeJS.WriteStream = process.stderr): InstallProgressView {
  if (stream.isTTY !== true) return { onProgress: undefined, done: () => undefined };
  const line = createProgressLine(stream);
  const onProgress = (p: InstallProgress): void => {
    if (p.kind === 'staged') {
      line.draw(`staged ${p.done}/${p.total}: ${p.plugin}`, p.done === p.total);
      return;
    }
    const total = p.total === null ? '' : ` / ${formatSize(p.total)}`;
    line.draw(`downloading ${p.plugin}: ${formatSize(p.received)}${total}`, p.received === p.total);
  };
  return { onProgress, done: line.clear };
}
