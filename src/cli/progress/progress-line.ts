import { escapeControl } from '../render/render.js';
import { truncateToWidth } from '../render/width.js';
import { isTerminal } from '../stdio.js';
import { setDrawnLine, unsetDrawnLine } from './drawn-line.js';

/**
 * docs/reference/rules/cli.md#conventions: one progress line on a TTY stream, rewritten in place
 * (`\r`, at most every 80 ms unless `final`), escaped and cut to the terminal width (with `…`);
 * `clear` erases it if drawn. A drawn line is the one `clearDrawnLine` (drawn-line.ts) erases.
 */
export interface ProgressLine {
  draw: (text: string, final: boolean) => void;
  clear: () => void;
}

export function createProgressLine(stream: NodeJS.WriteStream): ProgressLine {
  let drawn = false;
  let last = 0;
  const clear = (): void => {
    if (drawn) stream.write('\r\u001b[2K');
    drawn = false;
    unsetDrawnLine(clear);
  };
  return {
    draw: (text, final) => {
      const now = Date.now();
      if (now - last < 80 && !final) return;
      last = now;
      // Cut by display width (a wrapped line could not be erased by \r and one clear).
      const fitted = truncateToWidth(escapeControl(text), (stream.columns ?? 80) - 1);
      stream.write(`\r\u001b[2K${fitted}`);
      drawn = true;
      setDrawnLine(clear);
    },
    clear,
  };
}

/**
 * The progress line of a command: on `stream` (null when it is not a TTY), or else on stderr,
 * which is looked at only when there is something to draw (STYLE "Start-up cost": a command that
 * draws nothing never pays for process.stderr or the terminal check).
 */
export function progressLineFor(stream?: NodeJS.WriteStream): ProgressLine | null {
  if (stream !== undefined) return stream.isTTY === true ? createProgressLine(stream) : null;
  let line: ProgressLine | null | undefined;
  return {
    draw: (text, final) => {
      line ??= isTerminal(2) ? createProgressLine(process.stderr) : null;
      line?.draw(text, final);
    },
    clear: () => line?.clear(),
  };
}

/** A byte count for a person: `512 B`, `1.5 KiB`, `2.0 MiB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
