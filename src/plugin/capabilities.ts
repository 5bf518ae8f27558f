import { z } from '../json/zod.js';
import { clip } from '../text/clip.js';

/**
 * Declared capabilities (docs/reference/rules/security.md#confinement, Z1-Z3): what a plugin's
 * handlers may do, held by the operating system when they run. `network: false` runs them without
 * a network; `write` names the only places they may write: `data` (CLAUDE_PLUGIN_DATA), `project`
 * (CLAUDE_PROJECT_DIR) and `tmp` (a private temporary folder, TMPDIR).
 */
export const WRITE_PLACES = ['data', 'project', 'tmp'] as const;
export type WritePlace = (typeof WRITE_PLACES)[number];

export interface Capabilities {
  network: boolean;
  /** Sorted in WRITE_PLACES order, no repeats. */
  write: WritePlace[];
}

export const CapabilitiesSchema = z.strictObject({
  network: z.boolean(),
  write: z.array(z.enum(WRITE_PLACES)),
});

/** The manifest's field as declared, made canonical (places sorted, no repeats). */
export function normalizeCapabilities(declared: {
  network: boolean;
  write: readonly WritePlace[];
}): Capabilities {
  return {
    network: declared.network,
    write: WRITE_PLACES.filter((place) => declared.write.includes(place)),
  };
}

/** Z2: `after` allows something `before` did not (a network, or one more place to write). */
export function widensCapabilities(
  before: Capabilities | null,
  after: Capabilities | null,
): boolean {
  if (after === null) return before !== null; // dropping the declaration runs unconfined
  if (before === null) return false;
  return (after.network && !before.network) || after.write.some((p) => !before.write.includes(p));
}

/**
 * Z4: what a handler is held to: the plugin's declaration, narrowed by what the user asked with
 * `enable --confine`; null when neither confines it (it runs as before, unconfined).
 */
export function effectiveConfinement(
  declared: Capabilities | null,
  confine: Capabilities | null,
): Capabilities | null {
  if (declared === null) return confine;
  if (confine === null) return declared;
  return {
    network: declared.network && confine.network,
    write: declared.write.filter((place) => confine.write.includes(place)),
  };
}

/**
 * `enable --confine network=false,write=data+tmp` (commas between keys; `+` or `:` between places;
 * `write=` or `write=none` for no place). Returns the capabilities or why the text is not one.
 */
export function parseConfineSpec(text: string): Capabilities | { error: string } {
  let network: boolean | null = null;
  let write: WritePlace[] | null = null;
  for (const part of text.split(',').map((p) => p.trim())) {
    const [key, value = ''] = part.split('=', 2).map((s) => s.trim());
    // A key given twice has no one reading (the last would lift what the first holds).
    if ((key === 'network' && network !== null) || (key === 'write' && write !== null))
      return { error: `${key} is given twice` };
    if (key === 'network' && (value === 'false' || value === 'true')) network = value === 'true';
    else if (key === 'write') {
      const places = value === '' || value === 'none' ? [] : value.split(/[+:]/);
      const bad = places.find((p) => !(WRITE_PLACES as readonly string[]).includes(p));
      if (bad !== undefined)
        return {
          error: `unknown place ${JSON.stringify(clip(bad))} (expected ${WRITE_PLACES.join(', ')})`,
        };
      write = places as WritePlace[];
    } else return { error: `cannot read ${JSON.stringify(clip(part))}` };
  }
  if (network === null) return { error: 'network=false or network=true is required' };
  return normalizeCapabilities({ network, write: write ?? [] });
}

/** One line for review and the marketplace page: `network: none; writes: data, tmp`. */
export function describeCapabilities(capabilities: Capabilities | null): string {
  if (capabilities === null)
    return "undeclared: its hooks run unconfined, with all of the user's rights";
  const writes = capabilities.write.length === 0 ? 'nowhere' : capabilities.write.join(', ');
  return `network: ${capabilities.network ? 'any' : 'none'}; writes: ${writes}`;
}

/**
 * Z8, for a policy that requires confinement (`{"sandbox": {"require": true}}`): whether a plugin
 * declares capabilities, or the user confined it with `enable --confine`.
 */
export function isDeclaredOrConfined(plugin: {
  capabilities: Capabilities | null;
  confine?: Capabilities | null | undefined;
}): boolean {
  return plugin.capabilities !== null || (plugin.confine ?? null) !== null;
}
