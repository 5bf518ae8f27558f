import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildSurface } from '../../src/plugin/surface.js';
import { readPluginDir } from '../../src/store/read-plugin.js';

/**
 * Conformance over the real plugin folders of ../shared/corpus (plugins.md P1-P4, H1-H5, Q1):
 * reading a folder and building its surface never throws, and yields engine events or a
 * diagnostic naming a file. The events are compared with the `events` column of corpus/INDEX.md
 * (without the `†`/`‡` names, which are outside the engine); where the spec makes hookpm load
 * less than the column lists, EXCEPTIONS says which events are missing and why.
 */
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CORPUS = resolve(REPO, '../shared/corpus');

/** A folder is a plugin folder when it has one of these (the last is reported, not read: P1). */
const PLUGIN_MARKERS = [
  'plugin.json',
  '.claude-plugin/plugin.json',
  'hooks',
  'claude-plugin/plugin.json',
];

const ASYNC = 'its handlers are all `async: true`, which is invalid_config (engine.md section 3)';

/** Events INDEX.md lists that hookpm does not load, and the rule that says so. */
const EXCEPTIONS: Readonly<Record<string, { missing: string[]; reason: string }>> = {
  'aws__agent-toolkit-for-aws__aws-core': {
    missing: ['PreToolUse'],
    reason:
      'P1: the root plugin.json is the manifest and has no `hooks` (its path sits under extensions["com.anthropic.claude-code"]); the hooks path in .claude-plugin/plugin.json is ignored with a warning',
  },
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

function pluginFolders(): string[] {
  return readdirSync(CORPUS)
    .filter((folder) => PLUGIN_MARKERS.some((marker) => existsSync(join(CORPUS, folder, marker))))
    .sort();
}

/** The engine events of a folder's INDEX.md line, sorted; `—` is none. */
function indexedEvents(index: string, folder: string): string[] {
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

describe('corpus plugins', () => {
  const index = readFileSync(join(CORPUS, 'INDEX.md'), 'utf8');
  const folders = pluginFolders();

  it('every plugin line of INDEX.md is a plugin folder this test reads', () => {
    const listed = [...index.matchAll(/^- \*\*([^*]+)\*\* .*— events: /gm)]
      .map((m) => m[1]!)
      .sort();
    expect(listed.length).toBeGreaterThan(50);
    expect(folders).toEqual(listed);
    for (const folder of Object.keys(EXCEPTIONS)) expect(folders).toContain(folder);
  });

  it.each(folders)(
    'P4, H4, Q1: %s loads or says which file is wrong, never throws',
    async (folder) => {
      const plugin = await readPluginDir(join(CORPUS, folder));
      const surface = buildSurface(plugin);
      const named = plugin.diagnostics.filter(
        (d) => typeof d.path === 'string' && d.path.length > 0,
      );
      expect(surface.events.length > 0 || named.length > 0).toBe(true);
      for (const entry of surface.entries) {
        if (!entry.valid)
          expect(entry.diagnostic, `${folder}: ${entry.event}`).toBeTypeOf('string');
      }
      for (const document of plugin.documents) {
        expect(plugin.documents.filter((d) => d.source === document.source)).toHaveLength(1);
      }
      const expected = indexedEvents(index, folder);
      const exception = EXCEPTIONS[folder];
      const wanted = expected.filter((event) => !(exception?.missing ?? []).includes(event));
      expect([...surface.events].sort(), exception?.reason).toEqual(wanted);
      if (exception !== undefined) {
        for (const event of exception.missing)
          expect(expected, 'exception lists an event INDEX.md has').toContain(event);
      }
    },
  );
});
