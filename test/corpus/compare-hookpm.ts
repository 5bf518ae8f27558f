import { compileMatcher, matcherAccepts } from '../../src/hooks/matcher.js';
import { ifRuleHolds, parseIfRule } from '../../src/hooks/if-rule.js';
import { isHookEventName } from '../../src/hooks/events.js';
import { buildSurface, type SurfaceEntry } from '../../src/plugin/surface.js';
import { readPluginDir } from '../../src/store/read-plugin.js';
import { runBin } from '../helpers/built-bin.js';
import { pool, ROOT, TURN_EVENTS, type PluginFacts, type SideFacts } from './compare-facts.js';
import type { WorldMarketplace } from './compare-world.js';

/**
 * hookpm's side of the comparison, asked of the built CLI in one private home: `hookpm registry
 * add <name> <dir>` per catalog, `hookpm install <entry>@<name>... --yes --json` of them all, and
 * the review's surface of each installed tree (readPluginDir and buildSurface, what `hookpm review
 * --json` lists as `hooks`) for what each runs: the events with a valid entry, and per event of the
 * Claude Code turn (compare-facts.ts TURN_EVENTS, with that turn's payloads: a Bash call, source
 * `startup`) the commands whose matcher and `if` accept the payload, the plugin root written
 * ROOT; the background ones are those the review says run in the background inside Claude Code.
 */

/** The payload fields a matcher or an `if` reads, as Claude Code's turn sends them. */
const PAYLOADS: Readonly<Record<string, Record<string, unknown>>> = {
  SessionStart: { source: 'startup' },
  UserPromptSubmit: { prompt: 'Run the command.' },
  PreToolUse: { tool_name: 'Bash', tool_input: { command: 'echo hookpm-compare' } },
  PostToolUse: { tool_name: 'Bash', tool_input: { command: 'echo hookpm-compare' } },
  Stop: { stop_hook_active: false },
};

/** A registry name hookpm accepts for a catalog: its own name, lower case, or the folder's. */
export function registryName(market: WorldMarketplace): string {
  return (market.name ?? market.folder)
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export async function askHookpm(
  world: WorldMarketplace[],
  env: Record<string, string>,
  cwd: string,
): Promise<SideFacts> {
  const hookpm = (args: string[]) => runBin(args, { env, cwd });
  const facts: SideFacts = { marketplaces: {}, plugins: {} };
  const folders = new Map<string, string>();
  // The catalogs are added four at a time (the store serialises what must be).
  const added = new Map<string, boolean>();
  await pool(world, 4, async (market) => {
    const run = await hookpm(['registry', 'add', registryName(market), market.dir, '--json']);
    added.set(market.folder, run.code === 0);
  });
  for (const market of world) {
    facts.marketplaces[market.folder] = added.get(market.folder) === true;
    for (const [entry, folder] of Object.entries(market.plugins)) {
      facts.plugins[folder] = { accepted: false, events: [], ran: {}, background: [] };
      if (added.get(market.folder) === true)
        folders.set(`${entry}@${registryName(market)}`, folder);
    }
  }
  // Every plugin in one install (all or nothing); the one it refuses is named by its error
  // (`cannot install <id>: ...`) and left out of the next try. Should an error name none, each
  // plugin left is installed on its own.
  const paths = new Map<string, string>();
  const record = (stdout: string) => {
    const result = JSON.parse(stdout) as { installed: { id: string; path: string }[] };
    for (const plugin of result.installed) paths.set(plugin.id, plugin.path);
  };
  const pending = [...folders.keys()];
  while (pending.length > 0) {
    const run = await hookpm(['install', ...pending, '--yes', '--json']);
    if (run.code === 0) {
      record(run.stdout);
      break;
    }
    const refused = /cannot install (\S+?): /.exec(run.stdout)?.[1];
    if (refused !== undefined && pending.includes(refused)) {
      pending.splice(pending.indexOf(refused), 1);
      continue;
    }
    for (const id of pending) {
      const alone = await hookpm(['install', id, '--yes', '--json']);
      if (alone.code === 0) record(alone.stdout);
    }
    break;
  }
  for (const [id, folder] of folders) {
    const path = paths.get(id);
    if (path === undefined) continue;
    const entry = id.slice(0, id.lastIndexOf('@'));
    const surface = buildSurface(await readPluginDir(path, { fallbackName: entry }));
    facts.plugins[folder] = { accepted: true, ...whatRuns(surface.entries) };
  }
  return facts;
}

function whatRuns(hooks: readonly SurfaceEntry[]): Omit<PluginFacts, 'accepted'> {
  const valid = hooks.filter((h) => h.valid);
  const events = [...new Set(valid.map((h) => h.event))].sort();
  const ran: Record<string, string[]> = {};
  const background = new Set<string>();
  for (const event of TURN_EVENTS) {
    for (const hook of valid.filter((h) => h.event === event && h.type === 'command')) {
      if (typeof hook.command !== 'string' || !isHookEventName(event)) continue;
      const payload = PAYLOADS[event] ?? {};
      const matcher = compileMatcher(typeof hook.matcher === 'string' ? hook.matcher : null, event);
      if (!matcher.ok || !matcherAccepts(matcher.matcher, event, payload)) continue;
      if (typeof hook.if === 'string') {
        const rule = parseIfRule(hook.if);
        if (!rule.ok || !ifRuleHolds(rule.rule, event, payload)) continue;
      }
      const command = expandRoot(hook.command);
      const list = (ran[event] ??= []);
      if (!list.includes(command)) list.push(command);
      list.sort();
      if (hook.runsIn === 'claude-background') {
        background.add(`${event}: ${command}`);
      }
    }
  }
  return { events, ran, background: [...background].sort() };
}

/**
 * The plugin root variable as Claude Code expands it in a command's text (braced or not): ROOT.
 * hookpm gives it to the command's shell instead, which comes to the same.
 */
function expandRoot(command: string): string {
  return command
    .split('${CLAUDE_PLUGIN_ROOT}')
    .join(ROOT)
    .replace(/\$CLAUDE_PLUGIN_ROOT\b/g, ROOT);
}
