import { readFileSync } from 'node:fs';

/**
 * STYLE "Start-up cost": `hookpm list [--json] [--home dir]` with a hookpm home (HOOKPM_HOME or
 * --home) answers without loading commander, zod or env-paths (measured by
 * bench/cli-startup.bench.mjs; `--version` is answered by bin/hookpm.js itself). Any other command
 * line, or `list` with an option this parser does not know, returns false and goes through the full
 * CLI (src/cli/main.ts), which gives the same output.
 */
export async function runFastPath(argv: readonly string[]): Promise<boolean> {
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${readVersion()}\n`);
    return true;
  }
  if (args[0] === 'search') {
    const { runFastSearch } = await import('./fast-search.js');
    if (await runFastSearch(args)) return true;
  }
  const list = parseList(args);
  if (list === null) return false;
  const home = list.home ?? process.env.HOOKPM_HOME;
  if (home === undefined || home === '') return false;
  try {
    const [{ homeStorePaths }, { listPlugins }, render] = await Promise.all([
      import('../store/home-paths.js'),
      import('../ops/list.js'),
      import('./render-list.js'),
    ]);
    const result = await listPlugins(homeStorePaths(home));
    render.printPluginList(result, list.json);
  } catch (error) {
    const { reportError } = await import('./report-error.js');
    process.exitCode = reportError(error, { json: list.json });
  }
  return true;
}

/** The version of package.json (the one `hookpm --version` prints on every path). */
export function readVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

/** `list` with only the global options that do not change its output (cli.md section 1). */
function parseList(args: readonly string[]): { json: boolean; home?: string } | null {
  let json = false;
  let home: string | undefined;
  let command = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (arg === 'list' && !command) command = true;
    else if (arg === '--json') json = true;
    else if (arg === '--yes' || arg === '-y' || arg === '--offline') continue;
    else if ((arg === '--home' || arg === '--cwd') && i + 1 < args.length) {
      const value = args[++i] as string;
      if (arg === '--home') home = value;
    } else if (arg.startsWith('--home=')) home = arg.slice('--home='.length);
    else if (arg.startsWith('--cwd=')) continue;
    else return null;
  }
  return command ? { json, ...(home === undefined ? {} : { home }) } : null;
}
