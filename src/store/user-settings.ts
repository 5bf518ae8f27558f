import { join } from 'node:path';
import { diagnostic, type Diagnostic } from '../hooks/diagnostic.js';
import { describeValue, isPlainObject } from '../json/describe-value.js';
import { parseJson } from '../json/parse-json.js';
import { errnoCode } from '../io/fs-error.js';
import { readFailureReason, readRegularText } from '../io/read-regular-file.js';
import type { StorePaths } from './store-paths.js';

/** What the user's `<config>/settings.json` asks for (registry.md D1: settings go in config). */
export interface UserSettings {
  /**
   * `{"env": {"pass": ["NAME", ...]}}`: variables handlers get although engine.md X5 would remove
   * them, by exact name.
   */
  passEnv: string[];
  /**
   * `{"log": {"enabled": false, "text": true}}`: whether dispatches are written to the decision log
   * (default true) and whether its lines carry payload and output text (default false;
   * docs/guides/decision-log.md).
   */
  log: { enabled: boolean; text: boolean };
  /**
   * `{"failOpen": true}` or `{"failOpen": ["<plugin id>", ...]}`: what the user prefers to fail open
   * (docs/reference/rules/engine.md#fail-closed): every plugin and hookpm's own state, or the
   * plugins named. Default: nothing (everything fails closed); a file not used fails closed too.
   */
  failOpen: { all: boolean; plugins: string[] };
  /** Why the file was not used (`config_read_failed`); a missing file is no diagnostic. */
  diagnostics: Diagnostic[];
}

const NONE: UserSettings = {
  passEnv: [],
  log: { enabled: true, text: false },
  failOpen: { all: false, plugins: [] },
  diagnostics: [],
};
const MISSING_CODES = new Set(['ENOENT', 'ENOTDIR']);
/** A settings file larger than this is not read (it is a few hundred bytes). */
const SETTINGS_MAX_BYTES = 1024 * 1024;

/** `<config>/settings.json`. */
export function settingsFile(paths: StorePaths): string {
  return join(paths.config, 'settings.json');
}

/**
 * Reads the settings once, synchronously (a dispatch about to start its handlers reads it; it is
 * one small file). A file that cannot be read (or is not a regular file of at most
 * SETTINGS_MAX_BYTES: a FIFO or a device is never waited on), is not strict JSON or has a wrong
 * `env.pass` is not used at all: nothing is passed through (secrets stay removed), nothing fails
 * open, and one `config_read_failed` says why. Keys other than `env.pass` are left for other
 * settings. Checked by hand rather than with zod, which the linked-agent path never loads.
 */
export function readUserSettings(paths: StorePaths): UserSettings {
  const file = settingsFile(paths);
  let text: string;
  try {
    // The user's file, which a dotfiles manager may link: followed, but only to a regular file.
    text = readRegularText(file, { maxBytes: SETTINGS_MAX_BYTES, followSymlink: true });
  } catch (error) {
    if (MISSING_CODES.has(errnoCode(error) ?? '')) return NONE;
    return failed(file, `cannot read ${file}: ${readFailureReason(error)}`);
  }
  const json = parseJson(text, file);
  if (!json.ok)
    return failed(file, `invalid JSON at ${file}:${json.line}:${json.column}: ${json.message}`);
  const problem = checkSettings(json.value);
  if (problem !== null) return failed(file, `${file}: ${problem}`);
  const { env, log, failOpen } = json.value as {
    env?: { pass?: string[] };
    log?: Partial<UserSettings['log']>;
    failOpen?: boolean | string[];
  };
  return {
    passEnv: [...(env?.pass ?? [])],
    log: { enabled: log?.enabled ?? true, text: log?.text ?? false },
    failOpen: {
      all: failOpen === true,
      plugins: Array.isArray(failOpen) ? [...failOpen] : [],
    },
    diagnostics: [],
  };
}

/** What is wrong with the settings document, or null. */
function checkSettings(value: unknown): string | null {
  if (!isPlainObject(value)) return `expected a JSON object, found ${describeValue(value)}`;
  return checkLog(value) ?? checkEnv(value) ?? checkFailOpen(value);
}

/** `failOpen`: true, false, or an array of plugin ids. */
function checkFailOpen(value: Record<string, unknown>): string | null {
  if (!Object.hasOwn(value, 'failOpen')) return null;
  const open = value['failOpen'];
  if (typeof open === 'boolean') return null;
  if (Array.isArray(open) && open.every((id) => typeof id === 'string' && id !== '')) return null;
  return `failOpen must be true, false or an array of plugin ids, found ${describeValue(open)}`;
}

/** `log.enabled` and `log.text`, booleans when given. */
function checkLog(value: Record<string, unknown>): string | null {
  if (!Object.hasOwn(value, 'log')) return null;
  const log = value['log'];
  if (!isPlainObject(log)) return `log must be an object, found ${describeValue(log)}`;
  for (const key of ['enabled', 'text'])
    if (Object.hasOwn(log, key) && typeof log[key] !== 'boolean')
      return `log.${key} must be true or false, found ${describeValue(log[key])}`;
  return null;
}

function checkEnv(value: Record<string, unknown>): string | null {
  if (!Object.hasOwn(value, 'env')) return null;
  const env = value['env'];
  if (!isPlainObject(env)) return `env must be an object, found ${describeValue(env)}`;
  if (!Object.hasOwn(env, 'pass')) return null;
  const pass = env['pass'];
  if (!Array.isArray(pass))
    return `env.pass must be an array of names, found ${describeValue(pass)}`;
  const bad = pass.findIndex((name) => typeof name !== 'string' || !/^[^=\0]+$/.test(name));
  if (bad === -1) return null;
  return `env.pass[${bad}] must be a variable name (no "=", not empty), found ${describeValue(pass[bad])}`;
}

function failed(file: string, message: string): UserSettings {
  return {
    passEnv: [],
    log: NONE.log,
    failOpen: NONE.failOpen,
    diagnostics: [
      diagnostic('config_read_failed', 'warning', `${message}; no variable is passed through`, {
        path: file,
      }),
    ],
  };
}
