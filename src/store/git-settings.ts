import { isPlainObject } from '../json/describe-value.js';
import { parseJson } from '../json/parse-json.js';
import { readRegularText } from '../io/read-regular-file.js';
import type { StorePaths } from './store-paths.js';
import { settingsFile } from './user-settings.js';

/** settings.json's `git` object as far as it is valid (docs/reference/configuration.md#private-registries-and-git-hosts). */
export interface GitSettings {
  /** `git.headersHelper`: a shell command printing a JSON object of HTTP headers. */
  headersHelper?: string;
  /** `git.hosts`: `{"github": [...], "gitlab": [...], "bitbucket": [...]}`, hosts as `host[:port]`. */
  hosts?: Partial<Record<'github' | 'gitlab' | 'bitbucket', string[]>>;
}

const SETTINGS_MAX_BYTES = 1024 * 1024;
const KINDS = ['github', 'gitlab', 'bitbucket'] as const;

/**
 * The `git` settings of `<config>/settings.json` for clones (registry.md K6). A missing, unreadable
 * or invalid file, or a `git` value of the wrong shape, gives no settings: no helper runs and only
 * the built-in hosts get tokens (readUserSettings reports a broken file).
 */
export function readGitSettings(paths: StorePaths): GitSettings {
  let text: string;
  try {
    text = readRegularText(settingsFile(paths), {
      maxBytes: SETTINGS_MAX_BYTES,
      followSymlink: true,
    });
  } catch {
    return {};
  }
  const json = parseJson(text, 'settings.json');
  if (!json.ok || !isPlainObject(json.value)) return {};
  const git = json.value['git'];
  if (!isPlainObject(git)) return {};
  const out: GitSettings = {};
  const helper = git['headersHelper'];
  if (typeof helper === 'string' && helper.trim() !== '') out.headersHelper = helper;
  const hosts = git['hosts'];
  if (isPlainObject(hosts)) {
    const picked: NonNullable<GitSettings['hosts']> = {};
    for (const kind of KINDS) {
      const list = hosts[kind];
      if (
        Array.isArray(list) &&
        list.every((h) => typeof h === 'string' && /^[a-z0-9.:[\]-]+$/i.test(h))
      )
        picked[kind] = [...(list as string[])];
    }
    out.hosts = picked;
  }
  return out;
}
