import { compileMatcher, matcherAccepts } from '../../src/hooks/matcher.js';
import { ifRuleHolds, parseIfRule } from '../../src/hooks/if-rule.js';
import { isHookEventName } from '../../src/hooks/events.js';
import { buildSurface, type SurfaceEntry } from '../../src/plugin/surface.js';
import { readPluginDir } from '../../src/store/read-plugin.js';
import { runBin } from '../helpers/built-bin.js';
import { ROOT, TURN_EVENTS, type PluginFacts, type SideFacts } from './compare-facts.js';
import type { WorldMarketplace } from './compare-world.js';

/**
 * hookpm's side of the comparison, asked of the built CLI in one private home: `hookpm registry
 * add <name> <dir>` per catalog, `hookpm install <entry>@<name>... --yes --json` per catalog, and
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
  for (const market of world) {
    const name = registryName(market);
    const added = await hookpm(['registry', 'add', name, market.dir, '--json']);
    facts.marketplaces[market.folder] = added.code === 0;
    const entries = Object.entries(market.plugins);
    for (const [, folder] of entries) {
      facts.plugins[folder] = { accepted: false, events: [], ran: {}, background: [] };
    }
    if (added.code !== 0 || entries.length === 0) continue;
    // All of a catalog's plugins in one install; when one is refused (the install is all or
    // nothing), each on its own.
    const ids = entries.map(([entry]) => `${entry}@${name}`);
    const batch = await hookpm(['install', ...ids, '--yes', '--json']);
    const runs = batch.code === 0 ? [batch] : await Promise.all(ids.map((id) => install(id)));
    const paths = new Map<string, string>();
    for (const run of runs) {
      if (run.code !== 0) continue;
      const result = JSON.parse(run.stdout) as { installed: { id: string; path: string }[] };
      for (const plugin of result.installed) paths.set(plugin.id, plugin.path);
    }
    for (const [entry, folder] of entries) {
      const path = paths.get(`${entry}@${name}`);
      if (path === undefined) continue;
      const surface = buildSurface(await readPluginDir(path, { fallbackName: entry }));
      facts.plugins[folder] = { accepted: true, ...whatRuns(surface.entries) };
    }
  }
  return facts;

  async function install(id: string) {
    return hookpm(['install', id, '--yes', '--json']);
  }
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
      if (hook.runsIn === 'claude-background' || hook.runsIn === 'background-in-claude') {
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
