/**
 * registry.md D6 for the keys of state.json: a key of `plugins` that is no plugin id (`__proto__`,
 * `constructor`, a key its record's name and registry do not make), an unknown field, or a
 * prototype-named key of `registries` or `knownIntegrity`, is E_STATE_CORRUPT with a copy kept,
 * never dropped silently (zod drops a `__proto__` key) nor rewritten; through readState, the fast
 * reader of `hookpm list`, and the CLI. The file and the store are byte-identical afterwards.
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { stateFile } from '../../src/store/paths.js';
import { readStateFast } from '../../src/store/state/read-state-fast.js';
import { readState } from '../../src/store/state/state.js';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { failure } from '../helpers/failure.js';
import { makePlugin, makeState } from '../helpers/state-records.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { useTempStore } from '../helpers/temp-home.js';

beforeAll(() => ensureBuilt(), 120_000);
const store = useTempStore('hookpm-state-keys-');

const GOOD = makeState([makePlugin('guard@examples')]);
const RECORD = JSON.stringify(makePlugin('guard@examples'));

/** The good state's text with `entry` (`"key":value`) put first into the object named `where`. */
function withEntry(where: 'plugins' | 'registries', entry: string): string {
  return JSON.stringify(GOOD, null, 2)
    .replace(`"${where}": {}`, `"${where}": {${entry}}`)
    .replace(`"${where}": {\n`, `"${where}": {${entry},\n`);
}

const CASES: [string, string, string][] = [
  [
    'a `__proto__` key in plugins',
    withEntry('plugins', `"__proto__":${RECORD.replace(/guard@examples/g, '__proto__')}`),
    'plugins.__proto__: is not a plugin id',
  ],
  [
    'a `constructor` key in plugins',
    withEntry(
      'plugins',
      `"constructor":${JSON.stringify(makePlugin('constructor', { registry: 'x' }))}`,
    ),
    'plugins.constructor: is not a plugin id',
  ],
  [
    'a plugins key its record does not make',
    JSON.stringify(makeState([makePlugin('guard@examples', { name: 'other' })])),
    "plugins.guard@examples: the record's name and registry do not make its id",
  ],
  [
    'an unknown field in a plugin record',
    JSON.stringify(makeState([{ ...makePlugin('guard@examples'), trusted: true } as never])),
    'trusted',
  ],
  ['an unknown top-level field', JSON.stringify({ ...GOOD, plugin: {} }), 'plugin'],
  [
    'a `__proto__` key in registries',
    withEntry('registries', '"__proto__":{"location":"/x","kind":"index","addedAt":""}'),
    'registries.__proto__: is not a registry name',
  ],
  [
    'a `toString` key in knownIntegrity',
    JSON.stringify({ ...GOOD, knownIntegrity: { toString: { '1.0.0': 'sha512-A' } } }),
    'knownIntegrity.toString: is not a plugin id',
  ],
];

async function plant(content: string): Promise<void> {
  await mkdir(store.paths.data, { recursive: true });
  await writeFile(stateFile(store.paths), content);
}

const copies = async (): Promise<string[]> =>
  (await readdir(store.paths.data)).filter((name) => name.startsWith('state.json.corrupt-'));

describe('D6: keys of state.json that name no plugin, registry or field', () => {
  it.each(CASES)(
    'D6: %s is E_STATE_CORRUPT naming it, with one copy kept; the file is byte-identical',
    async (_label, content, words) => {
      await plant(content);
      for (const read of [readState, readStateFast]) {
        const error = await failure(read(store.paths));
        expect(error.code).toBe('E_STATE_CORRUPT');
        expect(error.message).toContain(words);
      }
      const kept = await copies();
      expect(kept).toHaveLength(1);
      expect(await readFile(join(store.paths.data, kept[0] ?? ''), 'utf8')).toBe(content);
      expect(await readFile(stateFile(store.paths), 'utf8')).toBe(content);
    },
  );

  it('D6: `hookpm list`, `install` and `uninstall` on a state with a `__proto__` plugin fail with E_STATE_CORRUPT; the store is byte-identical', async () => {
    await plant(CASES[0]?.[1] ?? '');
    for (const args of [['list'], ['install', 'guard@examples', '--yes'], ['uninstall', 'guard']]) {
      const before = await hashStore(store.paths);
      const run = await runBin([...args, '--json'], { env: store.home.env, cwd: store.home.dir });
      expect(JSON.parse(run.stdout).error.code, run.stdout).toBe('E_STATE_CORRUPT');
      expect(await hashStore(store.paths)).toEqual(before);
    }
    expect(await copies()).toHaveLength(1);
  });
});
