import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'ini';
import { HookpmError } from '../../errors.js';
import { readRegularText } from '../../io/read-regular-file.js';
import { clip } from '../../text/clip.js';
import { EnvExpansionTooLarge, replaceEnv, type NpmConfig, type NpmrcLayer } from './npm-config.js';

export interface NpmConfigOptions {
  /** The environment (npm_config_* variables, HOME, `${VAR}` substitution). */
  env: Readonly<Record<string, string | undefined>>;
  /** Where the project `.npmrc` is looked for (see projectRoot). */
  cwd: string;
  /** False: the project `.npmrc` is not read, only the variables, the user and global files. */
  project?: boolean;
}

/**
 * The largest `.npmrc` read; a bigger file is ignored like an unreadable one, and so is one that
 * is not a regular file once symlinks are followed (a FIFO, `/dev/zero`, a directory). The bytes
 * read are what is counted, not the size the file claims (a `/proc` file claims none). Its
 * `${VAR}` substitutions may bring in as much again; a file whose substitutions bring in more is
 * ignored too.
 */
const NPMRC_MAX_BYTES = 1024 * 1024;

/**
 * npm's configuration read the way npm reads it (docs/reference/rules/registry.md#k4), without
 * running npm: `npm_config_*` variables (case-insensitive; `_` after the first character is `-`;
 * a nerf-darted `npm_config_//host/:_authToken` keeps its key as written, as npm keeps it),
 * then the project `.npmrc` (in the nearest directory above `cwd` holding a package.json or a
 * node_modules, else `cwd`), then the user file (`npm_config_userconfig`, else `~/.npmrc`), then
 * the global file (`globalconfig`, else `<prefix>/etc/npmrc`, the prefix being `prefix` or the
 * directory above the one holding node; both from `npm_config_*`, else the user file, as npm
 * places it; never from the project file). Files are ini (npm's own parser); `${VAR}` in keys
 * and values is replaced from `env` as npm does (`${VAR?}` is empty when unset, an unset `${VAR}`
 * stays as written, `\${VAR}` is literal). A missing or unreadable file is an empty layer;
 * variables whose substitutions bring in too much are E_CONFIG (envValues). Values are kept in
 * memory only: never written, logged or printed.
 */
export async function readNpmConfig(opts: NpmConfigOptions): Promise<NpmConfig> {
  const env = opts.env;
  const envLayer: NpmrcLayer = { source: 'env', values: envValues(env) };
  const pick = (key: string): string | undefined => envLayer.values[key];
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  const userFile = resolve(opts.cwd, expandHome(pick('userconfig') ?? join(home, '.npmrc'), home));
  const projectFile = join(await projectRoot(opts.cwd), '.npmrc');
  const layers: NpmrcLayer[] = [envLayer];
  if (opts.project !== false && projectFile !== userFile)
    layers.push(await fileLayer('project', projectFile, env));
  const userLayer = await fileLayer('user', userFile, env);
  layers.push(userLayer);
  // As npm: the environment's, else the user file's `globalconfig`, else `<prefix>/etc/npmrc`
  // with their `prefix`. A project file places no file of the user's.
  const placing = (key: string): string | undefined => {
    const value = pick(key) ?? userLayer.values[key];
    return value === undefined || value === '' ? undefined : value;
  };
  const prefix = expandHome(placing('prefix') ?? dirname(dirname(process.execPath)), home);
  const globalFile = resolve(
    opts.cwd,
    expandHome(placing('globalconfig') ?? join(prefix, 'etc', 'npmrc'), home),
  );
  if (globalFile !== userFile) layers.push(await fileLayer('global', globalFile, env));
  return {
    layers,
    get(key) {
      for (const layer of layers) {
        if (Object.hasOwn(layer.values, key)) return layer.values[key];
      }
      return undefined;
    },
  };
}

/** npm's local prefix: the nearest directory from `cwd` up with a package.json or node_modules. */
export async function projectRoot(cwd: string): Promise<string> {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if ((await exists(join(dir, 'package.json'))) || (await exists(join(dir, 'node_modules'))))
      return dir;
    if (dirname(dir) === dir) return start;
  }
}

/**
 * The `npm_config_*` variables as npm's keys: a nerf-darted one (`npm_config_//host/:_authToken`)
 * as written, any other in lower case with `_` after the first character read as `-`; values
 * trimmed and `${VAR}` in keys and values replaced as in a file, within the same budget. Past it,
 * E_CONFIG naming the variable: they are the user's own settings (the registry, its credentials),
 * which hookpm never drops without a word, where a file may come with a cloned project.
 */
function envValues(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  const budget = { left: NPMRC_MAX_BYTES };
  for (const [name, value] of Object.entries(env)) {
    if (!/^npm_config_/i.test(name) || value === undefined || value === '') continue;
    const raw = name.slice('npm_config_'.length);
    const key = raw.startsWith('//') ? raw : raw.replace(/(?!^)_/g, '-').toLowerCase();
    try {
      values[replaceEnv(key, env, budget)] = replaceEnv(value.trim(), env, budget);
    } catch (error) {
      if (!(error instanceof EnvExpansionTooLarge)) throw error;
      throw expansionTooLarge(name);
    }
  }
  return values;
}

/** E_CONFIG for the variable whose `${VAR}` substitutions passed the budget; never its value. */
function expansionTooLarge(name: string): HookpmError {
  const variable = clip(name);
  const most = `1 MiB (${NPMRC_MAX_BYTES.toLocaleString('en-US')} characters)`;
  return new HookpmError(
    'E_CONFIG',
    `npm_config_* variables: their \${VAR} substitutions bring in more than ${most} in all, the most hookpm reads, passed at ${variable}`,
    {
      variable,
      hint: 'Unset or shorten the npm_config_* variables that name a large environment variable in ${...}.',
    },
  );
}

async function fileLayer(
  source: 'project' | 'user' | 'global',
  file: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<NpmrcLayer> {
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  const text = readSmall(file);
  if (text === null) return { source, file, values };
  const budget = { left: NPMRC_MAX_BYTES };
  try {
    for (const [key, value] of Object.entries(parse(text))) {
      if (typeof value !== 'string' && typeof value !== 'boolean' && typeof value !== 'number')
        continue; // sections and arrays name nothing hookpm reads
      values[replaceEnv(key, env, budget)] = replaceEnv(unquote(String(value)), env, budget);
    }
  } catch (error) {
    if (!(error instanceof EnvExpansionTooLarge)) throw error;
    return { source, file, values: Object.create(null) as Record<string, string> };
  }
  return { source, file, values };
}

/** npm reads a value in double quotes as JSON. */
function unquote(value: string): string {
  const trimmed = value.trim();
  if (!/^".*"$/.test(trimmed)) return trimmed;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return typeof parsed === 'string' ? parsed : trimmed;
  } catch {
    return trimmed;
  }
}

function readSmall(file: string): string | null {
  try {
    return readRegularText(file, { maxBytes: NPMRC_MAX_BYTES, followSymlink: true });
  } catch {
    return null;
  }
}

function expandHome(path: string, home: string): string {
  return path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
