import { closeSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rangeBytes } from '../../src/io/file-range.js';
import { openPluginsSection } from '../../src/store/state/plugins-section.js';
import { serializeState } from '../../src/store/state/state.js';
import type { PluginRecord, State } from '../../src/store/state/state-schema.js';
import { makePlugin, makeState } from '../helpers/state-records.js';

let root: string;
let file: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hookpm-plugins-section-'));
  file = join(root, 'state.json');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** The section's bytes as openPluginsSection finds them in `file`, or null. */
function sectionText(): string | null {
  const section = openPluginsSection(file);
  if (section === null) return null;
  try {
    return rangeBytes(section, 0, section.length)!.toString('utf8');
  } finally {
    closeSync(section.fd);
  }
}

describe('the plugins section of a state file, read in pieces (registry.md S42)', () => {
  it('S42: the entry lines of the plugins section, however far into the file it starts', () => {
    const plugins = [makePlugin('a@examples'), makePlugin('b@examples')] as PluginRecord[];
    // Known integrity before the section puts it past the first pieces read, across an edge.
    for (const known of [0, 1_000, 3_000]) {
      const state: State = makeState(plugins);
      if (known > 0)
        state.knownIntegrity = Object.fromEntries(
          Array.from({ length: known }, (_, n) => [`k${n}@examples`, { '1.0.0': `sha512-${n}` }]),
        );
      const bytes = serializeState(state);
      writeFileSync(file, bytes);
      const text = bytes.toString('utf8');
      const start = text.indexOf('\n"plugins":{\n') + '\n"plugins":{\n'.length;
      expect(sectionText()).toBe(text.slice(start, -'}\n}\n'.length));
      expect(sectionText()).toMatch(/^"a@examples":\{.*\},\n"b@examples":\{.*\}\n$/);
    }
    writeFileSync(file, serializeState(makeState([])));
    expect(sectionText()).toBe('');
  });

  it('S42: another layout is no section; a symlink or a FIFO is refused unread', () => {
    const bytes = serializeState(makeState([makePlugin('a@examples') as PluginRecord]));
    writeFileSync(file, JSON.stringify(JSON.parse(bytes.toString('utf8')), null, 2));
    expect(sectionText()).toBeNull();
    writeFileSync(file, bytes.subarray(0, bytes.length - 1));
    expect(sectionText()).toBeNull();
    writeFileSync(file, '{"version":1,"registries":{},"plugins":{}}');
    expect(sectionText()).toBeNull();
    const elsewhere = join(root, 'elsewhere.json');
    writeFileSync(elsewhere, bytes);
    rmSync(file);
    symlinkSync(elsewhere, file);
    expect(() => openPluginsSection(file)).toThrow();
    rmSync(file);
    execFileSync('mkfifo', [file]);
    expect(() => openPluginsSection(file)).toThrow();
    expect(readFileSync(elsewhere)).toEqual(bytes);
  });
});
