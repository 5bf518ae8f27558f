import { Command, CommanderError } from 'commander';
import * as completion from './commands/completion.js';
import * as config from './commands/config.js';
import * as disableEnable from './commands/enable.js';
import * as doctor from './commands/doctor.js';
import * as hooks from './commands/hooks.js';
import * as install from './commands/install.js';
import * as ci from './commands/ci.js';
import * as outdated from './commands/outdated.js';
import * as info from './commands/info.js';
import * as init from './commands/init.js';
import * as link from './commands/link.js';
import * as list from './commands/list.js';
import * as log from './commands/log.js';
import * as pack from './commands/pack.js';
import * as policy from './commands/policy.js';
import * as registry from './commands/registry.js';
import * as registryPublish from './commands/registry-publish.js';
import * as reload from './commands/reload.js';
import * as review from './commands/review.js';
import * as rollback from './commands/rollback.js';
import * as run from './commands/run.js';
import * as search from './commands/search.js';
import * as session from './commands/session.js';
import * as test from './commands/test.js';
import * as trust from './commands/trust.js';
import * as uninstall from './commands/uninstall.js';
import * as update from './commands/update.js';
import * as validate from './commands/validate.js';
import * as wire from './commands/wire.js';
import { readVersion } from './start/version.js';
import { addGlobalOptions } from './global-options.js';
import { arrangeHelp } from './help-groups.js';
import { reportError } from './report-error.js';
import { usageErrorOf } from './commander-error.js';
import { writeText } from './stdio.js';

/** Every command, each in src/cli/commands/<name>.ts; add one line here per new command. */
const COMMANDS: ReadonlyArray<{ register(program: Command): void }> = [
  validate,
  hooks,
  install,
  ci,
  uninstall,
  update,
  rollback,
  disableEnable,
  list,
  trust,
  review,
  run,
  session,
  link,
  reload,
  wire,
  registry,
  // After `registry`: adds `registry build` and `registry serve` to the command it made.
  registryPublish,
  pack,
  init,
  test,
  search,
  info,
  log,
  outdated,
  doctor,
  policy,
  config,
  completion,
];

/** Commander outcomes that are not failures. */
const CLEAN_EXITS = new Set(['commander.helpDisplayed', 'commander.version']);

export function buildProgram(): Command {
  const program = new Command('hookpm')
    .description('A package manager and runtime for hook plugins (hooks.json)')
    .version(readVersion(), '-V, --version', 'print the version')
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    // Help and usage go through cli/stdio.ts, so a closed stdout ends quietly
    // (docs/reference/commands.md#terminals-and-pipes).
    .configureOutput({
      writeOut: (text) => writeText(1, text),
      writeErr: (text) => writeText(2, text),
      outputError: () => {},
    })
    .showSuggestionAfterError(true);
  addGlobalOptions(program);
  program.addHelpText(
    'after',
    '\nExample:\n  $ hookpm validate ./hooks/hooks.json\n  $ hookpm hooks --json\n',
  );
  for (const command of COMMANDS) command.register(program);
  arrangeHelp(program);
  return program;
}

/** Runs the CLI for `argv` (as process.argv) and sets the process exit code (docs/reference/rules/cli.md#conventions). */
export async function main(argv: readonly string[] = process.argv): Promise<void> {
  const json = argv.includes('--json');
  const program = buildProgram();
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError && CLEAN_EXITS.has(error.code)) {
      process.exitCode = 0;
    } else if (error instanceof CommanderError && error.code === 'commander.help') {
      // `hookpm help <command>` succeeds; help shown because a command is missing is a usage error.
      process.exitCode = error.exitCode === 0 ? 0 : 2;
    } else if (error instanceof CommanderError) {
      // A command line commander refused (docs/reference/rules/cli.md#conventions: E_USAGE, exit
      // 2).
      process.exitCode = reportError(usageErrorOf(error, program, argv.slice(2)), { json });
    } else {
      process.exitCode = reportError(error, { json });
    }
  }
}
