import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The plugin folders of ../shared/corpus and what corpus/INDEX.md says about them, shared by the
 * conformance tests (plugins.test.ts reads each folder, review.test.ts reviews it, install.test.ts
 * installs it). EXCEPTIONS explains, rule by rule, every event INDEX.md lists that hookpm does not
 * load.
 */
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CORPUS = resolve(REPO, '../shared/corpus');

/** A folder is a plugin folder when it has one of these (the last is reported, not read: P1). */
export const PLUGIN_MARKERS = [
  'plugin.json',
  '.claude-plugin/plugin.json',
  'hooks',
  'claude-plugin/plugin.json',
];

export const ASYNC =
  'its handlers are all `async: true`, which is invalid_config (engine.md section 3)';

/** Events INDEX.md lists that hookpm does not load, and the rule that says so. */
export const EXCEPTIONS: Readonly<Record<string, { missing: string[]; reason: string }>> = {
  'EveryInc__compound-engineering-plugin__fixture-custom-paths': {
    missing: ['PostToolUse'],
    reason:
      'P1: claude-plugin/plugin.json (no dot) is not a manifest, so its `./custom-hooks/hooks.json` is not read (warning ignored_manifest)',
  },
  'EveryInc__compound-engineering-plugin__fixture-sample-plugin': {
    missing: ['PostToolUse'],
    reason: 'P4: its PostToolUse handlers are type "prompt" and "agent", which stay inert',
  },
  'Yeachan-Heo__oh-my-claudecode__oh-my-claudecode': {
    missing: ['SessionEnd'],
    reason: `SessionEnd: ${ASYNC}`,
  },
  'affaan-m__everything-claude-code__everything-claude-code': {
    missing: ['SessionEnd'],
    reason: `SessionEnd: ${ASYNC}`,
  },
  'npm__selfish-pipeline__selfish': { missing: ['Notification'], reason: `Notification: ${ASYNC}` },
  'thedotmack__claude-mem__plugin': {
    missing: ['PostToolUse', 'PreToolUse', 'Stop'],
    reason: `PostToolUse, PreToolUse and Stop: ${ASYNC}`,
  },
  'Yeachan-Heo__oh-my-claudecode__oh-my-claudecode_at_bf2f98d': {
    missing: ['Stop', 'UserPromptSubmit'],
    reason:
      'H2: the manifest path "../hooks/hooks.json" has a ".." segment; C2: hooks/hooks.json has its events at the top level, without the "hooks" object',
  },
  obra__superpowers__superpowers_at_1af9f57: {
    missing: ['PreCompact'],
    reason: 'P4: its only PreCompact handler is type "agent", which stays inert',
  },
  obra__superpowers__superpowers_at_4b3aff5: {
    missing: ['SessionStart'],
    reason: 'P4: its only handler is type "shell" with no command, which stays inert',
  },
  'wshobson__agents__protect-mcp_at_da311bf': {
    missing: ['PostToolUse', 'PreToolUse'],
    reason:
      'C1: every group uses a singular "hook" object instead of a "hooks" array, so every group is invalid',
  },
};

export function pluginFolders(): string[] {
  return readdirSync(CORPUS)
    .filter((folder) => PLUGIN_MARKERS.some((marker) => existsSync(join(CORPUS, folder, marker))))
    .sort();
}

/** The engine events of a folder's INDEX.md line, sorted; `—` is none. */
export function indexedEvents(index: string, folder: string): string[] {
  const line = index.split('\n').find((l) => l.startsWith(`- **${folder}**`));
  if (line === undefined) throw new Error(`${folder} has no line in INDEX.md`);
  const listed = /— events: (.*?) — quirks/.exec(line)?.[1];
  if (listed === undefined) throw new Error(`${folder}: no events column in INDEX.md`);
  if (listed === '—') return [];
  return listed
    .split(', ')
    .filter((event) => !/[†‡]/.test(event))
    .sort();
}
