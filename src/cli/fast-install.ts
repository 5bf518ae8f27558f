import { globalsOf, type FastLine } from './fast-line.js';
import { runInstall } from './install-action.js';

/**
 * STYLE "Start-up cost": `hookpm install <spec...>` from cli/fast-path.ts, without commander
 * (measured by bench/install.bench.mjs); runs what commands/install.ts runs.
 */
export async function runFastInstall(line: FastLine): Promise<void> {
  const { switches } = line;
  await runInstall(
    line.operands,
    {
      enable: !switches.has('--no-enable'),
      force: switches.has('--force'),
      dryRun: switches.has('--dry-run'),
      includePrerelease: switches.has('--include-prerelease'),
    },
    globalsOf(line),
  );
}
