import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { runClaudeTurn } from '../agents/claude-code.js';
import { startFakeMessagesApi } from '../agents/fake-messages-api.js';
import { pool, ROOT, TURN_EVENTS, type PluginFacts, type SideFacts } from './compare-facts.js';
import { REPO } from './corpus-plugins.js';
import type { WorldMarketplace } from './compare-world.js';

/**
 * Claude Code's side of the comparison, asked of the real binary (claude-code.ts) in one private
 * HOME: `claude plugin marketplace add <dir>` per catalog, `claude plugin install <name>@<catalog>
 * --json` per plugin, `claude plugin details` for the events each hooks, and ONE `-p` turn (a
 * Bash call `echo` allowed) with `--debug-file`, whose `Hooks: <Event>... [<command>] (plugin
 * <id>)` lines name every command run per event and plugin. The turn runs the plugins' commands:
 * their interpreters and fetchers (node, python, npx, ...) are stand-ins on PATH that exit 0, so
 * nothing is fetched or run but the shell around them.
 *
 * MEASURED (2.1.332): a directory marketplace's plugins are read in place (`readFromFolder`: the
 * plugin root a command sees is the catalog's directory, not the cache copy); a local plugin whose
 * directory is absent fails with `error_not_found`; unknown keys in hooks.json are a warning.
 */

/** Claude Code's answers as last asked (claude-compare.live.ts asks again and rewrites them). */
export const CLAUDE_FACTS_FILE = join(REPO, 'test/corpus/claude-code-facts.json');

const STAND_INS = ['node', 'python', 'python3', 'npx', 'bunx', 'bun', 'uv', 'uvx', 'bd', 'deno'];

export interface ClaudeSideOptions {
  binary: string;
  /** The private HOME (TMPDIR under it). */
  home: string;
  /** The turn's working directory. */
  cwd: string;
  world: WorldMarketplace[];
}

function claudeEnv(home: string, path: string): Record<string, string> {
  return {
    PATH: path,
    HOME: home,
    TMPDIR: join(home, 'tmp'),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    NO_COLOR: '1',
  };
}

export async function askClaude(opts: ClaudeSideOptions): Promise<SideFacts> {
  mkdirSync(join(opts.home, 'tmp'), { recursive: true });
  const env = claudeEnv(opts.home, process.env.PATH ?? '/usr/bin:/bin');
  const claude = async (args: string[]) => {
    try {
      const { stdout } = await promisify(execFile)(opts.binary, args, {
        env,
        cwd: opts.cwd,
        timeout: 60_000,
      });
      return { ok: true, stdout };
    } catch (error) {
      return { ok: false, stdout: String((error as { stdout?: unknown }).stdout ?? '') };
    }
  };
  const facts: SideFacts = { marketplaces: {}, plugins: {} };
  const ids = new Map<string, string>();
  for (const market of opts.world) {
    const added = await claude(['plugin', 'marketplace', 'add', market.dir]);
    facts.marketplaces[market.folder] = added.ok;
    for (const [entry, folder] of Object.entries(market.plugins)) {
      const id = `${entry}@${market.name ?? ''}`;
      const refused: PluginFacts = { accepted: false, events: [], ran: {}, background: [] };
      facts.plugins[folder] = refused;
      if (!added.ok) continue;
      const installed = await claude(['plugin', 'install', id, '--json']);
      const outcome = parseJson(installed.stdout) as { outcome?: string } | null;
      if (outcome?.outcome !== 'ok') continue;
      facts.plugins[folder] = { ...refused, accepted: true };
      ids.set(id, folder);
    }
  }
  await pool([...ids], 4, async ([id, folder]) => {
    const details = await claude(['plugin', 'details', id]);
    const listed = /^\s*Hooks \(\d+\)\s+(.*?)(\s+\(.*\))?$/m.exec(details.stdout)?.[1] ?? '';
    const events = listed
      .split(',')
      .map((e) => e.trim())
      .filter((e) => /^[A-Z]\w+$/.test(e));
    facts.plugins[folder]!.events = [...new Set(events)].sort();
  });
  const roots = new Map<string, string>();
  for (const market of opts.world) {
    for (const [entry, folder] of Object.entries(market.plugins)) {
      roots.set(folder, resolve(market.dir, pluginPathOf(market, entry)));
    }
  }
  // Claude Code registers the hooks of one plugin name once per session ("Skipping duplicate hook
  // registration for plugin X from <id>"): the shadowed ones get a turn of their own, alone.
  let round = [...ids.keys()];
  for (let turn = 1; round.length > 0; turn++) {
    enableOnly(opts.home, [...ids.keys()], new Set(round));
    const log = await debugTurn(opts, env, turn);
    for (const hook of parseHookLines(log)) {
      const folder = ids.get(hook.plugin);
      if (folder === undefined) continue;
      const plugin = facts.plugins[folder]!;
      const root = roots.get(folder);
      const command = root === undefined ? hook.command : hook.command.split(root).join(ROOT);
      const ran = (plugin.ran[hook.event] ??= []);
      if (!ran.includes(command)) ran.push(command);
      ran.sort();
      const background = `${hook.event}: ${command}`;
      if (hook.background && !plugin.background.includes(background)) {
        plugin.background.push(background);
        plugin.background.sort();
      }
    }
    round = [...log.matchAll(/Skipping duplicate hook registration for plugin "[^"]*" from (\S+)/g)]
      .map((m) => m[1]!)
      .filter((id) => ids.has(id));
  }
  return facts;
}

/** The source path (relative to the catalog directory) of a catalog entry. */
function pluginPathOf(market: WorldMarketplace, entry: string): string {
  const catalog = JSON.parse(
    readFileSync(join(market.dir, '.claude-plugin', 'marketplace.json'), 'utf8'),
  ) as { plugins: { name: string; source: unknown }[] };
  const source = catalog.plugins.find((p) => p.name === entry)?.source;
  return typeof source === 'string' ? source : '.';
}

/** Sets `enabledPlugins` of the user settings: the ids in `on` true, the other `ids` false. */
function enableOnly(home: string, ids: readonly string[], on: ReadonlySet<string>): void {
  const file = join(home, '.claude', 'settings.json');
  const settings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  settings.enabledPlugins = Object.fromEntries(ids.map((id) => [id, on.has(id)]));
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

/** One `-p` turn with the enabled plugins, its `--debug-file` log returned. */
async function debugTurn(
  opts: ClaudeSideOptions,
  env: Record<string, string>,
  turn: number,
): Promise<string> {
  const bin = join(opts.home, 'stand-ins');
  mkdirSync(bin, { recursive: true });
  for (const name of STAND_INS) {
    writeFileSync(join(bin, name), '#!/bin/sh\nexit 0\n');
    chmodSync(join(bin, name), 0o755);
  }
  const api = await startFakeMessagesApi({ toolCommand: 'echo hookpm-compare', maxToolCalls: 1 });
  const debugFile = join(opts.home, `debug-${turn}.log`);
  try {
    await runClaudeTurn({
      home: opts.home,
      cwd: opts.cwd,
      baseUrl: api.url,
      prompt: 'Run the command.',
      allowedTools: ['Bash'],
      binary: opts.binary,
      extraEnv: { ...env, PATH: `${bin}:${env.PATH ?? ''}` },
      extraArgs: ['--debug-file', debugFile],
      timeoutMs: 120_000,
    });
  } finally {
    await api.close();
  }
  return readFileSync(debugFile, 'utf8');
}

interface HookLine {
  event: string;
  command: string;
  plugin: string;
  background: boolean;
}

/**
 * The `Hooks: <Event>[:<query>] [<command>] (plugin <id>) ...` lines of a debug log, for the
 * events of the turn.
 */
export function parseHookLines(log: string): HookLine[] {
  const out: HookLine[] = [];
  const events: readonly string[] = TURN_EVENTS;
  for (const line of log.split('\n')) {
    const m = /\[DEBUG\] Hooks: (\w+)(?::\S*)? \[(.*)\] \(plugin ([^)\s]+)\)(.*)$/.exec(line);
    if (m === null || !events.includes(m[1]!)) continue;
    out.push({
      event: m[1]!,
      command: m[2]!,
      plugin: m[3]!,
      background: /\basync\b|background/i.test(m[4] ?? ''),
    });
  }
  return out;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.trim().split('\n').pop() ?? '') as unknown;
  } catch {
    return null;
  }
}
