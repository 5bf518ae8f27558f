import type { FastLine } from './fast-line.js';
import { resolveGlobals } from './global-options.js';
import { runInstall } from './install-action.js';

/**
 * STYLE "Start-up cost": `hookpm install <spec...>` from cli/fast-path.ts, without commander
 * (measured by bench/install.bench.mjs); runs what commands/install.ts runs.
 */
export async function runFastInstall(line: FastLine): Promise<void> {
  const { switches, values } = line;
  const globals = resolveGlobals({
    home: values.get('--home'),
    cwd: values.get('--cwd'),
    json: switches.has('--json'),
    yes: switches.has('--yes'),
    offline: switches.has('--offline'),
  });
  await runInstall(
    line.operands,
    {
      enable: !switches.has('--no-enable'),
      force: switches.has('--force'),
      dryRun: switches.has('--dry-run'),
      includePrerelease: switches.has('--include-prerelease'),
    },
    globals,
  );
}
