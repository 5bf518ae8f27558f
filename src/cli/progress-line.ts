import { escapeControl } from './render.js';

/**
 * cli.md section 1: one progress line on a TTY stream, rewritten in place (`\r`, at most every
 * 80 ms unless `final`), escaped and cut to the terminal width; `clear` erases it if drawn.
 */
export interface ProgressLine {
  draw: (text: string, final: boolean) => void;
  clear: () => void;
}

export function createProgressLine(stream: NodeJS.WriteStream): ProgressLine {
  let drawn = false;
  let last = 0;
  return {
    draw: (text, final) => {
      const now = Date.now();
      if (now - last < 80 && !final) return;
      last = now;
      stream.write(`\r\u001b[2K${escapeControl(text).slice(0, (stream.columns ?? 80) - 1)}`);
      drawn = true;
    },
    clear: () => {
      if (drawn) stream.write('\r\u001b[2K');
      drawn = false;
    },
  };
}

/** A byte count for a person: `512 B`, `1.5 KiB`, `2.0 MiB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
