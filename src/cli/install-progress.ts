import type { InstallProgress } from '../ops/plugin-context.js';
import { escapeControl } from './render.js';

/**
 * cli.md section 1: progress of downloads and bulk installs on stderr, only on a TTY: one line,
 * rewritten in place (at most every 80 ms) and cleared by `done`.
 */
export interface InstallProgressView {
  /** For PluginContext.onProgress; undefined when stderr is not a TTY. */
  onProgress: ((progress: InstallProgress) => void) | undefined;
  done: () => void;
}

export function installProgress(stream: NodeJS.WriteStream = process.stderr): InstallProgressView {
  if (stream.isTTY !== true) return { onProgress: undefined, done: () => undefined };
  let drawn = false;
  let last = 0;
  const onProgress = (p: InstallProgress): void => {
    const now = Date.now();
    const final = p.kind === 'staged' ? p.done === p.total : p.received === p.total;
    if (now - last < 80 && !final) return;
    last = now;
    const text =
      p.kind === 'staged'
        ? `staged ${p.done}/${p.total}: ${p.plugin}`
        : `downloading ${p.plugin}: ${size(p.received)}${p.total === null ? '' : ` / ${size(p.total)}`}`;
    stream.write(`\r\u001b[2K${escapeControl(text).slice(0, (stream.columns ?? 80) - 1)}`);
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
