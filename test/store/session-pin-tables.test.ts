import { closeSync, openSync, statSync } from 'node:fs';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventName } from '../../src/hooks/events.js';
import { matchHandlers } from '../../src/hooks/snapshot/snapshot-match.js';
import { buildSnapshot } from '../../src/hooks/snapshot/snapshot.js';
import type { GroupConfig, SourceDocument } from '../../src/hooks/types.js';
import { PIN_VERSION, type SessionPin } from '../../src/store/session-pin-schema.js';
import { readPinTable } from '../../src/store/session-pin-tables.js';
import {
  collectStalePins,
  pinFile,
  PIN_STALE_MS,
  readPin,
  removePin,
  sessionsDir,
  stopCountOf,
  writePin,
  writeStopCount,
  writeTables,
} from '../../src/store/session-pins.js';
import { useTempStore } from '../helpers/temp-home.js';

const store = useTempStore();
const SESSION = 'c0ffee00-1111-4222-8333-444455556666';

const handler = (command: string) => ({ type: 'command' as const, command });
/** A group as the parser leaves it (no matcher: null); handlers carry only what tables read. */
const group = (matcher: string | undefined, ...commands: string[]): GroupConfig =>
  ({ matcher: matcher ?? null, hooks: commands.map(handler) }) as unknown as GroupConfig;

function source(id: string, config: SourceDocument['config']): SourceDocument {
  return {
    origin: 'plugin',
    file: 'hooks/hooks.json',
    config,
    plugin: { id, root: `/store/${id}`, data: `/data/${id}` },
  };
}

/** Three plugins whose groups fall in every kind of bucket: exact names, wildcards, regexes. */
function makePin(): SessionPin {
  const sources = [
    source('a@local', {
      PreToolUse: [group('Bash', 'a1'), null, group('Edit|Write', 'a2'), group('Ba.*', 'a3')],
      Stop: [group(undefined, 'a4')],
    }),
    source('b@local', { PostToolUse: [group('Bash', 'b1')] }),
    source('c@local', {
      PreToolUse: [group('*', 'c1'), group('Read', 'c2'), group('Bash', 'c3', 'c4')],
      UserPromptSubmit: [group(undefined, 'c5')],
    }),
  ];
  const plugins = ['a@local', 'b@local', 'c@local'].map((id) => ({
    id,
    version: '1.0.0',
    root: `/store/${id}`,
    fingerprint: `sha256-${id}`,
    source: `/src/${id}`,
  }));
  return {
    version: PIN_VERSION,
    sessionId: SESSION,
    agent: 'claude',
    pinnedAt: '2026-01-01T00:00:00.000Z',
    snapshotId: 'id-of-the-whole-pin',
    plugins,
    sources,
    diagnostics: [],
    stopContinuations: 0,
  };
}

/** The ids and commands of the handlers a snapshot of `sources` runs for the event. */
function matched(sources: SourceDocument[], event: EventName, input: Record<string, unknown>) {
  const snapshot = buildSnapshot({ projectDir: '', sources });
  return matchHandlers(snapshot, event, input).map((h) => [h.id, h.plugin, h.command]);
}

describe('session pin tables (engine.md X10)', () => {
  it('X10: the table of an event and target runs exactly the handlers the whole pin runs, with the same ids', async () => {
    const pin = makePin();
    await writePin(store.paths, pin);
    const cases: Array<[EventName, Record<string, unknown>]> = [
      ['PreToolUse', { tool_name: 'Bash' }],
      ['PreToolUse', { tool_name: 'Write' }],
      ['PreToolUse', { tool_name: 'Read' }],
      ['PreToolUse', { tool_name: 'Bask' }],
      ['PreToolUse', {}],
      ['PostToolUse', { tool_name: 'Bash' }],
      ['Stop', {}],
      ['UserPromptSubmit', { prompt: 'x' }],
      ['SessionStart', { source: 'resume' }],
    ];
    for (const [event, input] of cases) {
      const table = readPinTable(pinFile(store.paths, SESSION), SESSION, event, input);
      expect(table, `${event} ${JSON.stringify(input)}`).not.toBeNull();
      expect(matched(table!.sources, event, input)).toEqual(matched(pin.sources, event, input));
      const running = new Set(table!.sources.map((s) => s.plugin!.id));
      expect(table!.plugins.map((p) => p.id).sort()).toEqual([...running].sort());
    }
    // Only what can match is read: a Read call does not see plugin a's Bash or Edit groups.
    const read = readPinTable(pinFile(store.paths, SESSION), SESSION, 'PreToolUse', {
      tool_name: 'Read',
    })!;
    expect(JSON.stringify(read.sources)).not.toContain('"a1"');
    expect(JSON.stringify(read.sources)).toContain('"a3"');
  });

  it('X10: missing, damaged or foreign tables are not used (the caller reads the whole pin)', async () => {
    const pin = makePin();
    await writePin(store.paths, pin);
    const file = pinFile(store.paths, SESSION);
    const read = () => readPinTable(file, SESSION, 'PreToolUse', { tool_name: 'Bash' });
    expect(read()).not.toBeNull();
    expect(readPinTable(file, 'another-session', 'PreToolUse', { tool_name: 'Bash' })).toBeNull();
    const bucket = file.replace(/\.json$/, `.PreToolUse.n-${Buffer.from('Bash').toString('hex')}`);
    await writeFile(bucket, '{"version":1,"pin":"not this pin","plugins":[],"sources":[]}');
    expect(read()).toBeNull();
    await writeFile(bucket, '{"torn');
    expect(read()).toBeNull();
    // Written again with the pin, they are used again.
    await writePin(store.paths, pin);
    expect(read()).not.toBeNull();
    await writeFile(file.replace(/\.json$/, '.head'), 'not json');
    expect(read()).toBeNull();
  });

  it('X10, S41: tables an event writes after another event of the session replaced its pin are not used', async () => {
    // Two events of one session pin at once, across an update: the first's tables land last.
    const first = makePin();
    const second = { ...makePin(), pinnedAt: '2026-01-01T00:00:01.000Z', snapshotId: 'after' };
    second.plugins = second.plugins.map((p) => ({ ...p, version: '2.0.0', root: `${p.root}-2` }));
    await writePin(store.paths, first);
    const file = pinFile(store.paths, SESSION);
    // The first event's descriptor of the pin it wrote (writePin holds one while it writes tables).
    const held = openSync(file, 'r');
    try {
      await writePin(store.paths, second);
      expect(writeTables(file, first, held)).toBe(false);
    } finally {
      closeSync(held);
    }
    const table = readPinTable(file, SESSION, 'PreToolUse', { tool_name: 'Bash' });
    // Only the stored pin's trees are kept by collection (pinnedTrees): the event runs those.
    if (table !== null) expect(table.snapshotId).toBe('after');
    expect(readPin(store.paths, SESSION)?.snapshotId).toBe('after');
  });

  it('X10, O3: tables of a pin replaced by one of the same time, snapshot and size are not used', async () => {
    // A Stop event rewrites the pin with its count (no head to keep it in) while another event
    // writes the tables of the pin it read: the two pins differ only in that count.
    const pin = makePin();
    await writePin(store.paths, pin);
    const file = pinFile(store.paths, SESSION);
    const held = openSync(file, 'r');
    const size = statSync(file).size;
    try {
      await writePin(store.paths, { ...pin, stopContinuations: 3 });
      expect(statSync(file).size).toBe(size);
      expect(writeTables(file, pin, held)).toBe(false);
    } finally {
      closeSync(held);
    }
    // The stored pin's count stands, not the one of the tables written last.
    expect(stopCountOf(store.paths, readPin(store.paths, SESSION)!)).toBe(3);
  });

  it('X10: tables written with the descriptor of the stored pin are kept', async () => {
    const pin = makePin();
    await writePin(store.paths, pin);
    const file = pinFile(store.paths, SESSION);
    const held = openSync(file, 'r');
    try {
      expect(writeTables(file, pin, held)).toBe(true);
    } finally {
      closeSync(held);
    }
    expect(readPinTable(file, SESSION, 'PreToolUse', { tool_name: 'Bash' })).not.toBeNull();
  });

  it('X10: a bucket placing its groups past any index a pin can hold is not used (no unbounded padding)', async () => {
    await writePin(store.paths, makePin());
    const file = pinFile(store.paths, SESSION);
    const read = () => readPinTable(file, SESSION, 'PreToolUse', { tool_name: 'Bash' });
    expect(read()).not.toBeNull();
    const dir = sessionsDir(store.paths);
    for (const name of await readdir(dir)) {
      if (!name.includes('.PreToolUse.')) continue;
      const bucket = JSON.parse(await readFile(join(dir, name), 'utf8')) as {
        sources: Array<{ at: number }>;
      };
      for (const source of bucket.sources) source.at = 2 ** 40;
      await writeFile(join(dir, name), JSON.stringify(bucket));
    }
    expect(read()).toBeNull();
  });

  it('X10, O3: a Stop count is kept in the head, not by rewriting the pin', async () => {
    const pin = makePin();
    await writePin(store.paths, pin);
    const before = readPin(store.paths, SESSION)!;
    await writeStopCount(store.paths, pin, 2);
    expect(readPin(store.paths, SESSION)!.stopContinuations).toBe(before.stopContinuations);
    expect(stopCountOf(store.paths, before)).toBe(2);
    const file = pinFile(store.paths, SESSION);
    expect(readPinTable(file, SESSION, 'Stop', {})!.stopContinuations).toBe(2);
  });

  it('X10: a pin that fails closed gets no tables; removing a pin removes its tables', async () => {
    const failing: SessionPin = {
      ...makePin(),
      failClosed: [{ plugin: 'a@local', events: ['PreToolUse'], reason: 'tampered' }],
    };
    await writePin(store.paths, failing);
    expect(await readdir(sessionsDir(store.paths))).toEqual([
      pinFile(store.paths, SESSION).split('/').pop(),
    ]);
    await writePin(store.paths, makePin());
    expect((await readdir(sessionsDir(store.paths))).length).toBeGreaterThan(3);
    await removePin(store.paths, SESSION);
    expect(await readdir(sessionsDir(store.paths))).toEqual([]);
  });

  it('X10, D4: a pin whose tables are in use is not stale; one unused with its tables is collected whole', async () => {
    await writePin(store.paths, makePin());
    const file = pinFile(store.paths, SESSION);
    const old = new Date(Date.now() - PIN_STALE_MS - 60_000);
    const dir = sessionsDir(store.paths);
    for (const name of await readdir(dir)) await utimes(join(dir, name), old, old);
    // An event reads the head (and touches it), never the pin.
    const now = new Date();
    await utimes(file.replace(/\.json$/, '.head'), now, now);
    expect(await collectStalePins(store.paths)).toEqual([]);
    await utimes(file.replace(/\.json$/, '.head'), old, old);
    expect((await collectStalePins(store.paths)).length).toBeGreaterThan(3);
    expect(await readdir(dir)).toEqual([]);
  });
});
