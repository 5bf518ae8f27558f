import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

/** A running child process whose stdout is collected line by line. */
export interface RunningChild {
  proc: ChildProcess;
  lines: string[];
  stderr: () => string;
  /** Resolves with the first line (seen or future) that satisfies `test`. */
  waitForLine: (test: (line: string) => boolean, timeoutMs?: number) => Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startChild(
  command: string,
  args: string[],
  env: Record<string, string>,
): RunningChild {
  const proc = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let partial = '';
  let err = '';
  proc.stdout?.setEncoding('utf8');
  proc.stdout?.on('data', (chunk: string) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
    for (const wake of waiters) wake();
  });
  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.on('close', (code, signal) => {
      if (partial !== '') lines.push(partial);
      partial = '';
      for (const wake of waiters) wake();
      resolve({ code, signal });
    });
  });
  let closed = false;
  void exited.then(() => (closed = true));
  const waitForLine = (test: (line: string) => boolean, timeoutMs = 10_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = lines.find(test);
        if (found === undefined) {
          if (closed) {
            finish();
            reject(
              new Error(
                `child exited without the expected line; stdout=${lines.join('|')} stderr=${err}`,
              ),
            );
            return true;
          }
          return false;
        }
        finish();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`timed out waiting for a line; stdout=${lines.join('|')} stderr=${err}`));
      }, timeoutMs);
      const wake = (): void => void check();
      const finish = (): void => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      waiters.add(wake);
      check();
    });
  return { proc, lines, stderr: () => err, waitForLine, exited };
}

/** Runs a child to its end and returns its stdout lines parsed as JSON where possible. */
export async function runChild(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<unknown[]> {
  const child = startChild(command, args, env);
  const { code } = await child.exited;
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}: ${child.stderr()}`);
  return child.lines
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return line;
      }
    });
}
