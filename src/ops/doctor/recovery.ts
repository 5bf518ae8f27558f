import { showLocation } from '../../registry/registry-location.js';
import { clip } from '../../text/clip.js';
import { shellWord } from '../../text/shell-word.js';

export interface RecoveryInput {
  /** The state file. */
  file: string;
  /** The `state.json.corrupt-*` copies kept by earlier commands, oldest first. */
  copies: readonly string[];
  /** The bad document as plain JSON, when it is JSON at all (only strings are taken from it). */
  json: unknown;
  /** The state version of a file written by a newer hookpm; null for a corrupt one. */
  futureVersion: number | null;
  /**
   * The path of a field this hookpm does not know in a file of its state version (a newer hookpm
   * may have written it); null (or absent) otherwise.
   */
  unknownField?: string | null;
  /** Where the installed trees are (their names show which plugins were installed). */
  pluginsDir: string;
}

/** How many reinstall commands are spelled out; the rest are counted. */
const MAX_LISTED = 20;

/**
 * registry.md D6: the recovery of an unusable state file, step by step: keep the bad bytes, restore
 * a good copy or move the file aside, and reinstall to recreate the entries (taken from the bad
 * file when it still names them). Every step is a command the user runs: doctor changes nothing.
 */
export function recoverySteps(input: RecoveryInput): string {
  const { file } = input;
  const latest = input.copies.at(-1);
  const keep =
    latest === undefined
      ? `Keep the bad file: \`cp ${shellWord(file)} ${shellWord(`${file}.corrupt-manual`)}\` (the next command that reads it also keeps a copy, state.json.corrupt-<time>).`
      : `The bad bytes are kept at ${latest}${input.copies.length > 1 ? ` (and ${input.copies.length - 1} older state.json.corrupt-* copies)` : ''}.`;
  const aside = `${file}.${input.futureVersion === null ? 'bad' : `v${input.futureVersion}`}`;
  const steps =
    input.futureVersion === null
      ? [
          keep,
          `To restore: put a good copy in place (a backup, or the kept copy with its JSON repaired) with \`cp <good copy> ${shellWord(file)}\`, then run \`hookpm doctor\` again.`,
          `Otherwise move the bad file aside: \`mv ${shellWord(file)} ${shellWord(aside)}\`. hookpm then starts from an empty state; installed trees it no longer names are collected by the next install.`,
        ]
      : [
          `Use the newer hookpm that wrote it (update this one, e.g. \`npm install -g hookpm@latest\`): the file is valid for it.`,
          keep,
          `Or, to go on with this hookpm, move it aside: \`mv ${shellWord(file)} ${shellWord(aside)}\`; hookpm then starts from an empty state.`,
        ];
  // registry.md D6: an older hookpm refuses a field a newer one added rather than drop it.
  const unknown = input.unknownField ?? null;
  if (input.futureVersion === null && unknown !== null)
    steps.unshift(
      `If a newer hookpm wrote it (this one does not know its field ${clip(unknown)}), use that hookpm again: the file is valid for it, and nothing needs recovering.`,
    );
  steps.push(reinstallStep(input.json, input.pluginsDir));
  return steps.map((step, i) => `${i + 1}. ${step}`).join('\n');
}

function reinstallStep(json: unknown, pluginsDir: string): string {
  const commands = [...pluginSources(json), ...registryAdds(json)];
  const intro =
    'Reinstalling recreates the entries (each plugin asks for consent again when you enable it)';
  if (commands.length === 0)
    return `${intro}: \`hookpm install <spec>\` for each plugin you had (the directories under ${pluginsDir} show which were installed), and \`hookpm registry add <name> <location>\` for each registry you added.`;
  const shown = commands.slice(0, MAX_LISTED).map((command) => `     ${command}`);
  const more =
    commands.length > MAX_LISTED ? [`     (and ${commands.length - MAX_LISTED} more)`] : [];
  return [`${intro}; the bad file still names:`, ...shown, ...more].join('\n');
}

function pluginSources(json: unknown): string[] {
  const plugins = field(json, 'plugins');
  if (plugins === null) return [];
  const out: string[] = [];
  for (const record of Object.values(plugins)) {
    const source =
      typeof record === 'object' && record !== null
        ? (record as { source?: unknown }).source
        : undefined;
    if (typeof source === 'string' && source !== '')
      out.push(`hookpm install ${shellWord(clip(source))}`);
  }
  return out;
}

function registryAdds(json: unknown): string[] {
  const registries = field(json, 'registries');
  if (registries === null) return [];
  const out: string[] = [];
  for (const [name, record] of Object.entries(registries)) {
    const location =
      typeof record === 'object' && record !== null
        ? (record as { location?: unknown }).location
        : undefined;
    if (typeof location === 'string' && location !== '')
      out.push(
        `hookpm registry add ${shellWord(clip(name))} ${shellWord(clip(showLocation(location)))}`,
      );
  }
  return out;
}

function field(json: unknown, key: string): Record<string, unknown> | null {
  if (typeof json !== 'object' || json === null) return null;
  const value = (json as Record<string, unknown>)[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
