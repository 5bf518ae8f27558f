import { describe, expect, it } from 'vitest';
import { readQuickState } from '../../src/store/state/read-state-fast.js';
import { stateSchema } from '../../src/store/state/state-schema.js';
import { makePlugin, makeState } from '../helpers/state-records.js';

const valid = makeState([
  makePlugin('a@local'),
  makePlugin('b@examples', { consent: null, pending: null }),
]);
valid.registries.examples = { location: 'https://x/index.json', kind: 'index', addedAt: 't' };
valid.plugins['a@local']!.pending = {
  version: '2.0.0',
  path: '/p',
  integrity: 'i',
  fingerprint: 'f',
  surfaceHash: 's',
  events: ['Stop'],
  source: 's',
};

/** Each mutation breaks one rule of stateSchema. */
const broken: Array<[string, (s: any) => void]> = [
  ['a newer version', (s) => (s.version = 2)],
  ['an id that differs from its key', (s) => (s.plugins['a@local'].id = 'x')],
  ['an empty name', (s) => (s.plugins['a@local'].name = '')],
  ['enabled as a string', (s) => (s.plugins['a@local'].enabled = 'true')],
  ['events not strings', (s) => (s.plugins['a@local'].events = [1])],
  ['a consent without surfaceHash', (s) => delete s.plugins['a@local'].consent.surfaceHash],
  ['a pending without path', (s) => delete s.plugins['a@local'].pending.path],
  ['a missing fingerprint', (s) => delete s.plugins['a@local'].fingerprint],
  ['a registry of an unknown kind', (s) => (s.registries.examples.kind = 'git')],
  ['plugins as an array', (s) => (s.plugins = [])],
];

describe('readQuickState (the start-up path of hookpm list)', () => {
  it('D2: accepts what stateSchema accepts, with the same result (unknown fields dropped)', () => {
    const withExtra = structuredClone(valid) as any;
    withExtra.plugins['a@local'].later = 1;
    withExtra.extra = true;
    expect(readQuickState(JSON.stringify(withExtra))).toEqual(stateSchema.parse(withExtra));
  });

  it.each(broken)('D6: leaves %s to the schema (null), which rejects it too', (_name, mutate) => {
    const state = structuredClone(valid);
    mutate(state);
    expect(stateSchema.safeParse(state).success).toBe(false);
    expect(readQuickState(JSON.stringify(state))).toBeNull();
  });
});
