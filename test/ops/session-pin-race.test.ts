/**
 * engine.md R1 with registry.md S41: a session pin made from a state that a command changed
 * before the pin was written. The command's collection read the pins before this one existed, so
 * it may have removed a tree the pin names; such a pin is not kept, and the session is pinned
 * afresh on what is installed now. Without that, every later event of the session failed closed
 * on a tree that is gone, naming a fix that installs the old version again.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { reloadSessions } from '../../src/ops/wire/reload-sessions.js';
import { sessionPin } from '../../src/ops/wire/session-pin.js';
import { readPin } from '../../src/store/session-pins.js';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { useTempStore } from '../helpers/temp-home.js';

/** What runs once between the pin's reading of the state and its write (a command elsewhere). */
const between = vi.hoisted(() => ({ run: null as null | (() => Promise<void>) }));

vi.mock('../../src/ops/wire/make-pin.js', async (original) => {
  const real = await original<typeof import('../../src/ops/wire/make-pin.js')>();
  return {
    makePin: async (...args: Parameters<typeof real.makePin>) => {
      const pin = await real.makePin(...args);
      const run = between.run;
      between.run = null;
      if (run !== null) await run();
      return pin;
    },
  };
});

const store = useTempStore('hookpm-pin-race-');
beforeAll(() => ensureBuilt());

const SESSION = '5e55104f-0000-4000-8000-000000000001';

/** A plugin at `version` that denies Bash, in a folder of its own under the home. */
async function guard(version: string): Promise<string> {
  const root = join(store.home.dir, `guard-${version}`);
  await mkdir(join(root, '.claude-plugin'), { recursive: true });
  await mkdir(join(root, 'hooks'), { recursive: true });
  await writeFile(
    join(root, '.claude-plugin', 'plugin.json'),
    JSON.stringify({ name: 'guard', version }),
  );
  const deny = { type: 'command', command: 'echo no >&2; exit 2' };
  await writeFile(
    join(root, 'hooks', 'hooks.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [deny] }] } }),
  );
  return root;
}

async function hookpm(args: string[]): Promise<void> {
  const run = await runBin(args, { env: store.home.env, cwd: store.home.dir });
  expect(run.code, run.stderr).toBe(0);
}

const payload = {
  session_id: SESSION,
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
};

const pinNow = () =>
  sessionPin({ paths: store.paths, agent: 'claude', event: 'PreToolUse', payload });

describe('engine.md R1, registry.md S41: a pin made while a command changes the store', () => {
  it('a pin whose tree an update collected before the pin was written is made afresh', async () => {
    await hookpm(['install', await guard('1.0.0'), '--yes']);
    const v2 = await guard('2.0.0');
    const v3 = await guard('3.0.0');
    // Two updates: the first keeps 1.0.0's tree as the previous one, the second collects it.
    between.run = async () => {
      await hookpm(['install', v2, '--yes']);
      await hookpm(['install', v3, '--yes']);
    };
    const { pin, stored } = await pinNow();
    expect(stored).toBe(true);
    const kept = readPin(store.paths, SESSION);
    expect(kept?.plugins.map((p) => p.version)).toEqual(['3.0.0']);
    for (const plugin of [...pin.plugins, ...kept!.plugins])
      expect(existsSync(plugin.root)).toBe(true);
  }, 60_000);

  it('a pin made while the plugin was uninstalled keeps no plugin of it', async () => {
    await hookpm(['install', await guard('1.0.0'), '--yes']);
    between.run = () => hookpm(['remove', 'guard@local']);
    const { pin } = await pinNow();
    expect(pin.plugins).toEqual([]);
    expect(readPin(store.paths, SESSION)?.plugins ?? []).toEqual([]);
  }, 60_000);

  it('engine.md R4: `hookpm reload` while updates collect the tree it read pins what is installed then', async () => {
    await hookpm(['install', await guard('1.0.0'), '--yes']);
    await pinNow();
    await hookpm(['install', await guard('2.0.0'), '--yes']);
    const v3 = await guard('3.0.0');
    const v4 = await guard('4.0.0');
    // The reload reads 2.0.0, which no pin runs; two updates collect its tree before it writes.
    between.run = async () => {
      await hookpm(['install', v3, '--yes']);
      await hookpm(['install', v4, '--yes']);
    };
    await reloadSessions(store.paths, { sessionId: SESSION });
    const kept = readPin(store.paths, SESSION);
    expect(kept?.plugins.map((p) => p.version)).toEqual(['4.0.0']);
    expect(existsSync(kept!.plugins[0]!.root)).toBe(true);
  }, 60_000);
});
