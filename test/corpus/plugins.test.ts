import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isClaudeCodeEvent } from '../../src/hooks/events.js';
import { buildSurface } from '../../src/plugin/surface.js';
import { readPluginDir } from '../../src/store/read-plugin.js';
import { CORPUS, EXCEPTIONS, indexedEvents, pluginFolders } from './corpus-plugins.js';

/**
 * Conformance over the real plugin folders of ../shared/corpus (plugins.md P1-P4, H1-H5, Q1):
 * reading a folder and building its surface never throws, and yields engine events or a
 * diagnostic naming a file. The events are compared with the `events` column of corpus/INDEX.md
 * (without the `†`/`‡` names, which are outside the engine); where the spec makes hookpm load
 * less than the column lists, EXCEPTIONS says which events are missing and why.
 */
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
    'P4, H4, Q1, G1: %s loads or says which file is wrong, never throws',
    async (folder) => {
      const plugin = await readPluginDir(join(CORPUS, folder));
      const surface = buildSurface(plugin);
      const named = plugin.diagnostics.filter(
        (d) => typeof d.path === 'string' && d.path.length > 0,
      );
      const claudeOnly = surface.entries.filter((e) => e.runsIn === 'claude');
      expect(surface.events.length > 0 || claudeOnly.length > 0 || named.length > 0).toBe(true);
      for (const entry of surface.entries) {
        if (!entry.valid)
          expect(entry.diagnostic, `${folder}: ${entry.event}`).toBeTypeOf('string');
        // G1: a valid entry under one of Claude Code's own events runs inside Claude Code only.
        if (entry.valid && entry.runsIn !== 'claude-background')
          expect(entry.runsIn === 'claude').toBe(isClaudeCodeEvent(entry.event));
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
