import type { Agent } from './agent.js';
import { isPlainObject } from '../json/describe-value.js';
import { parseLinkCommand } from './link-command.js';
import { GEMINI_EVENT_OF, GEMINI_EVENTS_NOT_LINKED } from './gemini-names.js';
import { encodeGeminiOutput } from './gemini-output.js';
import { decodeGeminiPayload } from './gemini-payload.js';

/**
 * Gemini CLI: the `hooks` of `~/.gemini/settings.json` (below GEMINI_CLI_HOME when set:
 * `Storage.getGlobalGeminiDir` and `homedir` in packages/core of github:google-gemini/gemini-cli),
 * project `<root>/.gemini/settings.json`, which Gemini CLI reads only in a trusted folder. Handler
 * timeouts are milliseconds there. `hooks.enabled`, `hooks.disabled` and `hooks.notifications`
 * are settings, not events (`HOOKS_CONFIG_FIELDS` in packages/core/src/hooks/types.ts). Hooks are
 * turned off by `hooksConfig` (0.61.0: `enabled: false` for all of them; `disabled` lists the
 * hooks it skips, by `name`, else by `command`; hookpm's handler has no name).
 */
export const GEMINI: Agent = {
  id: 'gemini',
  name: 'Gemini CLI',
  settingsFile: ['.gemini', 'settings.json'],
  homeEnv: { name: 'GEMINI_CLI_HOME', file: ['.gemini', 'settings.json'] },
  events: Object.values(GEMINI_EVENT_OF),
  settingsEvents: Object.keys(GEMINI_EVENT_OF),
  eventsNotLinked: GEMINI_EVENTS_NOT_LINKED,
  hooksConfigKeys: ['enabled', 'disabled', 'notifications'],
  timeoutPerSecond: 1000,
  linkTimeoutCaps: {},
  trustNote: (scope) =>
    scope === 'project'
      ? 'Gemini CLI runs project hooks only in a trusted folder, and warns once about new ones.'
      : null,
  hooksOff: (settings) => {
    const config = settings['hooksConfig'];
    if (!isPlainObject(config)) return null;
    if (config['enabled'] === false)
      return '`hooksConfig.enabled` is false, so Gemini CLI runs no hook';
    const disabled = config['disabled'];
    if (Array.isArray(disabled) && disabled.some((name) => parseLinkCommand(name) !== null))
      return "`hooksConfig.disabled` lists hookpm's handler, so Gemini CLI skips it";
    return null;
  },
  decode: decodeGeminiPayload,
  encode: encodeGeminiOutput,
};
