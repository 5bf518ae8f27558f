import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The built binary, `bin/hookpm.js` (it runs dist/). */
export const BIN = join(ROOT, 'bin', 'hookpm.js');
const MAIN = join(ROOT, 'dist', 'cli', 'main.js');

function newest(dir: string): number {
  return Math.max(
    0,
    ...readdirSync(dir).map((name) => {
      const entry = statSync(join(dir, name));
      return entry.isDirectory() ? newest(join(dir, name)) : entry.mtimeMs;
    }),
  );
}

/**
 * Builds dist/ when it is missing or older than a source file (`npm test` builds first anyway), as
 * `npm run build` does: tsc, then the CLI bundle that bin/hookpm.js runs (test/tools/bundle-cli.mjs).
 */
export function ensureBuilt(): void {
  if (existsSync(MAIN) && statSync(MAIN).mtimeMs >= newest(join(ROOT, 'src'))) return;
  spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
    { cwd: ROOT, stdio: 'ignore' },
  );
  spawnSync(process.execPath, [join(ROOT, 'test', 'tools', 'bundle-cli.mjs')], {
    cwd: ROOT,
    stdio: 'ignore',
  });
}

export interface BinRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `node bin/hookpm.js ...args` to its end, writing `stdin` (if any) and closing it. */
export function runBin(
  args: string[],
  opts: { env: Record<string, string>; cwd: string; stdin?: string | Buffer },
): Promise<BinRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, env: opts.env });
    let stdout = '';
    let stderr = '';
    child.on('error', reject);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.on('error', () => {});
    child.stdin.end(opts.stdin ?? '');
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started }),
    );
  });
}
