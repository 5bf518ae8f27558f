import type { Command } from 'commander';
import type { PluginInfo } from '../../ops/plugins/plugin-info.js';
import { bold, colourEnabled } from '../render/colour.js';
import { globalOptions } from '../global-options.js';
import { printRegistryNotes } from '../registry-options.js';
import { createOperationContext } from '../operation-context.js';
import { escapeControl, printJson, printLine, renderTable } from '../render/render.js';
import { withFlagNames } from '../render/json-field-names.js';
import { wrapText } from '../render/wrap.js';
import { terminalWidth } from '../stdio.js';
import { ALIASES } from '../help-groups.js';
import { clip, FIELD_MAX } from '../../text/clip.js';

/** `hookpm info <name|name@registry>` (docs/reference/rules/cli.md#commands, #json-shapes). */
export function register(program: Command): void {
  program
    .command('info <plugin>')
    .aliases(ALIASES.info)
    .helpGroup('Inspect')
    .description('registry and installed details of a plugin: versions, dist-tags, events')
    .option('-P, --project', "the project's installed plugin (and hookpm.json's registries)")
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm info guard\n  $ hookpm info guard@examples --json\n',
    )
    .action(async (spec: string, flags: { project?: boolean }, command: Command) => {
      const globals = globalOptions(command);
      const { ctx, done } = createOperationContext(globals, 'index');
      const ops = await import('../../ops/plugins/info.js');
      const info = await (
        flags.project === true
          ? ops.describeProjectPlugin(ctx, spec, globals.cwd)
          : ops.describePlugin(ctx, spec)
      ).finally(done);
      printRegistryNotes(info);
      if (globals.json) return printJson(withFlagNames(info));
      printInfo(info);
    });
}

function printInfo(info: PluginInfo): void {
  const latest = info.latest;
  printLine(bold(escapeControl(`${info.id} ${latest?.version ?? ''}`.trim()), colourEnabled()));
  if (info.description !== null) {
    const text = escapeControl(clip(info.description, FIELD_MAX));
    printLine(wrapText(`  ${text}`, terminalWidth(1), 2).join('\n'));
  }
  const tags = Object.entries(info.distTags).map(([tag, v]) => `${tag}: ${v}`);
  const rows: string[][] = [
    [
      'registry',
      info.registryInfo === null
        ? `${info.registry} (installed only)`
        : `${info.registryInfo.name} (${info.registryInfo.kind}, ${info.registryInfo.location})`,
    ],
    [
      'versions',
      info.versions
        .map((v) => (info.deprecated[v] === undefined ? v : `${v} (deprecated)`))
        .join(', '),
    ],
    ['dist-tags', tags.join(', ') || '-'],
  ];
  if (info.keywords.length > 0) rows.push(['keywords', info.keywords.join(', ')]);
  if (latest !== null) {
    rows.push(['events', latest.events.join(', ') || '-'], ['integrity', latest.integrity]);
    rows.push(['surface', latest.surfaceHash ?? '-']);
    if (latest.tarball !== null) rows.push(['tarball', latest.tarball]);
    if (latest.deprecated !== null) rows.push(['deprecated', latest.deprecated]);
  }
  rows.push(['installed', installedLine(info)]);
  if (info.installed !== null) {
    rows.push(['installed at', info.installed.installedAt]);
    if (info.installed.updatedAt !== info.installed.installedAt)
      rows.push(['updated at', info.installed.updatedAt]);
  }
  const shown = rows.map(([name, value]) => [name ?? '', clip(value ?? '', FIELD_MAX)]);
  printLine(renderTable(['', ''], shown, { last: 'wrap' }).split('\n').slice(1).join('\n'));
}

function installedLine(info: PluginInfo): string {
  const i = info.installed;
  if (i === null) return 'no';
  const state = i.enabled ? (i.consented ? 'enabled' : 'enabled, waiting for consent') : 'disabled';
  const pending = i.pendingVersion === null ? '' : `; update ${i.pendingVersion} waits for consent`;
  return `${i.version}, ${state}${pending}`;
}
