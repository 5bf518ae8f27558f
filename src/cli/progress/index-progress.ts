import { formatSize, progressLineFor } from './progress-line.js';

/**
 * docs/reference/rules/cli.md#conventions: download progress on stderr, only on a TTY. One line per registry index,
 * rewritten in place (`\r`) and cleared when the command ends.
 */
export interface IndexProgress {
  /** For RegistryContext.onProgress; undefined when the given stream is not a TTY. */
  onProgress: ((registry: string, received: number, total: number | null) => void) | undefined;
  /** Clears the progress line, if one was drawn. */
  done: () => void;
}

/** On `stream`, or else on stderr, looked at only when there is something to draw. */
export function createIndexProgress(stream?: NodeJS.WriteStream): IndexProgress {
  const line = progressLineFor(stream);
  if (line === null) return { onProgress: undefined, done: () => undefined };
  const onProgress = (registry: string, received: number, total: number | null): void => {
    const amount =
      total === null ? formatSize(received) : `${formatSize(received)} / ${formatSize(total)}`;
    line.draw(`fetching the index of ${registry}: ${amount}`, received === total);
  };
  return { onProgress, done: line.clear };
}
