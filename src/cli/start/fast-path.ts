import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { globalsOf, parseFastLine, type FastLine } from './fast-line.js';
import { writeText } from './stdio.js';

/**
 * STYLE "Start-up cost": the most common command lines answer without loading commander and every
 * command: `list`, `search` (cli/fast-search.ts) and `install` (cli/fast-install.ts), each with
 * only the options cli/fast-line.ts reads (the global ones resolved as commander's are), plus
 * `--version` when the bundle is not used (src/cli/start.ts answers it first). They print what the
 * full CLI (src/cli/main.ts) prints, through the same renderers; any other line returns false and
 * goes there. Measured by bench/cli-startup.bench.mjs, bench/search.bench.mjs and
 * bench/install.bench.mjs.
 */
export async function runFastPath(argv: readonly string[]): Promise<boolean> {
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    writeText(1, `${readVersion()}\n`);
    return true;
  }
  const run = fastCommand(args);
  if (run === null) return false;
  const [line, handler] = run;
  try {
    await handler(line);
  } catch (error) {
    const { reportError } = await import('./report-error.js');
    process.exitCode = reportError(error, { json: line.switches.has('--json') });
  }
  return true;
}

/** The version of package.json (the one `hookpm --version` prints on every path). */
export function readVersion(): string {
  const text = readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

type Handler = (line: FastLine) => Promise<void>;

function fastCommand(args: readonly string[]): [FastLine, Handler] | null {
  const search = parseFastLine(args, 'search', { values: ['--event'], operands: true });
  if (search !== null)
    return [search, async (line) => (await import('./fast-search.js')).runFastSearch(line)];
  const install = parseFastLine(args, 'install', {
    switches: ['--no-enable', '--force', '--dry-run', '--include-prerelease'],
    operands: true,
  });
  if (install !== null && install.operands.length > 0)
    return [install, async (line) => (await import('./fast-install.js')).runFastInstall(line)];
  const list = parseFastLine(args, 'list');
  if (list !== null) return [list, runList];
  return null;
}

async function runList(line: FastLine): Promise<void> {
  const [{ storePathsOf }, { listPlugins }, render] = await Promise.all([
    import('./plugin-context.js'),
    import('../ops/plugins/list.js'),
    import('./render/render-list.js'),
  ]);
  const globals = globalsOf(line);
  render.printPluginList(await listPlugins(storePathsOf(globals)), globals.json);
}
