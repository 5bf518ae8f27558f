import type { Command } from 'commander';
import { resolve } from 'node:path';
import { globalOptions } from '../global-options.js';
import { escapeControl, printJson, printLine } from '../render/render.js';
import { clip } from '../../text/clip.js';

type Verb = 'trust' | 'untrust';

/** `hookpm trust [dir]` and `hookpm untrust [dir]`: the workspace trust store (engine.md T1-T3). */
export function register(program: Command): void {
  program
    .command('trust [dir]')
    .helpGroup('Install and manage')
    .description(
      'trust a workspace: its .deepagents/hooks.json loads in interactive use without asking',
    )
    .addHelpText('after', '\nExample:\n  $ hookpm trust ./my-project\n')
    .action((dir: string | undefined, _options: unknown, command: Command) =>
      run('trust', dir, command),
    );
  program
    .command('untrust [dir]')
    .helpGroup('Install and manage')
    .description('forget the trust of a workspace: its project hooks are asked about again')
    .addHelpText('after', '\nExample:\n  $ hookpm untrust ./my-project --json\n')
    .action((dir: string | undefined, _options: unknown, command: Command) =>
      run('untrust', dir, command),
    );
}

async function run(verb: Verb, dir: string | undefined, command: Command): Promise<void> {
  const globals = globalOptions(command);
  const target = dir === undefined ? globals.cwd : resolve(globals.cwd, dir);
  const { grantTrust, revokeTrust } = await import('../../workspace/trust-store.js');
  const change =
    verb === 'trust'
      ? await grantTrust(globals.userHome, target)
      : await revokeTrust(globals.userHome, target);
  if (globals.json)
    return printJson({ root: change.root, trusted: change.trusted, changed: change.changed });
  const root = escapeControl(change.root);
  if (verb === 'trust') {
    // `trusted_at` is any string the store holds (another tool writes it too): escaped and cut.
    const since = escapeControl(clip(change.trustedAt ?? 'unknown'));
    printLine(change.changed ? `trusted ${root}` : `${root} was already trusted (since ${since})`);
  } else {
    printLine(change.changed ? `untrusted ${root}` : `${root} was not trusted; nothing to do`);
  }
  printLine(`trust store: ${escapeControl(change.storeFile)}`);
}
