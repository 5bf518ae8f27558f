import { stat } from 'node:fs/promises';
import { compareCodeUnits } from '../../json/compare.js';
import { treeStatusOf, type TreeStatus } from '../../store/tree-status.js';
import { pluginDataDir } from '../../store/plugin-dirs.js';
import type { StorePaths } from '../../store/store-paths.js';
import type { PluginRecord, State } from '../../store/state/state-schema.js';
import { okCheck, problem, type DoctorCheck } from './check.js';
import { shellWord } from '../../text/shell-word.js';
import { reinstallCommand } from '../../store/reinstall-command.js';
import { hasCurrentConsent } from '../../store/state/current-consent.js';
import { clip } from '../../text/clip.js';
import { firstOf } from '../../text/first-of.js';

/**
 * plugins.md Q4-Q6, V3: for every installed plugin (sorted by id): its installed tree exists and its
 * files match the recorded fingerprint (else an error: `plugin_missing` / `plugin_tampered`, fix
 * `hookpm install --force <source>`), the same for a pending update's tree; enabled without consent
 * to its current surface (a warning: its hooks do not run); an update waiting for consent (a
 * warning); an enabled plugin's data directory present (a warning). One ok check when all is well.
 */
export async function checkPlugins(paths: StorePaths, state: State): Promise<DoctorCheck[]> {
  const records = Object.values(state.plugins).sort((a, b) => compareCodeUnits(a.id, b.id));
  const perPlugin = await Promise.all(records.map((record) => checkPlugin(paths, record)));
  return perPlugin.flat();
}

async function checkPlugin(paths: StorePaths, record: PluginRecord): Promise<DoctorCheck[]> {
  const name = `plugin:${record.id}`;
  const found: DoctorCheck[] = [];
  // plugins.md D15: a linked directory is read in place and held to no fingerprint.
  if (record.linked === true)
    return [
      okCheck(
        name,
        `${record.id} ${record.version}: linked to ${clip(record.path)}, read in place`,
      ),
    ];
  const status = await treeStatusOf(paths, record);
  const tree = await treeCheck(name, record, status, 'installed');
  if (tree !== null) found.push(tree);
  if (status.status === 'created')
    found.push(writesIntoFolder(paths, name, record, status.created));
  const consented = hasCurrentConsent(record);
  if (record.enabled && !consented) {
    found.push(
      problem(
        name,
        'warning',
        `${record.id} ${record.version} is enabled but not consented to its current hooks, so they do not run`,
        {
          code: 'consent_missing',
          fix: `\`hookpm review ${shellWord(record.id)}\` to see them, then \`hookpm enable ${shellWord(record.id)}\` to consent`,
        },
      ),
    );
  }
  if (record.pending !== null)
    found.push(...(await pendingChecks(paths, name, record, record.pending)));
  if (record.enabled && !(await isDirectory(pluginDataDir(paths, record.id)))) {
    found.push(
      problem(
        name,
        'warning',
        `${record.id} is enabled but its data directory ${pluginDataDir(paths, record.id)} is missing`,
        {
          code: 'data_dir_missing',
          fix: `\`hookpm enable ${shellWord(record.id)}\` creates it again`,
        },
      ),
    );
  }
  if (found.length > 0) return found;
  const how = record.enabled ? 'enabled and consented' : 'installed, disabled';
  return [
    okCheck(name, `${record.id} ${record.version}: ${how}; its files match their fingerprint`),
  ];
}

async function pendingChecks(
  paths: StorePaths,
  name: string,
  record: PluginRecord,
  pending: NonNullable<PluginRecord['pending']>,
): Promise<DoctorCheck[]> {
  const out: DoctorCheck[] = [];
  const status = await treeStatusOf(paths, { ...pending, name: record.name });
  const tree = await treeCheck(name, { ...record, ...pending }, status, 'pending update');
  if (tree !== null) out.push(tree);
  out.push(
    problem(
      name,
      'warning',
      `${record.id} ${pending.version} is installed and waits for consent to its changed hooks; ${record.version} stays active`,
      {
        code: 'update_pending',
        fix: `\`hookpm review ${shellWord(record.id)}\` to see the changes, then \`hookpm enable ${shellWord(record.id)}\` to consent`,
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
): Promise<DoctorCheck | null> {
  if (tree.status === 'match' || tree.status === 'created') return null;
  const fix = reinstallCommand(target.source);
  if (tree.status === 'missing') {
    return problem(
      name,
      'error',
      `the ${what} tree of ${target.id} ${target.version} is missing (${clip(target.path)}); it is left out of every snapshot`,
      {
        code: 'plugin_missing',
        fix,
      },
    );
  }
  return problem(
    name,
    'error',
    `the ${what} files of ${target.id} ${target.version} at ${clip(target.path)} were changed after install (${tree.problem ?? 'they no longer match the recorded fingerprint'}); it is left out of every snapshot with plugin_tampered`,
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
