import { createProgressLine, formatSize } from './progress-line.js';

/**
 * cli.md section 1: download progress on stderr, only on a TTY. One line per registry index,
 * rewritten in place (`\r`) and cleared when the command ends.
 */
export interface IndexProgress {
  /** For RegistryContext.onProgress; undefined when stderr is not a TTY. */
  onProgress: ((registry: string, received: number, total: number | null) => void) | undefined;
  /** Clears the progress line, if one was drawn. */
  done: () => void;
}

export function createIndexProgress(stream: NodeJS.WriteStream = process.stderr): IndexProgress {
  if (stream.isTTY !== true) return { onProgress: undefined, done: () => undefined };
  const line = createProgressLine(stream);
  const onProgress = (registry: string, received: number, total: number | null): void => {
    const amount =
      total === null ? formatSize(received) : `${formatSize(received)} / ${formatSize(total)}`;
    line.draw(`fetching the index of ${registry}: ${amount}`, received === total);
  };
  return { onProgress, done: line.clear };
}
