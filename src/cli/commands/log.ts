import type { Command } from 'commander';
import { globalOptions, storePathsOf } from '../global-options.js';
import { printJson, printJsonLine, printLine } from '../render/render.js';

interface LogFlags {
  plugin?: string;
  event?: string;
  since?: string;
  follow?: boolean;
  all?: boolean;
}

/** `hookpm log` and `hookpm stats`: the decision log, read (docs/guides/decision-log.md). */
export function register(program: Command): void {
  program
    .command('log')
    .helpGroup('Inspect')
    .description(
      'show the decision log: each dispatch that ran handlers, with their times and exit codes',
    )
    .option('--all', 'also the dispatches that matched no handler')
    .option('--plugin <plugin>', 'only dispatches that ran a handler of this plugin (name or id)')
    .option('--event <event>', 'only dispatches of this event')
    .option('--since <time>', 'only dispatches since an ISO date or time, or an age (30m, 2h, 7d)')
    .option('--follow', 'keep printing dispatches as they are logged (Ctrl+C ends)')
    .addHelpText(
      'after',
      [
        '',
        'The log is <data>/log/dispatch.jsonl (and dispatch.1.jsonl, the generation before it).',
        'Every dispatch is logged; one that matched no handler is shown with --all only.',
        'With --follow --json each dispatch is printed as one JSON line.',
        '',
        'Example:',
        '  $ hookpm log --plugin guard --since 1h',
        '  $ hookpm log --follow --event PreToolUse',
        '',
      ].join('\n'),
    )
    .action(async (flags: LogFlags, command: Command) => {
      const globals = globalOptions(command);
      const paths = storePathsOf(globals);
      const { readLog, parseSince } = await import('../../ops/steps/decision-log/read-log.js');
      const { formatLogEntry } = await import('../render/render-log.js');
      const filter = {
        ...(flags.plugin === undefined ? {} : { plugin: flags.plugin }),
        ...(flags.event === undefined ? {} : { event: flags.event }),
        ...(flags.since === undefined ? {} : { since: parseSince(flags.since, Date.now()) }),
        ...(flags.all === true ? { all: true } : {}),
      };
      if (flags.follow === true) {
        const { followLog } = await import('../../ops/log/follow-log.js');
        const controller = new AbortController();
        for (const signal of ['SIGINT', 'SIGTERM'] as const)
          process.once(signal, () => controller.abort());
        await followLog(
          paths,
          filter,
          (entry) => (globals.json ? printJsonLine(entry) : printLine(formatLogEntry(entry))),
          controller.signal,
        );
        return;
      }
      const read = readLog(paths, filter);
      if (globals.json) return printJson(read);
      for (const entry of read.entries) printLine(formatLogEntry(entry));
      if (read.entries.length === 0) printLine('no dispatch logged matches');
      if (read.damaged > 0) printLine(`(${read.damaged} damaged line(s) skipped)`);
    });

  program
    .command('stats')
    .helpGroup('Inspect')
    .description(
      'per plugin and per handler: runs, p50/p95/max time, timeouts, failures, decisions',
    )
    .option('--since <time>', 'only dispatches since an ISO date or time, or an age (30m, 2h, 7d)')
    .addHelpText(
      'after',
      '\nSlowest first (by p95). Read from the decision log (`hookpm log`); dispatches that matched no handler are not counted.\n\nExample:\n  $ hookpm stats --since 7d --json\n',
    )
    .action(async (flags: { since?: string }, command: Command) => {
      const globals = globalOptions(command);
      const { readLog, parseSince } = await import('../../ops/steps/decision-log/read-log.js');
      const { computeStats } = await import('../../ops/steps/decision-log/hook-stats.js');
      const since = flags.since === undefined ? undefined : parseSince(flags.since, Date.now());
      const read = readLog(storePathsOf(globals), since === undefined ? {} : { since });
      const stats = computeStats(read.entries);
      if (globals.json)
        return printJson({
          since: since === undefined ? null : new Date(since).toISOString(),
          ...stats,
          damaged: read.damaged,
        });
      const { formatStats } = await import('../render/render-log.js');
      printLine(formatStats(stats));
      if (read.damaged > 0) printLine(`(${read.damaged} damaged line(s) skipped)`);
    });
}
