import { z } from '../../json/zod.js';
import { STATE_VERSION } from './state-version.js';

export { STATE_VERSION } from './state-version.js';

/*
 * Every object of the state is strict: a field this hookpm does not know (written by a newer one, or
 * by hand) is E_STATE_CORRUPT rather than dropped at the next write (D6). The keys of `plugins`,
 * `registries` and `knownIntegrity` are checked on the raw document (state-keys.ts), because zod
 * drops a `__proto__` key without a word.
 */
const registrySchema = z.strictObject({
  location: z.string().check(z.minLength(1)),
  kind: z.enum(['index', 'marketplace', 'npm']),
  addedAt: z.string(),
});

const consentSchema = z.strictObject({
  surfaceHash: z.string().check(z.minLength(1)),
  at: z.string(),
  /** The plugin version the consent was given for. */
  version: z.string().check(z.minLength(1)),
  /**
   * Z4 (security.md#confinement): the confinement the user gave with the consent (`hookpm enable
   * <plugin> --confine ...`); absent: none beyond the plugin's declared capabilities.
   */
  confine: z.optional(
    z.strictObject({ network: z.boolean(), write: z.array(z.enum(['data', 'project', 'tmp'])) }),
  ),
});

/** plugins.md Q5: an installed update that waits for consent to its widened surface. */
const pendingSchema = z.strictObject({
  version: z.string().check(z.minLength(1)),
  path: z.string().check(z.minLength(1)),
  integrity: z.string().check(z.minLength(1)),
  fingerprint: z.string().check(z.minLength(1)),
  surfaceHash: z.string().check(z.minLength(1)),
  events: z.array(z.string()),
  source: z.string(),
  /** policy.md A12: the location its registry had when this version was installed (pluginSchema). */
  registryLocation: z.optional(z.string().check(z.minLength(1))),
});

/**
 * docs/reference/commands.md#rollback: the version that was active (a pending update's fields),
 * its consent and the hooks the user turned off in it, before the last update made another version
 * active; its tree stays in the store until the next update. `disabledHooks` is optional: absent
 * means none, so state files without it load.
 */
const previousSchema = z.strictObject({
  ...pendingSchema.shape,
  consent: consentSchema,
  disabledHooks: z.optional(z.array(z.string())),
});

const pluginSchema = z.strictObject({
  id: z.string().check(z.minLength(1)),
  name: z.string().check(z.minLength(1)),
  registry: z.string().check(z.minLength(1)),
  version: z.string().check(z.minLength(1)),
  /** The spec, path or URL it was installed from. */
  source: z.string(),
  /**
   * policy.md A12: the location (URL or directory) its registry had when the installed version was
   * installed from it, which the policy judges it by from then on, whatever the name points at
   * later. Optional: absent for a registry with no location (`local`, `npm`) and in records written
   * before it existed, which are judged by the registry's location of now.
   */
  registryLocation: z.optional(z.string().check(z.minLength(1))),
  /** The range the user asked for, used by `hookpm update`. */
  range: z.string(),
  integrity: z.string().check(z.minLength(1)),
  /** plugins.md Q6: the files fingerprint of the installed tree. */
  fingerprint: z.string().check(z.minLength(1)),
  /** The installed tree (absolute). */
  path: z.string().check(z.minLength(1)),
  enabled: z.boolean(),
  /** When the plugin was first installed (ISO 8601); kept by updates and reinstalls. */
  installedAt: z.string(),
  /**
   * When the installed version or files last changed (install, update, reinstall, or enabling a
   * pending update). Optional: a state written before it existed loads, and shows installedAt.
   */
  updatedAt: z.optional(z.string()),
  consent: z.nullable(consentSchema),
  surfaceHash: z.string().check(z.minLength(1)),
  events: z.array(z.string()),
  pending: z.nullable(pendingSchema),
  /**
   * The keys of the hooks the user turned off (`hookpm disable <plugin> --hook <key>`; keys as in
   * plugin/hook-key.ts), sorted. Optional: absent means none, so state files without it load.
   */
  disabledHooks: z.optional(z.array(z.string())),
  /**
   * plugins.md D15: `install --link <dir>`: `path` is the directory itself, read in place; the
   * tamper check (Q6) does not apply, consent to its surface does. Absent: an installed copy.
   */
  linked: z.optional(z.literal(true)),
  /**
   * registry.md D13: a project's plugin this user disabled without consent to it (never given, or
   * dropped by a version widening what was consented): `ci`, `install` and `update --project`
   * still leave it off, asking nothing, until `enable --project` (which asks) clears it. Absent
   * otherwise.
   */
  keptOff: z.optional(z.literal(true)),
  /** `hookpm rollback`'s version (previousSchema). Optional: absent before the first update. */
  previous: z.optional(previousSchema),
});

/** Projects (docs/guides/projects.md): one project's plugins (state.projects). */
const projectSchema = z.strictObject({
  plugins: z.record(z.string(), pluginSchema),
});

/**
 * registry.md D2: the state document, parsed once here (STYLE rule 4). Unknown fields are errors.
 * readQuickState (read-state-fast.ts) checks the same without loading zod; a change here needs the
 * same change there, and test/store/read-state-fast.test.ts fails until it has it.
 */
export const stateSchema = z
  .strictObject({
    version: z.literal(STATE_VERSION),
    registries: z.record(z.string(), registrySchema),
    plugins: z.record(z.string(), pluginSchema),
    /** Built-in registries (`examples`) the user removed; absent means none was removed. */
    removedDefaults: z.optional(z.array(z.string())),
    /**
     * V3: the integrity each registry version was installed with, `knownIntegrity[id][version]`.
     * It outlives the plugin (an uninstall keeps it), so a registry that later serves other bytes
     * for that version is refused on a reinstall too. Absent in a state written before it existed.
     */
    knownIntegrity: z.optional(
      z.record(z.string(), z.record(z.string(), z.string().check(z.minLength(1)))),
    ),
    /**
     * Projects (docs/guides/projects.md): the plugins each project runs, keyed by the project's
     * canonical root (the real path of its S2 root, workspace/canonical-root.ts). A project's
     * record is like a user-wide one (its trees in the same shared store) but runs only in that
     * project; `range` is what hookpm.json asks for, and `pending` is always null (the lock, not an
     * update, decides the version). Absent in a state written before projects existed, or with
     * none.
     */
    projects: z.optional(z.record(z.string(), projectSchema)),
  })
  .check(
    z.superRefine((state, ctx) => {
      for (const [key, plugin] of Object.entries(state.plugins)) {
        if (plugin.id !== key) {
          ctx.addIssue({
            code: 'custom',
            path: ['plugins', key, 'id'],
            message: `id ${JSON.stringify(plugin.id)} differs from its key`,
          });
        }
      }
      for (const [root, project] of Object.entries(state.projects ?? {})) {
        for (const [key, plugin] of Object.entries(project.plugins)) {
          if (plugin.id !== key) {
            ctx.addIssue({
              code: 'custom',
              path: ['projects', root, 'plugins', key, 'id'],
              message: `id ${JSON.stringify(plugin.id)} differs from its key`,
            });
          }
        }
      }
    }),
  );

export type State = z.infer<typeof stateSchema>;
export type RegistryRecord = State['registries'][string];
export type PluginRecord = State['plugins'][string];
export type RegistryKind = RegistryRecord['kind'];
export type ProjectRecord = NonNullable<State['projects']>[string];

/** The state of a store that has never been written. */
export function emptyState(): State {
  return { version: STATE_VERSION, registries: {}, plugins: {} };
}
