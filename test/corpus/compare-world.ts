import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { CORPUS, pluginFolders } from './corpus-plugins.js';

/**
 * The corpus as local directory marketplaces, for the side-by-side comparison with Claude Code
 * (claude-compare.test.ts). Each marketplace folder of ../shared/corpus becomes a repository
 * checkout: its catalog at its original path, and every plugin folder of the same repository and
 * commit at its original path inside it (a plugin at `.` is the checkout's root). The plugin
 * folders no catalog places (historical commits, fixtures, npm packages) are listed by one more
 * catalog of this test, `corpus-loose`, one entry each (`./<folder>`, named after the folder).
 * Scripts are absent: the corpus holds manifests only.
 */

interface Meta {
  folder: string;
  kind: 'plugin' | 'marketplace';
  source: string;
  commit?: string | null;
  path: string;
}

export interface WorldMarketplace {
  /** The corpus folder (the loose catalog: LOOSE). */
  folder: string;
  /** The directory to add (the one holding `.claude-plugin/marketplace.json`). */
  dir: string;
  /** The catalog's own `name`, or null when it has none (an invalid catalog). */
  name: string | null;
  /** The corpus plugin folders it holds, by the catalog entry's name. */
  plugins: Record<string, string>;
}

export const LOOSE = 'corpus-loose';

/** The catalog names of the corpus that Claude Code 2.1.332 reserves, and the copy's name. */
const RESERVED: ReadonlyMap<string, string> = new Map([
  ['claude-plugins-official', 'corpus-official-copy'],
]);

function metas(): Meta[] {
  return readFileSync(join(CORPUS, 'meta.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Meta);
}

/** A relative path as a comparable key: normalised, no trailing slash (`./` and `.` are `.`). */
function pathKey(path: string): string {
  return normalize(path).replace(/(.)\/$/, '$1');
}

function repoOf(folder: string): string {
  return folder.split('__').slice(0, 2).join('__');
}

interface Entry {
  name?: unknown;
  source?: unknown;
}

function catalogFile(dir: string): string | null {
  const file = join(dir, '.claude-plugin', 'marketplace.json');
  return existsSync(file) ? file : null;
}

/** The directory holding `.claude-plugin/marketplace.json` inside a marketplace folder. */
function catalogDir(folder: string): string {
  for (const candidate of ['', '.dev-marketplace']) {
    if (catalogFile(join(CORPUS, folder, candidate)) !== null) return candidate;
  }
  throw new Error(`${folder}: no .claude-plugin/marketplace.json`);
}

/** Builds the world under `root` (an empty directory) and answers its marketplaces. */
export async function buildCompareWorld(root: string): Promise<WorldMarketplace[]> {
  const all = metas();
  const pluginSet = new Set(pluginFolders());
  const placed = new Set<string>();
  const out: WorldMarketplace[] = [];
  for (const market of all.filter((m) => m.kind === 'marketplace')) {
    const checkout = join(root, market.folder);
    await copy(join(CORPUS, market.folder), checkout);
    const inner = catalogDir(market.folder);
    const dir = join(checkout, inner);
    const catalog = JSON.parse(
      readFileSync(join(dir, '.claude-plugin', 'marketplace.json'), 'utf8'),
    ) as { name?: unknown; plugins?: Entry[] };
    // Two corpus catalogs of one repository at two commits share a name; the later one is
    // renamed `<name>-at-<commit>` so that both can be added side by side. A name Claude Code
    // reserves for Anthropic's own catalogs is refused there unless the catalog comes from
    // GitHub's anthropics organisation, as the real one does (and so is any name that looks like
    // one, `claude-plugins-...` among them): the local copy is renamed RESERVED's way.
    const renamed = typeof catalog.name === 'string' ? RESERVED.get(catalog.name) : undefined;
    if (renamed !== undefined) {
      catalog.name = renamed;
      await writeFile(
        join(dir, '.claude-plugin', 'marketplace.json'),
        JSON.stringify(catalog, null, 2),
      );
    }
    if (typeof catalog.name === 'string' && out.some((m) => m.name === catalog.name)) {
      catalog.name = `${catalog.name}-at-${(market.commit ?? '').slice(0, 7)}`;
      await writeFile(
        join(dir, '.claude-plugin', 'marketplace.json'),
        JSON.stringify(catalog, null, 2),
      );
    }
    const plugins: Record<string, string> = {};
    const siblings = all.filter(
      (m) =>
        m.kind === 'plugin' &&
        pluginSet.has(m.folder) &&
        repoOf(m.folder) === repoOf(market.folder) &&
        (m.commit ?? null) === (market.commit ?? null),
    );
    for (const entry of catalog.plugins ?? []) {
      if (typeof entry.source !== 'string' || typeof entry.name !== 'string') continue;
      const at = pathKey(join(inner, entry.source));
      const plugin = siblings.find((m) => pathKey(m.path) === at);
      if (plugin === undefined) continue;
      await copy(join(CORPUS, plugin.folder), join(checkout, plugin.path));
      plugins[entry.name] = plugin.folder;
      placed.add(plugin.folder);
    }
    out.push({
      folder: market.folder,
      dir,
      name: typeof catalog.name === 'string' ? catalog.name : null,
      plugins,
    });
  }
  // The loose folders, in as few catalogs as keep each catalog's names unique. An entry is named
  // as the plugin's manifest names it (a mismatch is refused by hookpm, accepted by Claude Code).
  const loose = [...pluginSet].filter((folder) => !placed.has(folder)).sort();
  const groups: Record<string, string>[] = [];
  for (const folder of loose) {
    const name = manifestName(folder);
    let group = groups.find((g) => g[name] === undefined);
    if (group === undefined) groups.push((group = {}));
    group[name] = folder;
  }
  for (const [index, plugins] of groups.entries()) {
    const name = `${LOOSE}-${index + 1}`;
    const dir = join(root, name);
    for (const folder of Object.values(plugins))
      await copy(join(CORPUS, folder), join(dir, folder));
    await mkdir(join(dir, '.claude-plugin'), { recursive: true });
    const entries = Object.entries(plugins).map(([entry, folder]) => ({
      name: entry,
      source: `./${folder}`,
    }));
    await writeFile(
      join(dir, '.claude-plugin', 'marketplace.json'),
      JSON.stringify({ name, owner: { name: 'hookpm tests' }, plugins: entries }, null, 2),
    );
    out.push({ folder: name, dir, name, plugins });
  }
  return out;
}

/**
 * The name a plugin folder's manifest gives it (`.claude-plugin/plugin.json`, then `plugin.json`);
 * for a manifest that is not JSON, the folder's plugin part without its `_at_<commit>`.
 */
function manifestName(folder: string): string {
  for (const file of ['.claude-plugin/plugin.json', 'plugin.json']) {
    const path = join(CORPUS, folder, file);
    if (!existsSync(path)) continue;
    try {
      const name = (JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown }).name;
      if (typeof name === 'string') return name;
    } catch {
      break;
    }
  }
  return (folder.split('__')[2] ?? folder).replace(/_at_.*$/, '');
}

/** cp keeps the corpus's read-only modes; the world is written into after copying. */
async function copy(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true });
  execFileSync('chmod', ['-R', 'u+w', to]);
}
