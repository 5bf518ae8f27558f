import type { SnapshotHandler } from '../hooks/types.js';
import {
  CLAUDE_PROJECT_DIR,
  PATH_VARIABLES,
  PLUGIN_VARIABLES as PLUGIN_VARIABLE_NAMES,
} from '../plugin/path-variables.js';

/**
 * X5, widened (docs/reference/configuration.md#a-handlers-environment): a variable carries a
 * secret when its upper-cased name contains KEY, TOKEN, SECRET, PASS (PASSWORD, PASSWD,
 * PASSPHRASE, PGPASSFILE, SSHPASS, ..._PASS), PWD (MYSQL_PWD), AUTH but not as the word AUTHOR
 * (GIT_AUTHOR_NAME stays; AUTHORIZATION goes), CRED (CREDENTIALS, CREDS), JWT (CI_JOB_JWT),
 * COOKIE, WEBHOOK (a webhook URL is its own credential) or CONNECTION_STRING; when one of its
 * `_`-separated words starts with SESSION (BW_SESSION, OP_SESSION_x), its last word is PAT (GH_PAT)
 * or one of its words is DSN (SENTRY_DSN); or when it locates a credentials file (KUBECONFIG,
 * DOCKER_CONFIG, NETRC). Written with string searches, not one regular expression: V8 compiles a
 * regular expression at its first two uses, about 0.35 ms for this one at every linked event that
 * runs a handler, more than the searches of a whole environment.
 */
function isSecretName(upper: string): boolean {
  for (const part of SECRET_PARTS) if (upper.includes(part)) return true;
  return (
    hasAuth(upper) ||
    upper.startsWith('SESSION') ||
    upper.includes('_SESSION') ||
    upper === 'PAT' ||
    upper.endsWith('_PAT') ||
    hasWord(upper, 'DSN') ||
    CREDENTIALS_FILES.has(upper)
  );
}

const SECRET_PARTS = [
  'KEY',
  'TOKEN',
  'SECRET',
  'PASS',
  'PWD',
  'CRED',
  'JWT',
  'COOKIE',
  'WEBHOOK',
  'CONNECTION_STRING',
];
const CREDENTIALS_FILES: ReadonlySet<string> = new Set(['KUBECONFIG', 'DOCKER_CONFIG', 'NETRC']);

/** Whether `upper` holds AUTH other than as the word AUTHOR (followed by `_` or the end). */
function hasAuth(upper: string): boolean {
  for (let at = upper.indexOf('AUTH'); at !== -1; at = upper.indexOf('AUTH', at + 1)) {
    const rest = upper.slice(at + 'AUTH'.length);
    if (rest !== 'OR' && !rest.startsWith('OR_')) return true;
  }
  return false;
}

/** Whether `word` is one of the `_`-separated words of `upper`. */
function hasWord(upper: string, word: string): boolean {
  for (let at = upper.indexOf(word); at !== -1; at = upper.indexOf(word, at + 1)) {
    const end = at + word.length;
    if ((at === 0 || upper[at - 1] === '_') && (end === upper.length || upper[end] === '_'))
      return true;
  }
  return false;
}

/**
 * Names that isSecretName matches but that hold no secret and that ordinary tools need, kept on
 * purpose: the working directories (PWD, OLDPWD); sockets and files every program of the desktop
 * session uses and can find anyway (SSH_AUTH_SOCK, for git over ssh; XAUTHORITY;
 * DBUS_SESSION_BUS_ADDRESS, for desktop notifications; SESSION_MANAGER); the names of terminal
 * and desktop sessions (plus every XDG_SESSION_* name, SESSION_PREFIX below); and the session id
 * Claude Code gives its hooks, the payload's `session_id` again (test/agents/claude-code.ts).
 */
const KEPT_NAMES: ReadonlySet<string> = new Set([
  'PWD',
  'OLDPWD',
  'SSH_AUTH_SOCK',
  'XAUTHORITY',
  'DBUS_SESSION_BUS_ADDRESS',
  'SESSION_MANAGER',
  'DESKTOP_SESSION',
  'TERM_SESSION_ID',
  'WT_SESSION',
  'ZELLIJ_SESSION_NAME',
  'CLAUDE_CODE_SESSION_ID',
]);
const SESSION_PREFIX = 'XDG_SESSION_';

/** A URL's `://` and a user part after it (holdsUrlWithUser). */
const AUTHORITY_WITH_USER = /:\/\/[^\s/?#@]+@/g;

/**
 * Whether `value` holds a URL with a user part (`postgres://u:pw@h/db`, `https://token@host`, a
 * proxy with a password) anywhere: a `://` with a user part after it and a scheme before it (a
 * letter, then letters, digits, `+`, `.` or `-`). Each `://` is tried once and its scheme read
 * back to the character before it that no scheme holds, so a value is read in linear time.
 */
function holdsUrlWithUser(value: string): boolean {
  for (const match of value.matchAll(AUTHORITY_WITH_USER)) {
    for (let i = match.index - 1; i >= 0 && /[A-Za-z0-9+.-]/.test(value[i]!); i--)
      if (/[A-Za-z]/.test(value[i]!)) return true;
  }
  return false;
}

/**
 * A value that starts as a well-known kind of credential does: GitHub (ghp_, gho_, ghu_, ghs_,
 * ghr_, github_pat_), GitLab (glpat-), Slack (xoxb- ...), OpenAI and Anthropic (sk-...), AWS
 * access key ids (AKIA...), Google API keys (AIza...), npm (npm_...), PyPI (pypi-), PEM private
 * keys. Tried only on a value that starts with one of CREDENTIAL_HEADS, so that most processes
 * never compile it (the cost told at isSecretName).
 */
const CREDENTIAL_VALUE =
  /^(?:gh[pousr]_[A-Za-z0-9]{20}|github_pat_|glpat-|xox[abposr]-|sk-[A-Za-z0-9_-]{20}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30}|npm_[A-Za-z0-9]{30}|pypi-|-----BEGIN [A-Z ]*PRIVATE KEY-----)/;
/** What every value CREDENTIAL_VALUE matches starts with. */
const CREDENTIAL_HEADS = [
  'gh',
  'github_pat_',
  'glpat-',
  'xox',
  'sk-',
  'AKIA',
  'AIza',
  'npm_',
  'pypi-',
  '-----',
];

/** X5: whether `name=value` carries a secret, by the rules above. */
export function isSecret(name: string, value: string): boolean {
  if (isSecretName(name.toUpperCase()) && !KEPT_NAMES.has(name) && !name.startsWith(SESSION_PREFIX))
    return true;
  if (value.length < 8) return false;
  return (
    (value.includes('://') && value.includes('@') && holdsUrlWithUser(value)) ||
    (CREDENTIAL_HEADS.some((head) => value.startsWith(head)) && CREDENTIAL_VALUE.test(value))
  );
}

/** The variables a plugin's handlers get (docs/reference/rules/plugins.md#variables); no other handler may inherit them. */
const PLUGIN_VARIABLES: ReadonlySet<string> = new Set(PLUGIN_VARIABLE_NAMES);

/** The names `${NAME}` may refer to in argv (plugins.md V2, engine.md X3). */
const ARGV_VARIABLES: ReadonlySet<string> = new Set(PATH_VARIABLES);

/**
 * X5: the environment minus every variable that carries a secret (isSecret), except the names in
 * `pass`, which the user asked to pass through (`env.pass` of settings.json; exact names). Unset
 * (undefined) entries are dropped too, so the result can be handed to a spawn. The result is read
 * only: FILTERED trusts it to hold what was filtered.
 */
export function filterEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  pass: readonly string[] = [],
): Readonly<Record<string, string>> {
  const kept = copyEnvironment(env, pass, false);
  FILTERED.set(kept, pass);
  return kept;
}

/**
 * The results of filterEnvironment (read only, so never changed afterwards) with the `pass` each
 * was filtered with: handlerEnvironment copies one filtered with the same names without testing
 * each variable again (about 0.1 ms a handler).
 */
const FILTERED = new WeakMap<object, readonly string[]>();

function filteredWith(env: object, pass: readonly string[]): boolean {
  const was = FILTERED.get(env);
  return was !== undefined && was.length === pass.length && was.every((n, i) => n === pass[i]);
}

/**
 * One pass over `env` (for-in with one read per name: each read of a live process environment is a
 * native call, and this runs once per handler); `secrets`: whether to test each variable (X5).
 */
function copyEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  pass: readonly string[],
  dropPluginVariables: boolean,
  secrets = true,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name in env) {
    const value = env[name];
    if (value === undefined) continue;
    if (secrets && isSecret(name, value) && !pass.includes(name)) continue;
    if (dropPluginVariables && PLUGIN_VARIABLES.has(name)) continue;
    kept[name] = value;
  }
  return kept;
}

/**
 * The full environment of one handler (X5, docs/reference/rules/plugins.md#variables): the filtered
 * base (less secrets, the names in `pass` kept), without any inherited plugin variable (a host
 * running inside another plugin must not leak its own), plus CLAUDE_PROJECT_DIR for every handler,
 * plus the handler's own plugin variables.
 */
export function handlerEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  handler: Pick<SnapshotHandler, 'pluginEnv'>,
  projectDir: string,
  pass: readonly string[] = [],
): Record<string, string> {
  const env = copyEnvironment(base, pass, true, !filteredWith(base, pass));
  env[CLAUDE_PROJECT_DIR] = projectDir;
  for (const name in handler.pluginEnv) env[name] = handler.pluginEnv[name] as string;
  return env;
}

/** The values `${NAME}` in argv is replaced with: the plugin variables and CLAUDE_PROJECT_DIR. */
export function argvVariables(
  handler: Pick<SnapshotHandler, 'pluginEnv'>,
  projectDir: string,
): Record<string, string> {
  return { ...handler.pluginEnv, [CLAUDE_PROJECT_DIR]: projectDir };
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
