import { readFileSync, existsSync, statSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHookpmError } from '../../src/errors.js';
import { EVENT_NAMES } from '../../src/hooks/events.js';
import { installPlugins } from '../../src/ops/install/install.js';
import { buildSurface } from '../../src/plugin/surface.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import { readPluginDir } from '../../src/store/read-plugin.js';
import { CORPUS, EXCEPTIONS, pluginFolders } from './corpus-plugins.js';

/**
 * The corpus: every plugin folder of ../shared/corpus is installed (enabled, each in a store of its
 * own, as `hookpm install <dir> --yes` does), and the installed plugin's events (within the
 * engine's twelve) and commands are what the folder's own hooks files declare, read here by a plain
 * JSON walk independent of hookpm's reader: hooks/hooks.json, then the manifest's `hooks` (paths or
 * inline); the manifest is plugin.json or .claude-plugin/plugin.json (P1), the hooks of
 * .claude-plugin/plugin.json when both exist (G5). An event whose every handler is inert is listed
 * in EXCEPTIONS with the rule. REFUSED names each folder install refuses, with the error code and
 * the words of its message. A table of the corpus is printed: plugin, handlers (those that run; for
 * a refused folder, those it declares), result, events.
 */
const REFUSED: Readonly<Record<string, { code: string; says: string }>> = {
  // H2: a manifest hooks path may not leave the plugin root.
  'Yeachan-Heo__oh-my-claudecode__oh-my-claudecode_at_bf2f98d': {
    code: 'E_HOOKS_INVALID',
    says: '.claude-plugin/plugin.json:hooks "../hooks/hooks.json" contains a ".." segment',
  },
  // P4: invalid JSON in a hooks document, with its position.
  obra__superpowers__superpowers_at_534e5bb: {
    code: 'E_HOOKS_INVALID',
    says: 'hooks/hooks.json:33:13: invalid JSON',
  },
  // P4: invalid JSON in the manifest (a bad merge; a trailing comma).
  obra__superpowers__superpowers_at_689342b: {
    code: 'E_MANIFEST_INVALID',
    says: '.claude-plugin/plugin.json:16:1: invalid JSON',
  },
  obra__superpowers__superpowers_at_b331a79: {
    code: 'E_MANIFEST_INVALID',
    says: '.claude-plugin/plugin.json:13:1: invalid JSON: trailing comma',
  },
};

const TWELVE: ReadonlySet<string> = new Set(EVENT_NAMES);

interface Declared {
  event: string;
  command: unknown;
}

/** The JSON of `file` in `dir`, or undefined when absent or not JSON. */
function json(dir: string, file: string): unknown {
  const full = join(dir, file);
  if (!existsSync(full) || !statSync(full).isFile()) return undefined;
  try {
    return JSON.parse(readFileSync(full, 'utf8').replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The handlers a hooks document declares: every handler object of every group, in order. */
function handlersOf(document: unknown): Declared[] {
  if (!isObject(document) || !isObject(document['hooks'])) return [];
  const out: Declared[] = [];
  for (const [event, groups] of Object.entries(document['hooks'])) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group['hooks'])) continue;
      for (const handler of group['hooks'])
        if (isObject(handler)) out.push({ event, command: handler['command'] ?? null });
    }
  }
  return out;
}

/** What the folder's own files declare, by the plain walk described above. */
function declaredBy(dir: string): Declared[] {
  const root = json(dir, 'plugin.json');
  const claude = json(dir, '.claude-plugin/plugin.json');
  const manifest = isObject(claude) ? claude : root;
  const documents: unknown[] = [];
  const seen = new Set<string>();
  const path = (p: string): void => {
    const clean = p.replace(/^\.\//, '').replace(/\/$/, '');
    const file =
      existsSync(join(dir, clean)) && statSync(join(dir, clean)).isDirectory()
        ? `${clean}/hooks.json`
        : clean;
    if (seen.has(file)) return;
    seen.add(file);
    documents.push(json(dir, file));
  };
  path('hooks/hooks.json');
  const hooks = isObject(manifest) ? manifest['hooks'] : undefined;
  if (typeof hooks === 'string') {
    path(hooks);
  } else if (Array.isArray(hooks)) {
    for (const p of hooks) if (typeof p === 'string') path(p);
  } else if (isObject(hooks)) {
    documents.push(isObject(hooks['hooks']) ? hooks : { hooks });
  }
  return documents.flatMap(handlersOf);
}

interface Row {
  folder: string;
  events: string;
  handlers: number;
  result: string;
}
const rows: Row[] = [];

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'hookpm-corpus-install-'));
});
afterAll(async () => {
  const width = Math.max(...rows.map((r) => r.folder.length));
  const line = (cells: string[]) =>
    `${cells[0]!.padEnd(width)}  ${cells[1]!.padStart(8)}  ${cells[2]!.padEnd(27)}  ${cells[3]}`;
  const table = [
    line(['PLUGIN', 'HANDLERS', 'RESULT', 'EVENTS']),
    ...rows.map((r) => line([r.folder, String(r.handlers), r.result, r.events])),
  ];
  console.log(`The corpus installed:\n${table.join('\n')}`);
  await rm(base, { recursive: true, force: true });
});

describe('the corpus: every plugin installed, doing what its hooks files declare', () => {
  const folders = pluginFolders();
  let n = 0;

  it.each(folders)('%s', async (folder) => {
    n += 1;
    // Installed from a copy under the plugin's own directory name (the last part of the corpus
    // folder's name), as its author's repository has it: without a manifest name, P1 names the
    // plugin after its directory.
    const dir = join(base, `src-${n}`, folder.split('__').at(-1)!.toLowerCase());
    await cp(join(CORPUS, folder), dir, { recursive: true });
    const paths = resolveStorePaths({ HOOKPM_HOME: join(base, `store-${n}`) });
    const declared = declaredBy(dir);
    let installed;
    try {
      [installed] = (
        await installPlugins(
          { paths },
          { specs: [dir], cwd: base, enable: 'yes', force: false, dryRun: false },
        )
      ).installed;
    } catch (error) {
      if (!isHookpmError(error)) throw error;
      rows.push({
        folder,
        events: '-',
        handlers: declared.length,
        result: `refused ${error.code}`,
      });
      expect(REFUSED[folder], `${folder} refused: ${error.code} ${error.message}`).toBeDefined();
      expect(error.code).toBe(REFUSED[folder]!.code);
      expect(error.message).toContain(REFUSED[folder]!.says);
      return;
    }
    expect(REFUSED[folder], `${folder} installed though REFUSED lists it`).toBeUndefined();
    const entry = installed!;
    const plugin = await readPluginDir(entry.path!, { fallbackName: entry.name });
    const surface = buildSurface(plugin);
    // Commands: every declared handler under one of the twelve events, in order.
    const inTwelve = (d: { event: string }) => TWELVE.has(d.event);
    expect(
      surface.entries.filter(inTwelve).map((e) => [e.event, e.command]),
      `${folder}: commands`,
    ).toEqual(declared.filter(inTwelve).map((d) => [d.event, d.command]));
    // Events: those declared within the twelve, less the ones EXCEPTIONS explains.
    const exception = EXCEPTIONS[folder];
    const events = [...new Set(declared.filter(inTwelve).map((d) => d.event))]
      .filter((e) => !(exception?.missing ?? []).includes(e))
      .sort();
    expect([...entry.events].sort(), exception?.reason ?? folder).toEqual(events);
    expect(entry.enabled && entry.active).toBe(true);
    rows.push({
      folder,
      events: entry.events.join(', ') || '-',
      handlers: surface.entries.filter((e) => e.valid).length,
      result: 'installed',
    });
  });
});
