import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { HookpmError, isHookpmError } from '../../src/errors.js';
import { collectGarbage } from '../../src/store/collect.js';
import { resolveStorePaths, stateFile } from '../../src/store/paths.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import { emptyState } from '../../src/store/state/state-schema.js';
import { readState, updateState, withStoreLock, writeState } from '../../src/store/state/state.js';
import { startChild } from '../helpers/child.js';
import { compileSrc } from '../helpers/compile-src.js';
import type { CompiledSrc } from '../helpers/compile-src.js';
import { makePlugin, makeState } from '../helpers/state-records.js';
import { makeTempHome } from '../helpers/temp-home.js';
import type { TempHome } from '../helpers/temp-home.js';

const fixtures = fileURLToPath(new URL('../fixtures/store/', import.meta.url));
let compiled: CompiledSrc;
let home: TempHome;
let paths: StorePaths;
let env: Record<string, string>;

beforeAll(async () => {
  compiled = await compileSrc();
}, 120_000);
afterAll(() => compiled.cleanup());
beforeEach(async () => {
  home = await makeTempHome();
  paths = resolveStorePaths(home.env);
  env = { ...home.env, HOOKPM_TEST_SRC: compiled.dir };
});
afterEach(() => home.cleanup());

async function rejection(promise: Promise<unknown>): Promise<HookpmError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof HookpmError))
    throw new Error(`expected a HookpmError, got ${String(error)}`);
  return error;
}

async function plantState(content: string): Promise<string> {
  await mkdir(paths.data, { recursive: true });
  await writeFile(stateFile(paths), content);
  return content;
}

async function corruptCopies(): Promise<string[]> {
  return (await readdir(paths.data)).filter((name) => name.startsWith('state.json.corrupt-'));
}

describe('readState / writeState', () => {
  it('D2: a store without a state file has the empty state, and reading it creates nothing', async () => {
    expect(await readState(paths)).toEqual(emptyState());
    await expect(stat(paths.data)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('D2: a written state reads back equal, as a 0600 file, with no temporary file left', async () => {
    const state = makeState([
      makePlugin('guard@examples'),
      makePlugin('lint@local', { pending: null, consent: null }),
    ]);
    state.registries.examples = {
      location: '/x/registry-fixtures',
      kind: 'index',
      addedAt: '2026-11-30T00:00:00Z',
    };
    await writeState(paths, state);
    expect(await readState(paths)).toEqual(state);
    expect((await stat(stateFile(paths))).mode & 0o777).toBe(0o600);
    expect(await readdir(paths.data)).toEqual(['state.json']);
  });

  it('D2: a pending update (plugins.md Q5) round-trips with the plugin it belongs to', async () => {
    const pending = {
      version: '1.1.0',
      path: '/p/1.1.0-abc',
      integrity: 'sha512-X',
      fingerprint: 'sha256-F',
      surfaceHash: 'sha256-S',
      events: ['Stop'],
      source: 'guard@^1',
    };
    const state = makeState([makePlugin('guard@examples', { pending })]);
    await writeState(paths, state);
    expect((await readState(paths)).plugins['guard@examples']?.pending).toEqual(pending);
  });

  it('D2: writeState refuses a state that breaks the schema and leaves the old one', async () => {
    const good = makeState([makePlugin('guard@examples')]);
    await writeState(paths, good);
    const bad = {
      ...good,
      plugins: { 'guard@examples': makePlugin('guard@examples', { id: 'other@examples' }) },
    };
    await expect(writeState(paths, bad)).rejects.toThrow('Assertion failed');
    expect(await readState(paths)).toEqual(good);
  });
});

describe('D6: a corrupt state is never reset', () => {
  const cases: Array<[string, () => Promise<string>, string]> = [
    [
      'a truncated',
      async () => {
        const full = `${JSON.stringify(makeState([makePlugin('guard@examples')]), null, 2)}\n`;
        return plantState(full.slice(0, Math.floor(full.length / 2)));
      },
      'not valid JSON',
    ],
    ['an unparseable', () => plantState('<html>not json</html>'), 'not valid JSON'],
    ['an empty', () => plantState(''), 'not valid JSON'],
    [
      'a future-version',
      () => plantState(JSON.stringify({ version: 2, registries: {}, plugins: {} })),
      'version 2',
    ],
    [
      'a schema-invalid',
      () =>
        plantState(
          JSON.stringify({ version: 1, registries: {}, plugins: { 'a@b': { id: 'a@b' } } }),
        ),
      'plugins.a@b',
    ],
  ];

  for (const [label, plant, words] of cases) {
    it(`D6: ${label} state file gives E_STATE_CORRUPT, keeps one copy and is left byte-identical`, async () => {
      const content = await plant();
      const error = await rejection(readState(paths));
      expect(error.code).toBe('E_STATE_CORRUPT');
      expect(error.message).toContain(words);
      expect(error.hint).toContain('hookpm doctor');
      const copies = await corruptCopies();
      expect(copies).toHaveLength(1);
      expect(await readFile(join(paths.data, copies[0] ?? ''), 'utf8')).toBe(content);
      expect(error.details.copy).toBe(join(paths.data, copies[0] ?? ''));
      await rejection(readState(paths));
      expect(await corruptCopies()).toHaveLength(1);
      expect(await readFile(stateFile(paths), 'utf8')).toBe(content);
    });
  }

  it('D6: updateState on a corrupt state fails and never writes over it', async () => {
    const content = await plantState('{"version":1,"registries":{},"plugins":');
    let called = false;
    const error = await rejection(updateState(paths, () => void (called = true)));
    expect(error.code).toBe('E_STATE_CORRUPT');
    expect(called).toBe(false);
    expect(await readFile(stateFile(paths), 'utf8')).toBe(content);
  });
});

describe('updateState', () => {
  it('D3: returns what the function returned and writes its changes under the lock', async () => {
    const result = await updateState(paths, (draft) => {
      draft.plugins['guard@examples'] = makePlugin('guard@examples');
      return 'done';
    });
    expect(result).toBe('done');
    expect(Object.keys((await readState(paths)).plugins)).toEqual(['guard@examples']);
    expect(await readdir(paths.data)).toEqual(['state.json']);
  });

  it('D2: a function that throws changes nothing', async () => {
    await writeState(paths, makeState([makePlugin('guard@examples')]));
    const before = await readFile(stateFile(paths), 'utf8');
    await expect(
      updateState(paths, (draft) => {
        delete draft.plugins['guard@examples'];
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await readFile(stateFile(paths), 'utf8')).toBe(before);
  });

  it('D3: an update waits for the lock another command holds, then sees its write', async () => {
    let inside = false;
    const holder = withStoreLock(paths, async () => {
      inside = true;
      await sleep(150);
      await writeState(paths, makeState([makePlugin('first@examples')]));
    });
    while (!inside) await sleep(5);
    const ids = await updateState(paths, (draft) => {
      draft.plugins['second@examples'] = makePlugin('second@examples');
      return Object.keys(draft.plugins);
    });
    await holder;
    expect(ids).toEqual(['first@examples', 'second@examples']);
  });

  it('D3: two processes adding different plugins at once both succeed and the state lists each once', async () => {
    const adder = join(fixtures, 'state-adder.mjs');
    const a = startChild(process.execPath, [adder, 'alpha', '8'], env);
    const b = startChild(process.execPath, [adder, 'beta', '8'], env);
    await Promise.all([a.exited, b.exited]);
    expect(a.lines).toContain('{"ok":true}');
    expect(b.lines).toContain('{"ok":true}');
    const ids = Object.keys((await readState(paths)).plugins).sort();
    expect(ids).toEqual(
      [
        ...Array.from({ length: 8 }, (_, k) => `alpha-${k}@examples`),
        ...Array.from({ length: 8 }, (_, k) => `beta-${k}@examples`),
      ].sort(),
    );
  });
});

describe('crash safety', () => {
  it('D2, D3: SIGKILL at random moments of a process writing states (20 trials) leaves the old or the new state, never a mix', async () => {
    const writer = join(fixtures, 'state-writer.mjs');
    let previous = -1;
    let midRun = 0;
    for (let trial = 0; trial < 20; trial += 1) {
      const child = startChild(process.execPath, [writer, '150'], env);
      // Even trials: any moment from start-up on; odd trials: a moment within the writing loop.
      if (trial % 2 === 1) await child.waitForLine((l) => /^\d+$/.test(l));
      await sleep(Math.random() * (trial % 2 === 1 ? 100 : 400));
      child.proc.kill('SIGKILL');
      await child.exited;
      const printed = child.lines.filter((l) => /^\d+$/.test(l)).map(Number);
      const confirmed = printed.length > 0 ? Math.max(...printed) : previous;
      if (printed.length > 0) midRun += 1;
      const state = await readState(paths);
      const gen = state.registries.gen === undefined ? -1 : Number(state.registries.gen.location);
      expect([confirmed, confirmed + 1]).toContain(gen);
      for (const plugin of Object.values(state.plugins)) expect(plugin.range).toBe(String(gen));
      previous = gen;
    }
    expect(midRun).toBeGreaterThan(0);
    const removed = await withStoreLock(
      paths,
      async () => collectGarbage(paths, await readState(paths)),
      { waitMs: 3_000 },
    );
    expect(removed.every((file) => /\/\.(state\.json\.tmp-|lock\.)/.test(file))).toBe(true);
    expect((await readdir(paths.data)).sort()).toEqual(['state.json']);
    expect(
      isHookpmError(
        await readState(paths).then(
          () => null,
          (e: unknown) => e,
        ),
      ),
    ).toBe(false);
  });
});
