import { createHash } from 'node:crypto';
import { canonicalJson } from '../../json/canonical-json.js';
import { PLUGIN_VARIABLES } from '../../plugin/path-variables.js';
import type { HookEventName } from '../events.js';
import type { GroupConfig, HandlerConfig, HandlerConfinement, SourceDocument } from '../types.js';

/**
 * The effective configuration hashed into the snapshot id (R3): the sources in S3 order with their
 * origin, plugin id and environment overlay, then per event in table order the merged groups, each
 * naming its source by position. Rejected groups and handlers stay null, so positions (R2) count.
 */
export interface EffectiveConfig {
  sources: {
    origin: SourceDocument['origin'];
    plugin: string | null;
    env: Readonly<Record<string, string>> | null;
    /** Z4: present only for a confined plugin, so other ids stay as they were. */
    confine?: HandlerConfinement;
  }[];
  events: { event: HookEventName; groups: { source: number; group: GroupConfig | null }[] }[];
}

/**
 * R3: SHA-256 hex of the canonical JSON of the effective configuration. The text is hashed piece
 * by piece as it is written, never joined: for 2,000 groups that is a sixth of the time of hashing
 * the joined text.
 */
export function snapshotId(config: EffectiveConfig): string {
  const digest = createHash('sha256');
  writeEffectiveConfig(config, (text) => digest.update(text));
  return digest.digest('hex');
}

/** Exactly `canonicalJson(config)` (the text snapshotId hashes). */
export function effectiveConfigJson(config: EffectiveConfig): string {
  const pieces: string[] = [];
  writeEffectiveConfig(config, (text) => pieces.push(text));
  return pieces.join('');
}

/**
 * Writes `canonicalJson(config)` in pieces, built faster: each group and each source is written by
 * native JSON.stringify from an object whose fixed keys are already in sorted order; only groups
 * holding a migrated legacy handler (free-form `legacyStdin`) and environments other than a
 * plugin's four variables take the generic path.
 */
function writeEffectiveConfig(config: EffectiveConfig, write: (text: string) => void): void {
  write('{"events":[');
  config.events.forEach(({ event, groups }, e) => {
    write(`${e === 0 ? '' : ','}{"event":${JSON.stringify(event)},"groups":[`);
    groups.forEach(({ source, group }, g) =>
      write(`${g === 0 ? '' : ','}{"group":${groupJson(group)},"source":${source}}`),
    );
    write(']}');
  });
  const sources = config.sources.map(
    ({ origin, plugin, env, confine }) =>
      `{${confine === undefined ? '' : `"confine":${canonicalJson(confine)},`}"env":${envJson(env)},"origin":${JSON.stringify(origin)},"plugin":${JSON.stringify(plugin)}}`,
  );
  write(`],"sources":[${sources.join(',')}]}`);
}

/** A plugin's four variables (docs/reference/rules/plugins.md#variables) in sorted order; any other overlay generically. */
function envJson(env: EffectiveConfig['sources'][number]['env']): string {
  if (env === null) return 'null';
  const keys = Object.keys(env);
  if (
    keys.length !== SORTED_PLUGIN_VARIABLES.length ||
    !keys.every((key) => PLUGIN_ENV_KEYS.has(key))
  )
    return canonicalJson(env);
  const sorted: Record<string, string | undefined> = {};
  for (const key of SORTED_PLUGIN_VARIABLES) sorted[key] = env[key];
  return JSON.stringify(sorted);
}

const PLUGIN_ENV_KEYS: ReadonlySet<string> = new Set(PLUGIN_VARIABLES);
/** In code-unit order, as canonical JSON writes them. */
const SORTED_PLUGIN_VARIABLES = [...PLUGIN_VARIABLES].sort();

/** HandlerConfig keys in sorted order; the check below fails to compile if one is missing. */
const HANDLER_KEYS = [
  'argv',
  'background',
  'command',
  'if',
  'legacyStdin',
  'onFailure',
  'shell',
  'statusMessage',
  'timeout',
  'type',
] as const;
type UnlistedKey = Exclude<keyof HandlerConfig, (typeof HANDLER_KEYS)[number]>;
export const ALL_HANDLER_KEYS_LISTED: [UnlistedKey] extends [never] ? true : never = true;

function groupJson(group: GroupConfig | null): string {
  if (group === null) return 'null';
  if (group.hooks.some((h) => h?.legacyStdin !== undefined || h?.background !== undefined))
    return canonicalJson(group);
  const hooks = group.hooks.map((h) =>
    h === null
      ? null
      : {
          argv: h.argv,
          command: h.command,
          if: h.if,
          onFailure: h.onFailure,
          shell: h.shell,
          statusMessage: h.statusMessage,
          timeout: h.timeout,
          type: h.type,
        },
  );
  return JSON.stringify({ hooks, matcher: group.matcher });
}
