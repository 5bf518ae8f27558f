import type { InstallProgress } from '../../ops/steps/context/operation-context.js';
import { formatSize, progressLineFor } from './progress-line.js';

/**
 * docs/reference/rules/cli.md#conventions: download progress on stderr, only on a TTY. One line per
 * registry index, rewritten in place (`\r`) and cleared when the command ends.
 */
export interface IndexProgress {
  /** For OperationContext.onProgress (draws `index` progress); undefined off a TTY. */
  onProgress: ((progress: InstallProgress) => void) | undefined;
  /** Clears the progress line, if one was drawn. */
  done: () => void;
}

/** On `stream`, or else on stderr, looked at only when there is something to draw. */
export function createIndexProgress(stream?: NodeJS.WriteStream): IndexProgress {
  const line = progressLineFor(stream);
  if (line === null) return { onProgress: undefined, done: () => undefined };
  const onProgress = (progress: InstallProgress): void => {
    if (progress.kind !== 'index') return;
    const { registry, received, total } = progress;
    const amount =
      total === null ? formatSize(received) : `${formatSize(received)} / ${formatSize(total)}`;
    line.draw(`fetching the index of ${registry}: ${amount}`, received === total);
  };
  return { onProgress, done: line.clear };
}
