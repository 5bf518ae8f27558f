import type { Command } from 'commander';
import { globalOptions, storePathsOf, type GlobalOptions } from '../global-options.js';
import { LIST_OPTIONS } from '../grammar.js';
import { ALIASES } from '../help-groups.js';
import { writeBytes } from '../stdio.js';
import type { ProjectListEntry } from '../../ops/project/manage-project.js';

/** `hookpm list`'s own options (grammar.ts LIST_OPTIONS). */
export interface ListFlags {
  long?: boolean;
  /** The project's plugins (docs/guides/projects.md). */
  project?: boolean;
  /** Check every tree now (registry.md S32). */
  verify?: boolean;
}

/** `hookpm list` (docs/reference/rules/cli.md#json-shapes). The common forms are answered by cli/start/fast-path.ts first. */
export function register(program: Command): void {
  const list = program
    .command('list')
    .aliases(ALIASES.list)
    .helpGroup('Install and manage')
    .description('list installed plugins')
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm list --long\n  $ hookpm list --json\n  $ hookpm list --verify\n  $ hookpm list --project\n',
    );
  for (const { flags, description } of LIST_OPTIONS) list.option(flags, description);
  list.action((flags: ListFlags, command: Command) => runList(globalOptions(command), flags));
}

/** `hookpm list`, from commander or from the fast path (`--project`: the project's plugins). */
export async function runList(globals: GlobalOptions, flags: ListFlags = {}): Promise<void> {
  if (flags.project === true) return runProjectList(globals);
  const [{ listPlugins }, { printPluginList }] = await Promise.all([
    import('../../ops/plugins/list.js'),
    import('../render/render-list.js'),
  ]);
  const verify = flags.verify === true;
  if (globals.json && !verify) return runListJson(globals);
  printPluginList(await listPlugins(storePathsOf(globals), globals.cwd, { verify }), {
    json: globals.json,
    long: flags.long === true,
    verify,
  });
}

/**
 * `hookpm list --json`: the document kept for the state and tree verdicts as they are
 * (registry.md S33), else the one made from them (from the kept rows of unchanged entries when
 * hookpm sealed the state), kept for the next.
 */
async function runListJson(globals: GlobalOptions): Promise<void> {
  const paths = storePathsOf(globals);
  const cache = await import('../../ops/plugins/list-cache.js');
  const key = cache.listKey(paths);
  const out = (bytes: Buffer): void => writeBytes(1, bytes);
  if (key !== null && cache.writeKeptDocument(paths, key, out)) return;
  if (key !== null) {
    const [rows, { LIST_JSON_SHAPE }] = await Promise.all([
      import('../../ops/plugins/list-rows.js'),
      import('../render/list-json.js'),
    ]);
    const renewed = rows.renewListDocument(paths, key, LIST_JSON_SHAPE);
    if (renewed !== null) return rows.keepAndWrite(paths, key, renewed, out);
  }
  const [{ listPlugins }, { listJsonText }] = await Promise.all([
    import('../../ops/plugins/list.js'),
    import('../render/list-json.js'),
  ]);
  // The document holds the user-wide plugins only (cli.md#json-shapes), whatever the directory.
  const document = Buffer.from(listJsonText((await listPlugins(paths)).plugins));
  writeBytes(1, document);
  if (key !== null && key.settled)
    cache.keepListFile(paths, key, key.identity, [document], null, null);
}

/**
 * The STATUS of a project plugin: whether it runs here, and, as `npm ls` marks a package that is
 * not the locked one, when the version installed is not the one hookpm.lock pins (a teammate's
 * lock pulled since): `hookpm install` brings it in line.
 */
function projectStatus(p: ProjectListEntry): string {
  if (p.installed === null) return 'not installed (run hookpm ci)';
  const state = p.active ? 'active' : 'not enabled';
  if (p.locked === null || p.locked === p.installed) return state;
  return `${state}, not the locked version (run hookpm install)`;
}

/** `hookpm list --project` (docs/guides/projects.md). */
async function runProjectList(globals: GlobalOptions): Promise<void> {
  const [{ listProjectPlugins }, { createOperationContext }, render] = await Promise.all([
    import('../../ops/project/manage-project.js'),
    import('../operation-context.js'),
    import('../render/render.js'),
  ]);
  const list = await listProjectPlugins(createOperationContext(globals).ctx, globals.cwd);
  if (globals.json) return render.printJson(list);
  if (list.plugins.length === 0) {
    render.printLine(render.escapeControl(`no project plugins in ${list.project}`));
    return;
  }
  const rows = list.plugins.map((p) => [
    p.id,
    p.wanted ?? '-',
    p.locked ?? '-',
    p.installed ?? '-',
    projectStatus(p),
  ]);
  render.printLine(render.renderTable(['PLUGIN', 'WANTED', 'LOCKED', 'INSTALLED', 'STATUS'], rows));
}
