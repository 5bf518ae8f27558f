import type { SnapshotHandler } from '../hooks/types.js';

/** Upper-cased name fragments that mark a variable as a secret (engine.md X5). */
const SECRET_MARKERS = /KEY|TOKEN|SECRET|PASSWORD/;

/** The variables a plugin's handlers get (plugins.md section 3); no other handler may inherit them. */
const PLUGIN_VARIABLES: ReadonlySet<string> = new Set([
  'CLAUDE_PLUGIN_ROOT',
  'PLUGIN_ROOT',
  'CLAUDE_PLUGIN_DATA',
  'PLUGIN_DATA',
]);

/** The names `${NAME}` may refer to in argv (plugins.md V2, engine.md X3). */
const ARGV_VARIABLES: ReadonlySet<string> = new Set([...PLUGIN_VARIABLES, 'CLAUDE_PROJECT_DIR']);

/**
 * X5: the environment minus every variable whose upper-cased name contains KEY, TOKEN, SECRET or
 * PASSWORD. Unset (undefined) entries are dropped too, so the result can be handed to a spawn.
 */
export function filterEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  return copyEnvironment(env, false);
}

/**
 * One pass over `env` (for-in with one read per name: each read of a live process environment is a
 * native call, and this runs once per handler).
 */
function copyEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  dropPluginVariables: boolean,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name in env) {
    const value = env[name];
    if (value === undefined || SECRET_MARKERS.test(name.toUpperCase())) continue;
    if (dropPluginVariables && PLUGIN_VARIABLES.has(name)) continue;
    kept[name] = value;
  }
  return kept;
}

/**
 * The full environment of one handler (X5, plugins.md section 3): the filtered base, without any
 * inherited plugin variable (a host running inside another plugin must not leak its own), plus
 * CLAUDE_PROJECT_DIR for every handler, plus the handler's own plugin variables.
 */
export function handlerEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  handler: Pick<SnapshotHandler, 'pluginEnv'>,
  projectDir: string,
): Record<string, string> {
  const env = copyEnvironment(base, true);
  env.CLAUDE_PROJECT_DIR = projectDir;
  for (const name in handler.pluginEnv) env[name] = handler.pluginEnv[name] as string;
  return env;
}

/** The values `${NAME}` in argv is replaced with: the plugin variables and CLAUDE_PROJECT_DIR. */
export function argvVariables(
  handler: Pick<SnapshotHandler, 'pluginEnv'>,
  projectDir: string,
): Record<string, string> {
  return { ...handler.pluginEnv, CLAUDE_PROJECT_DIR: projectDir };
}

/**
 * V2 / X3: replaces each literal `${NAME}` whose NAME is one of CLAUDE_PLUGIN_ROOT, PLUGIN_ROOT,
 * CLAUDE_PLUGIN_DATA, PLUGIN_DATA, CLAUDE_PROJECT_DIR and has a value in `vars`. A bare `$NAME`,
 * any other `${X}`, a known name without a value, and every other shell syntax stay literal. One
 * pass: a substituted value is never expanded again.
 */
export function substituteArgv(
  argv: readonly string[],
  vars: Readonly<Record<string, string>>,
): string[] {
  return argv.map((element) =>
    element.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (literal, name: string) => {
      const value = ARGV_VARIABLES.has(name) ? vars[name] : undefined;
      return value ?? literal;
    }),
  );
}
