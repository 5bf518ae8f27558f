import { stat } from 'node:fs/promises';
import { compareCodeUnits } from '../../json/compare.js';
import { treeStatusOf, type TreeStatus } from '../../store/tree-status.js';
import { pluginDataDir } from '../../store/plugin-dirs.js';
import type { StorePaths } from '../../store/store-paths.js';
import type { PluginRecord, State } from '../../store/state/state-schema.js';
import { okCheck, problem, type DoctorCheck } from './check.js';
import { inProject, projectFlag, type DoctorProject } from './policy.js';
import { shellWord } from '../../text/shell-word.js';
import { restoreCommand } from '../../store/reinstall-command.js';
import { hasCurrentConsent } from '../../store/state/current-consent.js';
import { clip } from '../../text/clip.js';
import { firstOf } from '../../text/first-of.js';

/**
 * plugins.md Q4-Q6, V3: for every installed plugin (sorted by id), the user's, then those of
 * `project` (the project doctor runs in, whose plugins run there): its installed tree exists and
 * its files match the recorded fingerprint (else an error: `plugin_missing` / `plugin_tampered`,
 * fix `hookpm install --force <source>`, or `hookpm ci` for a project's plugin, which follows the
 * lock), the same for a pending update's tree; enabled without consent to its current surface (a
 * warning: its hooks do not run); an update waiting for consent (a warning); an enabled plugin's
 * data directory present (a warning). One ok check when all is well.
 */
export async function checkPlugins(
  paths: StorePaths,
  state: State,
  project: DoctorProject | null = null,
): Promise<DoctorCheck[]> {
  const sorted = (records: Record<string, PluginRecord>): PluginRecord[] =>
    Object.values(records).sort((a, b) => compareCodeUnits(a.id, b.id));
  const scoped = [
    ...sorted(state.plugins).map((record) => ({ record, root: null })),
    ...(project === null
      ? []
      : sorted(project.plugins).map((record) => ({ record, root: project.root }))),
  ];
  const perPlugin = await Promise.all(
    scoped.map(({ record, root }) => checkPlugin(paths, record, root)),
  );
  return perPlugin.flat();
}

async function checkPlugin(
  paths: StorePaths,
  record: PluginRecord,
  root: string | null,
): Promise<DoctorCheck[]> {
  const name = `plugin:${record.id}`;
  const where = inProject(root);
  const id = shellWord(record.id);
  const flag = projectFlag(root);
  const found: DoctorCheck[] = [];
  // plugins.md D15: a linked directory is read in place and held to no fingerprint.
  if (record.linked === true)
    return [
      okCheck(
        name,
        `${record.id} ${record.version}${where}: linked to ${clip(record.path)}, read in place`,
      ),
    ];
  const status = await treeStatusOf(paths, record);
  const tree = await treeCheck(name, record, status, 'installed', root);
  if (tree !== null) found.push(tree);
  if (status.status === 'created')
    found.push(writesIntoFolder(paths, name, record, status.created));
  const consented = hasCurrentConsent(record);
  if (record.enabled && !consented) {
    found.push(
      problem(
        name,
        'warning',
        `${record.id} ${record.version}${where} is enabled but not consented to its current hooks, so they do not run`,
        {
          code: 'consent_missing',
          fix: `\`hookpm review ${id}${flag}\` to see them, then \`hookpm enable ${id}${flag}\` to consent`,
        },
      ),
    );
  }
  if (record.pending !== null)
    found.push(...(await pendingChecks(paths, name, record, record.pending, root)));
  if (record.enabled && !(await isDirectory(pluginDataDir(paths, record.id)))) {
    found.push(
      problem(
        name,
        'warning',
        `${record.id} is enabled${where} but its data directory ${pluginDataDir(paths, record.id)} is missing`,
        {
          code: 'data_dir_missing',
          fix: `\`hookpm enable ${id}${flag}\` creates it again`,
        },
      ),
    );
  }
  if (found.length > 0) return found;
  const how = record.enabled ? 'enabled and consented' : 'installed, disabled';
  return [
    okCheck(
      name,
      `${record.id} ${record.version}${where}: ${how}; its files match their fingerprint`,
    ),
  ];
}

async function pendingChecks(
  paths: StorePaths,
  name: string,
  record: PluginRecord,
  pending: NonNullable<PluginRecord['pending']>,
  root: string | null,
): Promise<DoctorCheck[]> {
  const out: DoctorCheck[] = [];
  const status = await treeStatusOf(paths, { ...pending, name: record.name });
  const tree = await treeCheck(name, { ...record, ...pending }, status, 'pending update', root);
  const id = shellWord(record.id);
  const flag = projectFlag(root);
  if (tree !== null) out.push(tree);
  out.push(
    problem(
      name,
      'warning',
      `${record.id} ${pending.version} is installed${inProject(root)} and waits for consent to its changed hooks; ${record.version} stays active`,
      {
        code: 'update_pending',
        fix: `\`hookpm review ${id}${flag}\` to see the changes, then \`hookpm enable ${id}${flag}\` to consent`,
      },
    ),
  );
  return out;
}

async function treeCheck(
  name: string,
  target: Pick<PluginRecord, 'id' | 'version' | 'path' | 'source'>,
  tree: TreeStatus,
  what: string,
  root: string | null,
): Promise<DoctorCheck | null> {
  if (tree.status === 'match' || tree.status === 'created') return null;
  const fix = restoreCommand(target.source, root);
  const where = inProject(root);
  if (tree.status === 'missing') {
    return problem(
      name,
      'error',
      `the ${what} tree of ${target.id} ${target.version}${where} is missing (${clip(target.path)}); it is left out of every snapshot`,
      {
        code: 'plugin_missing',
        fix,
      },
    );
  }
  return problem(
    name,
    'error',
    `the ${what} files of ${target.id} ${target.version}${where} at ${clip(target.path)} were changed after install (${tree.problem ?? 'they no longer match the recorded fingerprint'}); it is left out of every snapshot with plugin_tampered`,
    {
      code: 'plugin_tampered',
      fix,
    },
  );
}

/**
 * files a plugin creates in its folder (docs/design/decisions.md#plugins-and-marketplaces): a
 * plugin that writes into its installed folder works, but what it writes there is lost when it is
 * updated or reinstalled (a new version is a new tree, D4): a warning naming what it wrote and
 * pointing at its data directory, CLAUDE_PLUGIN_DATA (plugins.md V3).
 */
function writesIntoFolder(
  paths: StorePaths,
  name: string,
  record: PluginRecord,
  created: readonly string[],
): DoctorCheck {
  const shown = firstOf(created, 3, ', ');
  return problem(
    name,
    'warning',
    `${record.id} ${record.version} writes into its installed folder ${clip(record.path)} (${shown}); hookpm allows it, but those files are lost when the plugin is updated or reinstalled`,
    {
      code: 'plugin_writes_folder',
      fix: `the plugin's author can keep them in $CLAUDE_PLUGIN_DATA (${pluginDataDir(paths, record.id)}), its data directory, which updates keep`,
    },
  );
}

async function isDirectory(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => null);
  return info !== null && info.isDirectory();
}
