/**
 * The state's `projects` (each project's plugins, keyed by its canonical root) are held to D6 like
 * the rest: a key that is no absolute root, or a plugin key that is no plugin id or differs from
 * its record, is E_STATE_CORRUPT, never dropped at the next write. A data directory is kept while
 * any record, user-wide or of a project, names its id.
 */
import { describe, expect, it } from 'vitest';
import { readQuickState } from '../../src/store/state/quick-state.js';
import { findProblem } from '../../src/store/state/state.js';
import { findKeyProblem } from '../../src/store/state/state-keys.js';
import { dataUsers, describeDataUser } from '../../src/store/state/data-users.js';
import type { State } from '../../src/store/state/state-schema.js';

const record = {
  id: 'guard@acme',
  name: 'guard',
  registry: 'acme',
  version: '1.1.0',
  source: 'guard@acme@1.1.0',
  range: '^1.1.0',
  integrity: 'sha512-AAAA',
  fingerprint: 'sha256-BBBB',
  path: '/store/plugins/guard@acme/1.1.0-abc',
  enabled: true,
  installedAt: '2026-01-01T00:00:00.000Z',
  consent: { surfaceHash: 'sha256-S', at: '2026-01-01T00:00:00.000Z', version: '1.1.0' },
  surfaceHash: 'sha256-S',
  events: ['PreToolUse'],
  pending: null,
};
const state = (projects: unknown) => ({ version: 1, registries: {}, plugins: {}, projects });

describe('state.projects (registry.md D6)', () => {
  it('a project with its plugins is read alike by the schema and the fast reader', () => {
    const doc = state({ '/work/repo': { plugins: { 'guard@acme': record } } });
    const problem = findProblem(Buffer.from(JSON.stringify(doc)));
    expect(problem.reason).toBeUndefined();
    expect(problem.state).toStrictEqual(doc);
    expect(readQuickState(JSON.stringify(doc))).toStrictEqual(doc);
  });

  it.each([
    ['a relative project root', state({ repo: { plugins: {} } }), /not an absolute project root/],
    [
      'a plugin key that is no id',
      state({ '/r': { plugins: { guard: record } } }),
      /not a plugin id/,
    ],
    [
      'a plugin key that is another id',
      state({ '/r': { plugins: { 'other@acme': record } } }),
      /do not make its id/,
    ],
  ])('%s is refused (E_STATE_CORRUPT reason)', (_what, doc, reason) => {
    expect(findKeyProblem(doc)).toMatch(reason);
    expect(findProblem(Buffer.from(JSON.stringify(doc))).reason).toMatch(reason);
  });

  it('an unknown field in a project is refused by both readers', () => {
    const doc = state({ '/r': { plugins: {}, extra: true } });
    expect(findProblem(Buffer.from(JSON.stringify(doc))).state).toBeUndefined();
    expect(readQuickState(JSON.stringify(doc))).toBeNull();
  });
});

describe('dataUsers: who keeps a data directory (plugins.md V3, one per id)', () => {
  it('names the user-wide record first, then each project whose records name the id, by root', () => {
    const doc = {
      ...state({
        '/work/z': { plugins: { 'guard@acme': record } },
        '/work/a': { plugins: { 'guard@acme': record } },
        '/work/m': { plugins: {} },
      }),
      plugins: { 'guard@acme': record },
    } as unknown as State;
    expect(dataUsers(doc, 'guard@acme').map(describeDataUser)).toEqual([
      'the user-wide plugin',
      'the project /work/a',
      'the project /work/z',
    ]);
    delete (doc.plugins as Record<string, unknown>)['guard@acme'];
    delete doc.projects!['/work/a'];
    expect(dataUsers(doc, 'guard@acme')).toEqual([{ kind: 'project', root: '/work/z' }]);
    expect(dataUsers(doc, 'other@acme')).toEqual([]);
    expect(dataUsers({ version: 1, registries: {}, plugins: {} } as State, 'guard@acme')).toEqual(
      [],
    );
  });
});
