/**
 * The options of the command lines that the fast paths (cli/start/fast-path.ts) answer, as
 * commander flag strings: the one definition both grammars come from. commands/install.ts,
 * commands/search.ts and global-options.ts register exactly these with commander, and
 * cli/start/fast-line.ts derives its parser from them (`-y, --yes` is `-y` or `--yes`; `<dir>`
 * takes a value; `--no-x` is a switch), so the two cannot drift apart.
 */
export interface OptionDefinition {
  flags: string;
  description: string;
}

/** docs/reference/rules/cli.md#conventions: the global options, valid anywhere on the line. */
export const GLOBAL_OPTIONS: readonly OptionDefinition[] = [
  { flags: '--home <dir>', description: 'hookpm home directory (same as HOOKPM_HOME)' },
  { flags: '--json', description: 'print exactly one JSON document on stdout' },
  { flags: '-y, --yes', description: 'answer yes to every question (needed without a TTY)' },
  { flags: '--offline', description: 'use only cached registry data' },
  { flags: '--cwd <dir>', description: 'working directory to act on' },
];

/** docs/reference/rules/cli.md#commands: `hookpm install <spec...>`. */
export const INSTALL_OPTIONS: readonly OptionDefinition[] = [
  { flags: '--no-enable', description: 'install without enabling (no question asked)' },
  {
    flags: '--force',
    description:
      'reinstall even when the same version and files are installed (restores a changed tree)',
  },
  {
    flags: '--dry-run',
    description: 'show the plan (versions, surface diff, files); change nothing',
  },
  { flags: '--include-prerelease', description: 'let ranges match prerelease versions' },
  {
    flags: '--force-integrity-change',
    description:
      'install a version although the registry now serves other bytes for it than it was installed with',
  },
  {
    flags: '-P, --project',
    description:
      "record the plugins in the project's hookpm.json and hookpm.lock and enable them for this project only (no spec: install what hookpm.json lists)",
  },
  {
    flags: '--link',
    description:
      'read one plugin directory in place, as npm link does: edits need no version bump; changed hooks need your consent again',
  },
];

/** docs/reference/rules/cli.md#commands, #json-shapes: `hookpm search [query...]`. */
export const SEARCH_OPTIONS: readonly OptionDefinition[] = [
  {
    flags: '--event <event>',
    description: 'only plugins whose latest version hooks this event (e.g. PreToolUse)',
  },
];

/** `hookpm list [--long] [--project]`. */
export const LIST_OPTIONS: readonly OptionDefinition[] = [
  {
    flags: '-l, --long',
    description: "also show each plugin's source, integrity, install and update times",
  },
  {
    flags: '--verify',
    description: "check every plugin's installed files now (else: as last checked)",
  },
  {
    flags: '-P, --project',
    description:
      "the project's plugins: what hookpm.json wants, hookpm.lock pins, and what is installed",
  },
];

/**
 * `hookpm wire <agent>`: the agent's deadline for the handler, which `hookpm link` writes on the
 * handler's command line (agents/link-command.ts).
 */
export const WIRE_OPTIONS: readonly OptionDefinition[] = [
  {
    flags: '--deadline <s>',
    description:
      "the agent's deadline for this handler, in seconds (default 600): hookpm answers before it",
  },
  {
    flags: '--background',
    description:
      "run the plugins' background (async) handlers of the event: the entry Claude Code runs in the background",
  },
];
