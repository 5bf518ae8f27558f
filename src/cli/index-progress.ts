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

export function indexProgress(stream: NodeJS.WriteStream = process.stderr): IndexProgress {
  if (stream.isTTY !== true) return { onProgress: undefined, done: () => undefined };
  let drawn = false;
  let last = 0;
  const onProgress = (registry: string, received: number, total: number | null): void => {
    const now = Date.now();
    if (now - last < 80 && received !== total) return;
    last = now;
    const amount = total === null ? size(received) : `${size(received)} / ${size(total)}`;
    stream.write(`\r\u001b[2Kfetching the index of ${registry}: ${amount}`);
    drawn = true;
  };
  const done = (): void => {
    if (drawn) stream.write('\r\u001b[2K');
    drawn = false;
  };
  return { onProgress, done };
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
