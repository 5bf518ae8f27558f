import { execFileSync } from 'node:child_process';
import {
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIST_JSON_SHAPE, listJsonText } from '../../src/cli/render/list-json.js';
import { JSON_SCHEMA_VERSION, jsonText } from '../../src/cli/render/render.js';
import { listPlugins } from '../../src/ops/plugins/list.js';
import { listKey } from '../../src/ops/plugins/list-cache.js';
import { keepAndWrite, renewListDocument } from '../../src/ops/plugins/list-rows.js';
import { stateFile } from '../../src/store/home-paths.js';
import { sealState } from '../../src/store/state/state-seal.js';
import type { PluginRecord } from '../../src/store/state/state-schema.js';
import { writeState } from '../../src/store/state/state.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import { recordTreeVerdicts } from '../../src/store/tree-verdicts.js';
import { keptDocument } from '../helpers/list-file.js';
import { makePlugin, makeState } from '../helpers/state-records.js';

let root: string;
let paths: StorePaths;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hookpm-list-rows-'));
  paths = { config: join(root, 'config'), data: join(root, 'data'), cache: join(root, 'cache') };
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const keptFile = (): string => join(paths.cache, 'list', 'user.json');

/** A plugin `n` of a generated store; ids sort apart from their order of install. */
function plugin(n: number, over: Partial<PluginRecord> = {}): PluginRecord {
  const name = `p${((n * 7919) % 1000).toString().padStart(3, '0')}-${n}`;
  return makePlugin(`${name}@examples`, {
    path: `/store/plugins/${name}/1.0.0-000000000000`,
    ...over,
  }) as PluginRecord;
}

async function writePlugins(plugins: PluginRecord[]): Promise<void> {
  await writeState(paths, makeState(plugins));
}

/**
 * What `list --json` prints now by the kept rows (registry.md S33), keeping its file as `list`
 * does; null when the state is not read so. `now`: the clock for the racy window.
 */
function listByRows(now = Date.now()): string | null {
  const key = listKey(paths, now)!;
  const renewed = renewListDocument(paths, key, LIST_JSON_SHAPE);
  if (renewed === null) return null;
  const out: Buffer[] = [];
  keepAndWrite(paths, key, renewed, (bytes) => out.push(Buffer.from(bytes)));
  return Buffer.concat(out).toString('utf8');
}

/** The document made from the whole state, checked whole. */
async function listWhole(): Promise<string> {
  return listJsonText((await listPlugins(paths)).plugins);
}

/** Replaces, in the kept document, the first `from` after `after` with `to` (as long). */
function editKeptDocument(after: string, from: string, to: string): void {
  expect(to.length).toBe(from.length);
  const bytes = readFileSync(keptFile());
  const at = bytes.indexOf(from, bytes.indexOf(after));
  expect(at).toBeGreaterThan(0);
  bytes.write(to, at, 'latin1');
  writeFileSync(keptFile(), bytes);
}

describe('the list document made from kept rows (registry.md S33)', () => {
  it('S33: the document is the one jsonText writes, row by row', () => {
    const rows = [
      plugin(1, { events: [], source: 'line\u2028separator' }),
      plugin(2, { pending: { version: '2.0.0' } as PluginRecord['pending'] }),
    ];
    for (const plugins of [[], rows]) {
      const listed = plugins.map((p) => ({ ...p, checkedAt: p.installedAt }));
      expect(listJsonText(listed as never)).toBe(
        `${jsonText({ schemaVersion: JSON_SCHEMA_VERSION, plugins: listed })}\n`,
      );
    }
  });

  it('S33: after every kind of change the document is the one made from the whole state', async () => {
    // 300 entries make a section of about 240 KB: changes land in later pieces of 64 KiB too.
    let plugins = Array.from({ length: 300 }, (_, n) => plugin(n));
    const changes: ((list: PluginRecord[]) => PluginRecord[])[] = [
      (list) => list, // nothing kept yet: every row made
      (list) => [...list, plugin(100)], // one more, last in the file, in the middle by id
      (list) => list.slice(1), // the first removed
      (list) => list.slice(0, -1), // the last removed
      (list) => list.map((p, i) => (i === 30 ? { ...p, enabled: false } : p)),
      (list) => list.map((p, i) => (i === 2 || i === 50 ? { ...p, version: '1.0.1' } : p)),
      // Around the edges of the pieces read (about 80 and 160 entries in).
      (list) => list.map((p, i) => (i >= 78 && i <= 84 ? { ...p, enabled: false } : p)),
      (list) => list.filter((_, i) => i !== 160 && i !== 161),
      (list) => list.map((p, i) => (i === list.length - 1 ? { ...p, version: '1.0.2' } : p)),
      (list) => list.map((p, i) => (i === 0 ? { ...p, source: 'a\u2028b' } : p)),
      (list) => [plugin(200), ...list.slice(0, 20), plugin(201), ...list.slice(25)],
      (list) => list, // the same state written again
      (list) => list.slice(0, 1),
      () => [],
      () => Array.from({ length: 10 }, (_, n) => plugin(n + 300)),
      (list) => list.map((p) => ({ ...p, enabled: !p.enabled })),
    ];
    for (const change of changes) {
      plugins = change(plugins);
      await writePlugins(plugins);
      expect(listByRows()).toBe(await listWhole());
    }
  });

  it('S33: an unchanged entry keeps its row; a changed one is made again', async () => {
    const plugins = Array.from({ length: 20 }, (_, n) => plugin(n));
    await writePlugins(plugins);
    listByRows();
    // The kept rows are used as they are: marked here, the mark shows in the next document.
    const unchanged = plugins[3]!.id;
    const changed = plugins[12]!.id;
    editKeptDocument(`"id": "${unchanged}"`, '"version": "1.0.0"', '"version": "7.7.7"');
    editKeptDocument(`"id": "${changed}"`, '"version": "1.0.0"', '"version": "8.8.8"');
    await writePlugins(plugins.map((p, i) => (i === 12 ? { ...p, enabled: false } : p)));
    const document = JSON.parse(listByRows()!) as { plugins: { id: string; version: string }[] };
    const version = (id: string) => document.plugins.find((p) => p.id === id)!.version;
    expect(version(unchanged)).toBe('7.7.7');
    expect(version(changed)).toBe('1.0.0');
  });

  it('S33: rows kept under other verdicts are not used', async () => {
    const plugins = Array.from({ length: 8 }, (_, n) => plugin(n));
    await writePlugins(plugins);
    listByRows();
    editKeptDocument(`"id": "${plugins[1]!.id}"`, '"version": "1.0.0"', '"version": "7.7.7"');
    recordTreeVerdicts(paths, new Map([[plugins[5]!.path, true]]), Date.now());
    await writePlugins(plugins.slice(1));
    const listed = listByRows();
    expect(listed).toBe(await listWhole());
    expect(listed).toContain('"tampered": true');
  });

  it('S33: the document is kept under the key only once both files are settled; its rows either way', async () => {
    const plugins = Array.from({ length: 5 }, (_, n) => plugin(n));
    await writePlugins(plugins);
    const whole = await listWhole();
    expect(listByRows()).toBe(whole);
    // Written a moment ago: no document under the key, but the rows are kept.
    expect(keptDocument(paths, listKey(paths)!)).toBeNull();
    expect(readFileSync(keptFile(), 'latin1')).toMatch(/^hookpm-list\/2 \d+ -\n/);
    const later = Date.now() + 10_000;
    expect(listByRows(later)).toBe(whole);
    expect(keptDocument(paths, listKey(paths, later)!)).toBe(whole);
  });

  it('S33: a damaged, cut-off or replaced kept file only means the rows are made again', async () => {
    const plugins = Array.from({ length: 12 }, (_, n) => plugin(n));
    const fresh = async (): Promise<Buffer> => {
      rmSync(join(paths.cache, 'list'), { recursive: true, force: true });
      await writePlugins(plugins);
      listByRows();
      return readFileSync(keptFile());
    };
    const head = (bytes: Buffer) => bytes.indexOf('\nrows/1-le ') + 1;
    const damages: [string, (bytes: Buffer) => void][] = [
      ['cut short', () => truncateSync(keptFile(), statSync(keptFile()).size - 100)],
      [
        'numbers scrambled',
        (bytes) => {
          const at = bytes.indexOf(0x0a, head(bytes)) + 1;
          for (let i = at; i < at + 200; i += 1) bytes[i] = (i * 31) & 0xff;
          writeFileSync(keptFile(), bytes);
        },
      ],
      [
        "an entry's line given as another's",
        (bytes) => {
          const at = bytes.indexOf(0x0a, head(bytes)) + 1;
          // Entry 1's line (start, key end, line end) made entry 0's; its row left as it was.
          bytes.copy(bytes, at + 6 * 4, at, at + 3 * 4);
          writeFileSync(keptFile(), bytes);
        },
      ],
      [
        'another count of entries',
        (bytes) => {
          const line = bytes.toString('latin1', head(bytes), bytes.indexOf(0x0a, head(bytes)));
          const other = line.replace(/^rows\/1-le 12 /, 'rows/1-le 11 ');
          writeFileSync(
            keptFile(),
            Buffer.from(bytes.toString('latin1').replace(line, other), 'latin1'),
          );
        },
      ],
      [
        'section bytes changed',
        (bytes) => {
          bytes[bytes.length - 10] = 0x21;
          writeFileSync(keptFile(), bytes);
        },
      ],
      [
        'a symlink to a whole file',
        (bytes) => {
          const elsewhere = join(root, 'elsewhere.json');
          writeFileSync(elsewhere, bytes);
          rmSync(keptFile());
          symlinkSync(elsewhere, keptFile());
        },
      ],
      [
        'a FIFO',
        () => {
          rmSync(keptFile());
          execFileSync('mkfifo', [keptFile()]);
        },
      ],
    ];
    for (const [what, damage] of damages) {
      damage(await fresh());
      plugins.push(plugin(plugins.length + 50));
      await writePlugins(plugins);
      expect(listByRows(), what).toBe(await listWhole());
    }
  });

  it('S42: only a state hookpm sealed is read by rows; one that fails its check is read whole (D6)', async () => {
    const plugins = Array.from({ length: 6 }, (_, n) => plugin(n));
    await writePlugins(plugins);
    listByRows();
    const file = stateFile(paths);
    const bytes = readFileSync(file, 'utf8');
    // A hand edit in hookpm's layout: not sealed, so not read by rows.
    writeFileSync(file, bytes.replace('"enabled":true', '"enabled":false'));
    expect(listByRows()).toBeNull();
    expect(await listWhole()).toContain('"enabled": false');
    // An entry that fails its check in a file sealed as it is (a bug, or a change the seal
    // cannot see): not trusted for a row, so the whole read says what is wrong.
    writeFileSync(file, bytes.replace('"enabled":true', '"enabled":"yes"'));
    sealState(paths);
    expect(listByRows()).toBeNull();
    await expect(listPlugins(paths)).rejects.toMatchObject({ code: 'E_STATE_CORRUPT' });
  });
});
