import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveStorePaths, stateFile } from '../../src/store/paths.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import {
  readStateDraft,
  readStateShared,
  stateBefore,
  writeDraft,
} from '../../src/store/state/state-draft.js';
import { emptyState } from '../../src/store/state/state-schema.js';
import { readState, writeState } from '../../src/store/state/state.js';
import { makePlugin, makeState } from '../helpers/state-records.js';
import { makeTempHome } from '../helpers/temp-home.js';
import type { TempHome } from '../helpers/temp-home.js';

let home: TempHome;
let paths: StorePaths;

beforeEach(async () => {
  home = await makeTempHome();
  paths = resolveStorePaths(home.env);
});
afterEach(() => home.cleanup());

describe('S40: a transaction reads, changes and writes the state once', () => {
  it('S40: the state read before the lock becomes the draft when the file still holds the bytes it was read from', async () => {
    await writeState(paths, makeState([makePlugin('guard@examples')]));
    const shared = await readStateShared(paths);
    const draft = await readStateDraft(paths);
    expect(draft.state).toBe(shared);
    // Given over once: the next draft is parsed again.
    const again = await readStateDraft(paths);
    expect(again.state).not.toBe(shared);
    expect(again.state).toEqual(shared);
  });

  it('S40: a state written by another command since is read again, not the one read before', async () => {
    await writeState(paths, makeState([makePlugin('guard@examples')]));
    const shared = await readStateShared(paths);
    const now = makeState([makePlugin('guard@examples'), makePlugin('audit@examples')]);
    await writeState(paths, now);
    const draft = await readStateDraft(paths);
    expect(draft.state).not.toBe(shared);
    expect(draft.state).toEqual(now);
  });

  it('S40: a draft that did not change writes nothing; a changed one is written as writeState writes it', async () => {
    await writeState(paths, makeState([makePlugin('guard@examples')]));
    const before = await stat(stateFile(paths));
    const unchanged = await readStateDraft(paths);
    expect(await writeDraft(paths, unchanged)).toBe(false);
    expect((await stat(stateFile(paths))).ino).toBe(before.ino);

    const draft = await readStateDraft(paths);
    draft.state.plugins['audit@examples'] = makePlugin('audit@examples');
    expect(await writeDraft(paths, draft)).toBe(true);
    const written = await readFile(stateFile(paths), 'utf8');
    await writeState(paths, draft.state);
    expect(await readFile(stateFile(paths), 'utf8')).toBe(written);
    expect(await readState(paths)).toEqual(draft.state);
  });

  it('S40: the state before a changed draft is the one on disk, parsed again from the bytes read', async () => {
    const original = makeState([makePlugin('guard@examples')]);
    await writeState(paths, original);
    const draft = await readStateDraft(paths);
    delete draft.state.plugins['guard@examples'];
    expect(await stateBefore(paths, draft)).toEqual(original);
  });

  it('S40: a store without a state file drafts the empty state and writes none while it stays empty', async () => {
    const draft = await readStateDraft(paths);
    expect(draft).toEqual({ state: emptyState(), bytes: null });
    expect(await writeDraft(paths, draft)).toBe(false);
    await expect(stat(stateFile(paths))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('S40: a state file in another form than hookpm writes is rewritten in its form with the same content', async () => {
    const state = makeState([makePlugin('guard@examples')]);
    await mkdir(paths.data, { recursive: true });
    await writeFile(stateFile(paths), JSON.stringify(state));
    const draft = await readStateDraft(paths);
    expect(await writeDraft(paths, draft)).toBe(true);
    expect(await readState(paths)).toEqual(state);
    expect(await writeDraft(paths, await readStateDraft(paths))).toBe(false);
  });
});
