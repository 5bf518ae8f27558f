import { EVENTS } from './events.js';
import type { HookEventName } from './events.js';
import { compileGlob, globMatches } from './glob.js';
import { wordTextTest } from './regex/word-text.js';
import type { Glob } from './glob.js';
import { patchFiles } from './patch-files.js';
import { bashSubcommands } from './bash-subcommands.js';
import { promptUrls } from '../text/prompt-urls.js';
import { compileDomain, urlOnDomain } from './fetch-domain.js';
import { compileFetchUrl, fetchUrlMatches } from './fetch-url.js';
import type { FetchUrlGlob } from './fetch-url.js';
import { compilePathRule, pathRuleHolds, type PathRule } from './path-rule.js';

/**
 * The `if` predicate (engine.md F1-F3): one permission rule, `Tool` or `Tool(pattern)`. `Tool` is an
 * exact set as in E2 (`Edit|Write`), where a name ending in `*` is a prefix (`mcp__github__*`); the
 * pattern is a glob (glob.ts) over the tool's primary input. Tools without a primary input accept
 * only the pattern `*`, and so do prefix names, which can stand for any tool. `Tool` alone holds for
 * every call of the tool; a pattern needs the input to be present and a string. A Bash pattern
 * holds when it matches the whole command or one of its subcommands (bash-subcommands.ts), as in
 * Claude Code, whose `if` rules match `ls && git push` and `FOO=bar git push` by subcommand.
 */
export interface IfRule {
  /** The rule as written. */
  source: string;
  tool: { names: readonly string[]; prefixes: readonly string[] };
  /** The text between the parentheses, or null for a bare `Tool`. */
  pattern: string | null;
  glob: Glob | null;
  /** For a Bash pattern ending in ` *`, the glob of the bare prefix before it, else null. */
  bare: Glob | null;
  /** The pattern as a path pattern (path-rule.ts) for a rule naming a PATH_TOOLS tool, or null. */
  path: PathRule | null;
  /** The host glob of a `WebFetch(domain:<host>)` pattern (fetch-domain.ts), else null. */
  domain: Glob | null;
  /** The glob of a `WebFetch(<url>)` pattern, its scheme and host in URL form (fetch-url.ts). */
  url: FetchUrlGlob | null;
}

export type IfRuleResult = { ok: true; rule: IfRule } | { ok: false; message: string };

/** F2: the field of `tool_input` each tool's pattern is matched against. */
export const PRIMARY_INPUT: ReadonlyMap<string, string> = new Map([
  ['Bash', 'command'],
  ['Edit', 'file_path'],
  ['Write', 'file_path'],
  ['MultiEdit', 'file_path'],
  ['Read', 'file_path'],
  ['NotebookEdit', 'notebook_path'],
  ['Glob', 'pattern'],
  ['Grep', 'pattern'],
  ['WebFetch', 'url'],
]);

/** F2: the tools whose primary input is a file path, matched as paths (path-rule.ts). */
const PATH_TOOLS: ReadonlySet<string> = new Set([
  'Edit',
  'Write',
  'MultiEdit',
  'NotebookEdit',
  'Read',
]);

/** F1: as in Claude Code, an `Edit` rule applies to every built-in tool that edits files. */
const EDIT_TOOLS: ReadonlySet<string> = new Set(['Write', 'MultiEdit', 'NotebookEdit']);

const isToolText = wordTextTest(',|*-');

export function parseIfRule(rule: string): IfRuleResult {
  const text = rule.trim();
  const fail = (why: string): IfRuleResult => ({
    ok: false,
    message: `if rule ${JSON.stringify(rule)} is not a permission rule: ${why}`,
  });
  const open = text.indexOf('(');
  if (open >= 0 && !text.endsWith(')')) return fail('a pattern must end with ")"');
  const toolText = (open >= 0 ? text.slice(0, open) : text).trim();
  const pattern = open >= 0 ? text.slice(open + 1, -1) : null;
  if (!isToolText(toolText)) return fail('expected Tool or Tool(pattern), for example Bash(git *)');
  const parts = toolText
    .split(/[|,]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0) return fail('it names no tool');
  if (parts.some((part) => part.indexOf('*') !== part.length - 1 && part.includes('*'))) {
    return fail('"*" is allowed only at the end of a tool name');
  }
  if (pattern !== null && pattern.trim() === '')
    return fail('the pattern is empty (write Tool or Tool(*))');
  const names = parts.filter((part) => !part.endsWith('*'));
  const prefixes = parts.filter((part) => part.endsWith('*')).map((part) => part.slice(0, -1));
  if (pattern !== null && pattern !== '*') {
    const without = [
      ...names.filter((name) => !PRIMARY_INPUT.has(name)),
      ...prefixes.map((p) => `${p}*`),
    ];
    if (without.length > 0) {
      return fail(`${JSON.stringify(without[0])} has no primary input, so its pattern must be "*"`);
    }
  }
  // The globs a match needs are compiled here, once: ifRuleHolds only matches.
  const glob = pattern === null ? null : compileGlob(pattern);
  const bash = pattern !== null && pattern.endsWith(' *') && names.includes('Bash');
  const bare = bash ? compileGlob(pattern.slice(0, -2)) : null;
  const paths = pattern !== null && pattern !== '*' && names.some((n) => PATH_TOOLS.has(n));
  const path = paths ? compilePathRule(pattern) : null;
  const domain = pattern === null ? null : compileDomain(pattern);
  // Only a rule that can name WebFetch (namesTool) has its pattern read as a URL.
  const fetches = names.includes('WebFetch') || prefixes.some((p) => 'WebFetch'.startsWith(p));
  const url =
    glob === null || pattern === null || domain !== null || !fetches
      ? null
      : compileFetchUrl(pattern, glob);
  const tool = { names, prefixes };
  return { ok: true, rule: { source: rule, tool, pattern, glob, bare, path, domain, url } };
}

/**
 * F2/F3: false on non-tool events, for other tools, and when the primary input is missing (but for
 * a WebFetch without `url`, judged by its prompt's URLs: fetchedUrlsMatch).
 * `aliases` (cli.md W4: the agent's other names of the tool, Codex's `Edit` and `Write` for
 * `apply_patch`) count as the tool's name; the tool keeps its own input, a patch, so a pattern
 * holds when it matches a file the patch names, and also when no file can be read from it: a
 * guard the rule would have run on an edit is never skipped for the form of its input.
 * `home` is the user's home directory, which `~/` of a path pattern names (path-rule.ts); null:
 * none is known, and `~/p` holds under any directory.
 */
export function ifRuleHolds(
  rule: IfRule,
  event: HookEventName,
  payload: Readonly<Record<string, unknown>>,
  aliases: readonly string[] = [],
  home: string | null = null,
): boolean {
  if (!EVENTS[event].tool) return false;
  const tool = ownField(payload, 'tool_name');
  if (typeof tool !== 'string') return false;
  if (!namesTool(rule, tool)) {
    if (!aliases.some((alias) => namesTool(rule, alias))) return false;
    if (rule.glob === null) return true;
    const patch = inputField(payload, 'command');
    const { glob, pattern } = rule;
    // A rule naming no path tool is compiled as one for an alias alone (hookpm's agents give
    // aliases that are path tools, Edit and Write, only).
    const path = rule.path ?? (pattern === null ? null : compilePathRule(pattern));
    return cwdsOf(payload).some((cwd) => {
      const files = typeof patch === 'string' ? patchFiles(patch, cwd) : [];
      if (files === null) return true; // too many files to read: the guard runs (fail closed)
      const holdsFor = (file: string): boolean =>
        globMatches(glob, file) || (path !== null && pathRuleHolds(path, file, cwd, home));
      return files.length === 0 || files.some(holdsFor);
    });
  }
  if (rule.glob === null) return true;
  const field = PRIMARY_INPUT.get(tool);
  if (field === undefined) return rule.pattern === '*';
  const input = inputField(payload, field);
  const glob = rule.glob;
  if (input === undefined && tool === 'WebFetch') return fetchedUrlsMatch(rule, payload);
  if (typeof input !== 'string') return false;
  if (tool === 'WebFetch') return fetchedUrlMatches(rule, input);
  if (globMatches(glob, input)) return true;
  if (PATH_TOOLS.has(tool)) {
    const path = rule.path;
    return path !== null && cwdsOf(payload).some((cwd) => pathRuleHolds(path, input, cwd, home));
  }
  if (tool !== 'Bash') return false;
  // As in Claude Code, `Bash(ls *)` also holds for a bare `ls`.
  const bare = rule.bare;
  // A command too long or too wrapped to read holds: the guard runs (fail closed).
  const parts = bashSubcommands(input);
  return (
    parts === null ||
    parts.some((part) => globMatches(glob, part) || (bare !== null && globMatches(bare, part)))
  );
}

/**
 * F2 for a WebFetch without `url` (Gemini CLI's `web_fetch` naming several URLs in its `prompt`):
 * the pattern holds when it matches one of the prompt's URLs, and also when none can be read from
 * it, so a guard is never skipped for the form of the input.
 */
function fetchedUrlsMatch(rule: IfRule, payload: Readonly<Record<string, unknown>>): boolean {
  const prompt = inputField(payload, 'prompt');
  const urls = typeof prompt === 'string' ? promptUrls(prompt) : [];
  return urls.length === 0 || urls.some((url) => fetchedUrlMatches(rule, url));
}

/** F2: a WebFetch pattern, `domain:<host>` (fetch-domain.ts) or a URL glob (fetch-url.ts). */
function fetchedUrlMatches(rule: IfRule, url: string): boolean {
  if (rule.domain !== null) return urlOnDomain(rule.domain, url);
  return rule.url !== null && fetchUrlMatches(rule.url, url);
}

/**
 * F1: whether the rule's tool part names `tool`: an exact name, a prefix ending in `*`, or a bare
 * MCP server `mcp__server`, which (as in Claude Code's permission rules) names every tool of that
 * server, `mcp__server__*`; `Edit` names every file-editing tool (EDIT_TOOLS).
 */
function namesTool(rule: IfRule, tool: string): boolean {
  const { names, prefixes } = rule.tool;
  if (names.includes(tool) || prefixes.some((prefix) => tool.startsWith(prefix))) return true;
  if (EDIT_TOOLS.has(tool) && names.includes('Edit')) return true;
  return names.some((name) => MCP_SERVER.test(name) && tool.startsWith(`${name}__`));
}

/** `mcp__` and a server name holding no `__`: a rule naming a whole MCP server. */
const MCP_SERVER = /^mcp__(?:(?!__).)+$/;

/** The payload's `tool_input[field]`, own fields only. */
function inputField(payload: Readonly<Record<string, unknown>>, field: string): unknown {
  const toolInput = ownField(payload, 'tool_input');
  return typeof toolInput === 'object' && toolInput !== null
    ? ownField(toolInput as Record<string, unknown>, field)
    : undefined;
}

/**
 * Where a payload carries, beside the `cwd` its handlers run in, the agent's own `cwd` that the
 * invocation replaced (payload-at-cwd.ts): a symbol, so no JSON, key list or handler sees
 * it.
 */
export const AGENT_CWD: unique symbol = Symbol('the agent cwd an invocation replaced');

/**
 * F2: the directories a relative path of the payload is read from: its `cwd`, and the agent's own
 * when the invocation replaced it (AGENT_CWD): a path rule holds when it holds from either, so a
 * guard is not skipped for where hookpm runs its handlers.
 */
function cwdsOf(payload: Readonly<Record<string | symbol, unknown>>): unknown[] {
  const cwd = ownField(payload, 'cwd');
  const agent = Object.hasOwn(payload, AGENT_CWD) ? payload[AGENT_CWD] : undefined;
  return agent === undefined || agent === cwd ? [cwd] : [cwd, agent];
}

function ownField(record: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
