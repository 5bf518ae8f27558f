/**
 * registry.md S42: hookpm writes the state one entry per line, seals the file it wrote, and a
 * transaction reads a sealed state entry by entry: it parses and writes only what it touches, and
 * writes the bytes a whole serialisation would. Anything else (a hand edit, another layout, a
 * broken seal) is read whole and checked as before.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { closeSync, existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { PIECE } from '../../src/io/file-range.js';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHookpmError } from '../../src/errors.js';
import { collectGarbage } from '../../src/store/collect.js';
import { installedFilesFile } from '../../src/store/installed-files.js';
import { stateFile } from '../../src/store/paths.js';
import { rememberIntegrity } from '../../src/store/state/known-integrity.js';
import { lazyStateOf } from '../../src/store/state/lazy-state.js';
import { readStateDraft, readStateShared, writeDraft } from '../../src/store/state/state-draft.js';
import { scanStateLines } from '../../src/store/state/scan-state-lines.js';
import type { PluginRecord, State } from '../../src/store/state/state-schema.js';
import {
  readState,
  serializeState,
  withStoreLock,
  writeState,
} from '../../src/store/state/state.js';
import { HookpmError } from '../../src/errors.js';
import { installedTree, makePlugin, makeState, parsedEntries } from '../helpers/state-records.js';
import { useTempStore } from '../helpers/temp-home.js';

const store = useTempStore();
const SHA512 = `sha512-${Buffer.alloc(64, 0xcd).toString('base64')}`;

/** A state with `count` plugins `p<i>@x`, two registries, a project and known integrities. */
function stateOf(count: number): State {
  const state = makeState(
    Array.from({ length: count }, (_, i) => makePlugin(`p${i}@x`, { version: `1.${i}.0` })),
  );
  state.registries = {
    x: { location: 'https://example.test/x', kind: 'index', addedAt: '2026-12-01T00:00:00.000Z' },
  };
  state.removedDefaults = ['examples'];
  state.projects = { '/work/app': { plugins: { 'p1@x': makePlugin('p1@x', { range: '^1' }) } } };
  state.knownIntegrity = { 'p0@x': { '1.0.0': SHA512 }, 'gone@x': { '2.0.0': SHA512 } };
  return state;
}

async function stateText(): Promise<string> {
  return readFile(stateFile(store.paths), 'utf8');
}

/** A small deterministic generator (mulberry32), so a failing seed can be run again. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('registry.md S42: the layout', () => {
  it('S42: the state is written one entry per line, and any JSON reader reads it', async () => {
    const state = stateOf(3);
    await writeState(store.paths, state);
    const text = await stateText();
    const lines = text.split('\n');
    expect(lines[0]).toBe('{"version":1,');
    for (const id of ['p0@x', 'p1@x', 'p2@x'])
      expect(lines.filter((line) => line.startsWith(`"${id}":{"id":`))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('"gone@x":'))).toHaveLength(1);
    expect(JSON.parse(text)).toEqual(state);
    expect(scanStateLines(Buffer.from(text))).not.toBeNull();
  });

  it('S42: an empty state and one without optional sections are laid out and read back', async () => {
    for (const state of [makeState([]), makeState([makePlugin('a@x')])]) {
      await writeState(store.paths, state);
      expect(JSON.parse(await stateText())).toEqual(state);
      expect(await readState(store.paths)).toEqual(state);
      expect(scanStateLines(Buffer.from(await stateText()))).not.toBeNull();
    }
  });

  it('S42: bytes in any other layout are not scanned (they are read whole)', () => {
    const state = stateOf(2);
    for (const text of [
      `${JSON.stringify(state, null, 2)}\n`,
      JSON.stringify(state),
      serializeState(state).toString().replace('\n"p1@x":', '\n"p\\u0031@x":'),
      serializeState(state).toString().replace('}\n}\n', '},\n}\n'),
      // A key whose closing quote is past its line, or not followed by its colon.
      serializeState(state).toString().replace('\n"p1@x":', '\n"p1@x\n":'),
      serializeState(state).toString().replace('\n"p1@x":', '\n"p1@x" :'),
      `${serializeState(state).toString()} `,
    ])
      expect(scanStateLines(Buffer.from(text))).toBeNull();
  });
});

describe('registry.md S42: the layout scanned from the file', () => {
  /** scanStateLines of `bytes` written to a file, read from it a piece at a time. */
  function scanFile(bytes: Buffer): ReturnType<typeof scanStateLines> {
    const file = join(store.paths.data, 'scanned.json');
    mkdirSync(store.paths.data, { recursive: true });
    writeFileSync(file, bytes);
    const fd = openSync(file, 'r');
    try {
      return scanStateLines({ fd, at: 0, length: bytes.length });
    } finally {
      closeSync(fd);
    }
  }

  it('S42: a state of many pieces scans from its file as from its bytes', async () => {
    await writeState(store.paths, stateOf(1000));
    const bytes = await readFile(stateFile(store.paths));
    expect(bytes.length).toBeGreaterThan(4 * PIECE);
    const found = scanFile(bytes);
    expect(found).not.toBeNull();
    expect(found).toEqual(scanStateLines(bytes));
    expect(found!.entries.plugins!.keys.size).toBe(1000);
  });

  it('S42: bytes in any other layout are not scanned from the file either', () => {
    const text = serializeState(stateOf(300)).toString();
    for (const changed of [
      text.replace('}\n}\n', '},\n}\n'),
      text.replace('\n"p299@x":', '\n"p299@x" :'),
      text.slice(0, -1),
      `${text} `,
    ])
      expect(scanFile(Buffer.from(changed))).toBeNull();
  });
});

describe('registry.md S42: a sealed state read entry by entry', () => {
  it('S42: listing, testing and reading keys parses nothing; reading an entry parses that entry', async () => {
    await writeState(store.paths, stateOf(1000));
    const state = await readStateShared(store.paths);
    expect(Object.keys(state.plugins)).toHaveLength(1000);
    expect('p5@x' in state.plugins && Object.hasOwn(state.plugins, 'p5@x')).toBe(true);
    expect(state.plugins['nope@x']).toBeUndefined();
    expect(parsedEntries(state)).toBe(0);
    expect(state.plugins['p5@x']).toEqual(makePlugin('p5@x', { version: '1.5.0' }));
    expect(parsedEntries(state)).toBe(1);
    // Reading every value is reading the whole state.
    expect({ ...state.plugins }).toEqual((await readState(store.paths)).plugins);
    expect(JSON.parse(JSON.stringify(state))).toEqual(stateOf(1000));
  });

  it('S42: a transaction writes the bytes a whole serialisation of the same changes would', async () => {
    for (let seed = 1; seed <= 25; seed += 1) {
      const next = random(seed);
      const pick = (n: number): number => Math.floor(next() * n);
      await writeState(store.paths, stateOf(40));
      const whole = await readState(store.paths);
      await withStoreLock(store.paths, async () => {
        const draft = await readStateDraft(store.paths);
        expect(parsedEntries(draft.state)).toBe(0);
        for (let step = 0; step < 1 + pick(6); step += 1) {
          const id = `p${pick(45)}@x`;
          const change = pick(5);
          for (const state of [draft.state, whole]) {
            const record = state.plugins[id];
            if (change === 0) state.plugins[id] = makePlugin(id, { version: `9.${step}.0` });
            else if (change === 1) delete state.plugins[id];
            else if (change === 2 && record !== undefined) record.enabled = !record.enabled;
            else if (change === 3 && record !== undefined) record.events.push('SessionStart');
            else rememberIntegrity(state, id, `3.${step}.0`, SHA512);
          }
        }
        await writeDraft(store.paths, draft);
      });
      expect(await readFile(stateFile(store.paths))).toEqual(serializeState(whole));
      expect(await readState(store.paths)).toEqual(whole);
    }
  });

  it('S42: a transaction that changes nothing writes nothing', async () => {
    await writeState(store.paths, stateOf(20));
    const before = await readFile(stateFile(store.paths));
    await withStoreLock(store.paths, async () => {
      const draft = await readStateDraft(store.paths);
      void draft.state.plugins['p3@x']?.enabled;
      expect(await writeDraft(store.paths, draft)).toBe(false);
    });
    expect(await readFile(stateFile(store.paths))).toEqual(before);
  });

  it('S42: an entry that fails its check when read is E_STATE_CORRUPT, and the others still read', () => {
    const text = serializeState(stateOf(3))
      .toString()
      .replace(/(\n"p0@x":\{[^\n]*)"enabled":true/, '$1"enabled":"yes"');
    const state = lazyStateOf(
      Buffer.from(text),
      (where) => new HookpmError('E_STATE_CORRUPT', where),
    );
    expect(state).not.toBeNull();
    expect(Object.keys(state!.plugins)).toEqual(['p0@x', 'p1@x', 'p2@x']);
    expect(state!.plugins['p1@x']?.version).toBe('1.1.0');
    let error: unknown;
    try {
      void state!.plugins['p0@x'];
    } catch (e) {
      error = e;
    }
    expect(isHookpmError(error, 'E_STATE_CORRUPT')).toBe(true);
    expect((error as Error).message).toContain('plugins."p0@x"');
  });
});

describe('policy.md A12: the registry location a record keeps', () => {
  it('A12: a record with registryLocation (and its pending and previous versions) reads entry by entry beside one without; an empty one is E_STATE_CORRUPT', async () => {
    const state = stateOf(3);
    const kept = state.plugins['p1@x']!;
    const tree = { ...kept, registryLocation: 'https://example.test/kept' };
    const { version, path, integrity, fingerprint, surfaceHash, events, source } = tree;
    const old = { version, path, integrity, fingerprint, surfaceHash, events, source };
    state.plugins['p1@x'] = {
      ...tree,
      pending: { ...old, registryLocation: 'https://example.test/y' },
      previous: {
        ...old,
        consent: { surfaceHash, at: '2026-12-01', version },
        registryLocation: 'https://example.test/z',
      },
    };
    await writeState(store.paths, state);
    const read = await readStateShared(store.paths);
    expect(read.plugins['p1@x']).toEqual(state.plugins['p1@x']);
    expect(read.plugins['p0@x']?.registryLocation).toBeUndefined();
    expect(parsedEntries(read)).toBe(2);
    const text = serializeState(state).toString().replace('"https://example.test/kept"', '""');
    const lazy = lazyStateOf(
      Buffer.from(text),
      (where) => new HookpmError('E_STATE_CORRUPT', where),
    );
    expect(() => lazy!.plugins['p1@x']).toThrow(/plugins\."p1@x"/);
    expect(lazy!.plugins['p2@x']?.registryLocation).toBeUndefined();
  });
});

describe('registry.md S42: what is read whole', () => {
  it('S42: a sealed state changed by hand is read whole: a bad entry anywhere is E_STATE_CORRUPT and the file is left as it is', async () => {
    await writeState(store.paths, stateOf(300));
    const edited = (await stateText()).replace(
      /("p299@x":\{[^\n]*)"enabled":true/,
      '$1"enabled":"yes"',
    );
    await writeFile(stateFile(store.paths), edited);
    const error = await readStateShared(store.paths).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isHookpmError(error, 'E_STATE_CORRUPT')).toBe(true);
    expect(await stateText()).toBe(edited);
  });

  it('S42: the same bytes copied over the state are read whole, not entry by entry', async () => {
    await writeState(store.paths, stateOf(50));
    const bytes = await readFile(stateFile(store.paths));
    await rm(stateFile(store.paths));
    await writeFile(stateFile(store.paths), bytes);
    expect(parsedEntries(await readStateShared(store.paths))).toBe(50 + 2);
  });

  it('S42: a seal that is a link to /dev/zero, or a FIFO, is no seal: the state is read whole at once', async () => {
    await writeState(store.paths, stateOf(10));
    const seal = join(store.paths.cache, 'state-seal');
    await rm(seal);
    await symlink('/dev/zero', seal);
    expect(parsedEntries(await readStateShared(store.paths))).toBe(12);
    await rm(seal);
    execFileSync('mkfifo', [seal]);
    expect(parsedEntries(await readStateShared(store.paths))).toBe(12);
  });

  it("S42: a state in an older hookpm's layout is read whole, and the next transaction writes it in hookpm's layout with the same content", async () => {
    const state = stateOf(30);
    await mkdir(store.paths.data, { recursive: true });
    await writeFile(stateFile(store.paths), `${JSON.stringify(state, null, 2)}\n`);
    await withStoreLock(store.paths, async () => {
      const draft = await readStateDraft(store.paths);
      expect(parsedEntries(draft.state)).toBe(32);
      expect(await writeDraft(store.paths, draft)).toBe(true);
    });
    expect(JSON.parse(await stateText())).toEqual(state);
    expect(scanStateLines(await readFile(stateFile(store.paths)))).not.toBeNull();
    expect(parsedEntries(await readStateShared(store.paths))).toBe(0);
  });
});

describe('registry.md S41, S42: collection after a transaction read entry by entry', () => {
  /** An installed tree of `id` at `version`, holding one file. */
  const tree = (id: string, version: string): Promise<string> =>
    installedTree(store.paths, id, version, SHA512);

  it("S42: keeps every tree a record names in the directories it visits, the records it never read and a project's included", async () => {
    const user = await tree('shared@x', '1.0.0');
    const previous = await tree('shared@x', '0.9.0');
    const project = await tree('shared@x', '2.0.0');
    const orphan = await tree('shared@x', '0.1.0');
    const other = await tree('other@x', '1.0.0');
    const record: PluginRecord = makePlugin('shared@x', {
      path: user,
      previous: {
        version: '0.9.0',
        path: previous,
        integrity: SHA512,
        fingerprint: 'sha256-P',
        surfaceHash: 'sha256-S',
        events: [],
        source: 's',
        consent: { surfaceHash: 'sha256-S', at: '2026-12-01T00:00:00.000Z', version: '0.9.0' },
      },
    });
    const state = makeState([makePlugin('other@x', { path: other }), record]);
    state.projects = {
      '/work/app': { plugins: { 'shared@x': makePlugin('shared@x', { path: project }) } },
    };
    await writeState(store.paths, state);
    const lazy = await readStateShared(store.paths);
    await withStoreLock(store.paths, () =>
      collectGarbage(store.paths, lazy, new Set([dirname(user)])),
    );
    expect(parsedEntries(lazy)).toBe(1);
    for (const dir of [user, previous, project, other]) expect(existsSync(dir)).toBe(true);
    expect(existsSync(orphan)).toBe(false);
  });
  it('S41, S42: finds the records of the directories it visits among ids that sanitize alike', async () => {
    // `a.b@x` and `a-b@x` sanitize to the same readable part, `a-b-x` (plugins.md V3); `a_b@x`
    // keeps its `_`, and `ab@x`, not visited, keeps its orphan.
    const ids = ['a.b@x', 'a-b@x', 'a_b@x', 'ab@x'];
    const named = await Promise.all(ids.map((id) => tree(id, '1.0.0')));
    const orphans = await Promise.all(ids.map((id) => tree(id, '0.1.0')));
    const others = Array.from({ length: 50 }, (_, i) => makePlugin(`p${i}@x`));
    const state = makeState([...others, ...ids.map((id, i) => makePlugin(id, { path: named[i] }))]);
    await writeState(store.paths, state);
    const lazy = await readStateShared(store.paths);
    const visit = new Set(named.slice(0, 3).map((path) => dirname(path)));
    await withStoreLock(store.paths, () => collectGarbage(store.paths, lazy, visit));
    expect(parsedEntries(lazy)).toBe(3);
    expect(named.map((path) => existsSync(path))).toEqual([true, true, true, true]);
    expect(orphans.map((path) => existsSync(path))).toEqual([false, false, false, true]);
  });
  it('S42: removes the installed-files lists the entries it read or deleted stopped naming, and keeps those an entry it never read names', async () => {
    const sha = (byte: number): string => `sha256-${Buffer.alloc(32, byte).toString('base64')}`;
    const user = await tree('shared@x', '1.0.0');
    const previous = {
      version: '0.9.0',
      path: await tree('shared@x', '0.9.0'),
      integrity: SHA512,
      fingerprint: sha(3),
      surfaceHash: 'sha256-S',
      events: [],
      source: 's',
      consent: { surfaceHash: 'sha256-S', at: '2026-12-01T00:00:00.000Z', version: '0.9.0' },
    };
    const state = makeState([
      makePlugin('other@x', { path: await tree('other@x', '1.0.0'), fingerprint: sha(1) }),
      makePlugin('shared@x', { path: user, fingerprint: sha(2), previous }),
      makePlugin('gone@x', { path: await tree('gone@x', '1.0.0'), fingerprint: sha(5) }),
      // The same files as `other`: one list serves both.
      makePlugin('twin@x', { path: await tree('twin@x', '1.0.0'), fingerprint: sha(1) }),
    ]);
    await writeState(store.paths, state);
    const lists = [1, 2, 3, 4, 5].map((byte) => installedFilesFile(store.paths, sha(byte)));
    await mkdir(dirname(lists[0]!), { recursive: true });
    for (const list of lists) await writeFile(list, '[]');
    const lazy = await readStateShared(store.paths);
    // A transaction drops shared's previous version and gone, and twin with the list it shares.
    delete lazy.plugins['shared@x']!.previous;
    delete lazy.plugins['gone@x'];
    delete lazy.plugins['twin@x'];
    await withStoreLock(store.paths, () =>
      collectGarbage(store.paths, lazy, new Set([dirname(user)])),
    );
    expect(parsedEntries(lazy)).toBe(1);
    // 4 no entry names, but this transaction did not stop naming it: the next whole walk takes it.
    expect(lists.map((list) => existsSync(list))).toEqual([true, true, false, true, false]);
  });
});
