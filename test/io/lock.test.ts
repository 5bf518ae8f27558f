import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, symlinkSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isHookpmError } from '../../src/errors.js';
import { acquireLock, withLock } from '../../src/io/lock.js';
import { processStartOf } from '../../src/io/lock-record.js';
import { setLockWaitListener, type LockWait } from '../../src/io/lock-wait.js';
import { installPlugins } from '../../src/ops/install/install.js';
import { lockFile } from '../../src/store/paths.js';
import { failure } from '../helpers/failure.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { cmd, makeWorld, pluginFiles } from '../ops/plugin-fixture.js';
import { runChild, startChild } from '../helpers/child.js';
import { compiledSandbox } from '../helpers/compile-src.js';

const holder = fileURLToPath(new URL('../fixtures/store/lock-holder.mjs', import.meta.url));
const sandbox = compiledSandbox('hookpm-lock-');

interface HolderArgs {
  lock: string;
  log: string;
  holdMs: number;
  waitMs: number;
  staleMs?: number;
  startAt?: number;
}

function startHolder(args: HolderArgs): ReturnType<typeof startChild> {
  const argv = [
    holder,
    args.lock,
    String(args.holdMs),
    args.log,
    String(args.waitMs),
    String(args.staleMs ?? 60_000),
  ];
  if (args.startAt !== undefined) argv.push(String(args.startAt));
  return startChild(process.execPath, argv, sandbox.env);
}

async function resultOf(child: ReturnType<typeof startChild>): Promise<Record<string, unknown>> {
  const line = await child.waitForLine((l) => l.startsWith('{'), 20_000);
  await child.exited;
  return JSON.parse(line) as Record<string, unknown>;
}

/** Checks from the enter/exit log that no two holders ever overlapped; returns the holders in order. */
async function holdersInOrder(log: string): Promise<string[]> {
  const lines = (await readFile(log, 'utf8')).trim().split('\n');
  const order: string[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const [enter, pid] = (lines[i] ?? '').split(' ');
    expect(enter).toBe('enter');
    expect(lines[i + 1]).toBe(`exit ${pid}`);
    order.push(pid ?? '');
  }
  return order;
}

/** A pid that certainly belongs to no running process: one that has exited and been reaped. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

async function newCase(name: string): Promise<{ lock: string; log: string }> {
  const sub = await mkdtemp(join(sandbox.dir, `${name}-`));
  const log = join(sub, 'log');
  await writeFile(log, '');
  return { lock: join(sub, 'data', '.lock'), log };
}

describe('acquireLock', () => {
  it('D3: two processes that contend both finish, one after the other', async () => {
    const { lock, log } = await newCase('two');
    const startAt = Date.now() + 400;
    const a = startHolder({ lock, log, holdMs: 300, waitMs: 10_000, startAt });
    const b = startHolder({ lock, log, holdMs: 300, waitMs: 10_000, startAt });
    expect(await resultOf(a)).toEqual({ ok: true });
    expect(await resultOf(b)).toEqual({ ok: true });
    expect(await holdersInOrder(log)).toHaveLength(2);
    expect(await readdir(join(lock, '..'))).toEqual([]);
  });

  it('D3: a second process that cannot wait long enough gets E_LOCKED naming the holder pid', async () => {
    const { lock, log } = await newCase('locked');
    const first = startHolder({ lock, log, holdMs: 60_000, waitMs: 1_000 });
    await first.waitForLine((l) => l === 'locked');
    const second = startHolder({ lock, log, holdMs: 0, waitMs: 150 });
    const result = await resultOf(second);
    expect(result).toMatchObject({ code: 'E_LOCKED', pid: first.proc.pid });
    expect(String(result.message)).toContain(`process ${first.proc.pid}`);
    first.proc.kill('SIGKILL');
    await first.exited;
    expect(await readFile(log, 'utf8')).toBe(`enter ${first.proc.pid}\n`);
  });

  it('D3: a lock left by a SIGKILLed process is recovered within seconds', async () => {
    const { lock, log } = await newCase('killed');
    const victim = startHolder({ lock, log, holdMs: 60_000, waitMs: 1_000 });
    await victim.waitForLine((l) => l === 'locked');
    victim.proc.kill('SIGKILL');
    await victim.exited;
    const started = Date.now();
    const release = await acquireLock(lock, { waitMs: 5_000 });
    expect(Date.now() - started).toBeLessThan(2_000);
    const record = JSON.parse(await readFile(lock, 'utf8')) as { pid: number };
    expect(record.pid).toBe(process.pid);
    await release();
    expect(await readdir(join(lock, '..'))).toEqual([]);
  });

  it('D3: a stale lock (dead holder) is taken over by exactly one of several contenders at a time', async () => {
    const { lock, log } = await newCase('stale');
    await acquireLock(lock, { waitMs: 100 }).then((release) => release());
    const stale = {
      pid: deadPid(),
      hostname: hostname(),
      startedAt: '2026-01-01T00:00:00Z',
      token: 'deadbeefdeadbeef',
    };
    await writeFile(lock, JSON.stringify(stale));
    const startAt = Date.now() + 500;
    const contenders = Array.from({ length: 5 }, () =>
      startHolder({ lock, log, holdMs: 100, waitMs: 15_000, startAt }),
    );
    for (const child of contenders) expect(await resultOf(child)).toEqual({ ok: true });
    const order = await holdersInOrder(log);
    expect(new Set(order).size).toBe(5);
    expect(await readdir(join(lock, '..'))).toEqual([]);
  });

  it('D3: eight staggered contenders in one process racing on a stale lock never hold it at the same time', async () => {
    const { lock } = await newCase('inproc');
    for (let round = 0; round < 4; round += 1) {
      const stale = {
        pid: deadPid(),
        hostname: hostname(),
        startedAt: '2026-01-01T00:00:00Z',
        token: `deadbeef000${round}`,
      };
      await mkdir(join(lock, '..'), { recursive: true });
      await writeFile(lock, JSON.stringify(stale));
      const events: string[] = [];
      const contend = async (i: number): Promise<void> => {
        // Staggered by i file-system round trips, so contenders meet the lock at every step of a takeover.
        for (let k = 0; k < i; k += 1) await stat(lock).catch(() => undefined);
        await withLock(
          lock,
          async () => {
            events.push(`enter ${i}`);
            await sleep(5);
            events.push(`exit ${i}`);
          },
          { waitMs: 10_000 },
        );
      };
      await Promise.all(Array.from({ length: 8 }, (_, i) => contend(i)));
      for (let k = 0; k < events.length; k += 2) {
        expect(events[k + 1]).toBe((events[k] ?? '').replace('enter', 'exit'));
      }
      expect(events).toHaveLength(16);
    }
  });

  it('D3: a takeover left half-done by a killed recoverer (its marker remains) is itself taken over', async () => {
    const { lock } = await newCase('marker');
    await mkdir(join(lock, '..'), { recursive: true });
    const deadHolder = {
      pid: deadPid(),
      hostname: hostname(),
      startedAt: '2026-01-01T00:00:00Z',
      token: 'aaaaaaaaaaaaaaaa',
    };
    const deadRecoverer = { ...deadHolder, pid: deadPid(), token: 'bbbbbbbbbbbbbbbb' };
    await writeFile(lock, JSON.stringify(deadHolder));
    await writeFile(`${lock}.takeover-${deadHolder.token}`, JSON.stringify(deadRecoverer));
    const release = await acquireLock(lock, { waitMs: 2_000 });
    expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ pid: process.pid });
    await release();
    expect(await readdir(join(lock, '..'))).toEqual([]);
  });

  it('D3: a lock of another host not refreshed for staleMs is taken over by exactly one contender at a time', async () => {
    const { lock, log } = await newCase('aged');
    await acquireLock(lock, { waitMs: 100 }).then((release) => release());
    const foreign = {
      pid: 1,
      hostname: 'elsewhere.invalid',
      startedAt: '2026-01-01T00:00:00Z',
      token: 'abcdefabcdef0123',
    };
    await writeFile(lock, JSON.stringify(foreign));
    const old = new Date(Date.now() - 10_000);
    await utimes(lock, old, old);
    const startAt = Date.now() + 500;
    const contenders = Array.from({ length: 4 }, () =>
      startHolder({ lock, log, holdMs: 100, waitMs: 15_000, staleMs: 5_000, startAt }),
    );
    for (const child of contenders) expect(await resultOf(child)).toEqual({ ok: true });
    expect(new Set(await holdersInOrder(log)).size).toBe(4);
  });

  it('D3: a live holder refreshes its lock, so a holder held longer than staleMs is never taken over', async () => {
    const { lock, log } = await newCase('refresh');
    const first = startHolder({ lock, log, holdMs: 1_500, waitMs: 1_000, staleMs: 500 });
    await first.waitForLine((l) => l === 'locked');
    const second = startHolder({ lock, log, holdMs: 50, waitMs: 10_000, staleMs: 500 });
    expect(await resultOf(first)).toEqual({ ok: true });
    expect(await resultOf(second)).toEqual({ ok: true });
    expect(await holdersInOrder(log)).toEqual([String(first.proc.pid), String(second.proc.pid)]);
  });

  it('D3: release removes the lock only while it still holds our token', async () => {
    const { lock } = await newCase('token');
    const release = await acquireLock(lock);
    const other = JSON.stringify({
      pid: process.pid,
      hostname: 'h',
      startedAt: 'now',
      token: '0123456789abcdef',
    });
    await writeFile(lock, other);
    await release();
    expect(await readFile(lock, 'utf8')).toBe(other);
  });

  it('D3: withLock releases the lock when the function throws, and passes the error on', async () => {
    const { lock } = await newCase('throws');
    await expect(withLock(lock, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await withLock(lock, () => Promise.resolve(42), { waitMs: 100 })).toBe(42);
  });

  it('D3: the lock is not reentrant: the same process asking again gets E_LOCKED after waitMs', async () => {
    const { lock } = await newCase('reentrant');
    const release = await acquireLock(lock);
    const error: unknown = await acquireLock(lock, { waitMs: 50 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isHookpmError(error, 'E_LOCKED')).toBe(true);
    expect((error as Error).message).toMatch(/^the store is locked by process /);
    // A lock that guards something else says what (a registry build's output directory).
    const other: unknown = await acquireLock(lock, { waitMs: 50, guards: 'the output' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((other as Error).message).toMatch(/^the output is locked by process /);
    await release();
  });

  it('D3: a lock file holding no record hookpm writes (not JSON, empty, JSON of another shape) is replaced once it stood unchanged for a second, not after the whole wait', async () => {
    const texts = ['garbage', '', '{"pid":"12","token":"not hex"}'];
    const locks = await Promise.all(
      texts.map(async (text, i) => {
        const { lock } = await newCase(`garbage-${i}`);
        await mkdir(join(lock, '..'), { recursive: true });
        await writeFile(lock, text);
        // A modification time in the future does not keep it either.
        await utimes(lock, new Date('2100-01-01'), new Date('2100-01-01'));
        return lock;
      }),
    );
    await Promise.all(
      locks.map(async (lock) => {
        const release = await acquireLock(lock, { waitMs: 10_000 });
        expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ pid: process.pid });
        await release();
      }),
    );
  });

  it('D3: a lock file whose content was written just now is left alone even when it is no record (its writer may be filling it)', async () => {
    const { lock } = await newCase('garbage-new');
    await mkdir(join(lock, '..'), { recursive: true });
    await writeFile(lock, '');
    const error = await failure(acquireLock(lock, { waitMs: 100 }));
    expect(isHookpmError(error, 'E_LOCKED')).toBe(true);
    expect(await readFile(lock, 'utf8')).toBe('');
  });
});

describe.runIf(process.platform === 'linux')('a recorded pid that is alive (Linux: /proc)', () => {
  /** A process that is not hookpm and outlives the test's waits. */
  const startSleeper = () => spawn('sleep', ['30'], { stdio: 'ignore' });

  async function plant(lock: string, record: Record<string, unknown>): Promise<string> {
    await mkdir(join(lock, '..'), { recursive: true });
    const text = JSON.stringify({
      hostname: hostname(),
      startedAt: '2026-01-01T00:00:00Z',
      token: 'feedfacefeedface',
      ...record,
    });
    await writeFile(lock, text);
    return text;
  }

  async function lockedFor(lock: string): Promise<unknown> {
    return acquireLock(lock, { waitMs: 300 }).then(
      (release) => release().then(() => 'acquired'),
      (e: unknown) => e,
    );
  }

  it("D3: the lock record holds the holder's process start time (/proc/<pid>/stat field 22)", async () => {
    const { lock } = await newCase('start');
    const release = await acquireLock(lock);
    const record = JSON.parse(await readFile(lock, 'utf8')) as { processStart?: string };
    expect(record.processStart).toBe(processStartOf(process.pid));
    expect(record.processStart).toMatch(/^[0-9a-f-]*:\d+$/);
    await release();
  });

  it('D3: a lock whose pid is alive but is another process (its start time differs: the pid was reused) is recovered at once', async () => {
    const { lock } = await newCase('reused');
    const sleeper = startSleeper();
    try {
      const actual = processStartOf(sleeper.pid as number) as string;
      await plant(lock, { pid: sleeper.pid, processStart: `${actual}0` });
      const started = Date.now();
      const release = await acquireLock(lock, { waitMs: 5000 });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ pid: process.pid });
      await release();
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it("D3: a lock naming a live unrelated process (this test's own pid, with a start time that is not its own) is taken over at once", async () => {
    const { lock } = await newCase('own-pid');
    const own = processStartOf(process.pid) as string;
    await plant(lock, { pid: process.pid, processStart: `${own}1`, token: 'abadcafeabadcafe' });
    const started = Date.now();
    const release = await acquireLock(lock, { waitMs: 5000 });
    expect(Date.now() - started).toBeLessThan(1000);
    const record = JSON.parse(await readFile(lock, 'utf8')) as Record<string, unknown>;
    expect(record).toMatchObject({ pid: process.pid, processStart: own });
    expect(record['token']).not.toBe('abadcafeabadcafe');
    await release();
  });

  it.each([
    ['a FIFO', (lock: string) => expect(spawnSync('mkfifo', [lock]).status).toBe(0)],
    ['a symlink to /dev/zero', (lock: string) => symlinkSync('/dev/zero', lock)],
  ])(
    'D3, D7: a lock file that is %s (no lock hookpm makes) is replaced at once, never read',
    async (_, make) => {
      const { lock } = await newCase(`odd-${_.length}`);
      await mkdir(join(lock, '..'), { recursive: true });
      make(lock);
      const started = Date.now();
      const release = await acquireLock(lock, { waitMs: 5000 });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(lstatSync(lock).isFile()).toBe(true);
      expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ pid: process.pid });
      await release();
    },
  );

  it('D2, D3: a lock record that cannot be written (the file made, its bytes refused) fails with the store error and leaves no temporary file beside the lock', async () => {
    // A full disk refuses the bytes after the file is made; `ulimit -f 0` (EFBIG) does the same
    // without root or a mount.
    const { lock, log } = await newCase('unwritable');
    const argv = [holder, lock, '0', log, '1000', '60000'];
    const [result] = await runChild(
      'bash',
      ['-c', 'ulimit -f 0; exec node "$0" "$@"', ...argv],
      sandbox.env,
    );
    expect(result).toMatchObject({ code: 'E_IO' });
    expect((result as { message: string }).message).toContain(lock);
    expect(await readdir(join(lock, '..'))).toEqual([]);
  });

  it('D3: a directory where the lock file goes is never taken over: E_IO naming it with the fix, and nothing is left beside it', async () => {
    const { lock } = await newCase('directory');
    await mkdir(join(lock, 'inside'), { recursive: true });
    const before = await readdir(join(lock, '..'));
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const error = await failure(acquireLock(lock, { waitMs: 1000 }));
      expect(isHookpmError(error, 'E_IO')).toBe(true);
      expect(error.message).toBe(`cannot lock ${lock}: it is a directory`);
      expect(error.hint).toContain(`remove the directory ${lock}`);
    }
    expect(await readdir(join(lock, '..'))).toEqual(before);
    expect(await readdir(lock)).toEqual(['inside']);
  });

  it('D3: a lock whose live pid has the recorded start time is held: E_LOCKED, and the lock file is byte-identical', async () => {
    const { lock } = await newCase('held');
    const sleeper = startSleeper();
    try {
      const text = await plant(lock, {
        pid: sleeper.pid,
        processStart: processStartOf(sleeper.pid as number),
      });
      expect(isHookpmError(await lockedFor(lock), 'E_LOCKED')).toBe(true);
      expect(await readFile(lock, 'utf8')).toBe(text);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('D3: through hookpm install: a store lock of a live holder is E_LOCKED with the store byte-identical; once its pid names another process, the install recovers it', async () => {
    const world = await makeWorld();
    const sleeper = startSleeper();
    try {
      const dir = await world.plugin(
        'guard',
        pluginFiles('guard', '1.0.0', { Stop: [cmd('true')] }),
      );
      const ctx = { paths: world.paths, defaults: {}, lockWaitMs: 300 };
      const opts = {
        specs: [dir],
        cwd: world.dir,
        enable: 'yes' as const,
        force: false,
        dryRun: false,
      };
      const actual = processStartOf(sleeper.pid as number) as string;
      await plant(lockFile(world.paths), { pid: sleeper.pid, processStart: actual });
      const before = await hashStore(world.paths);
      const error = await failure(installPlugins(ctx, opts));
      expect(error.code).toBe('E_LOCKED');
      expect(await hashStore(world.paths)).toEqual(before);
      await plant(lockFile(world.paths), { pid: sleeper.pid, processStart: `${actual}0` });
      expect((await installPlugins(ctx, opts)).installed[0]).toMatchObject({ id: 'guard@local' });
    } finally {
      sleeper.kill('SIGKILL');
      await world.cleanup();
    }
  });

  it('D3: a record without a start time (an older hookpm, or macOS and Windows) and a live pid is recovered once nobody refreshed it for ten times staleMs, and held before', async () => {
    const { lock } = await newCase('untold');
    const sleeper = startSleeper();
    try {
      const text = await plant(lock, { pid: sleeper.pid });
      const nineAgo = (Date.now() - 9_000) / 1000;
      await utimes(lock, nineAgo, nineAgo);
      const held = await acquireLock(lock, { waitMs: 300, staleMs: 1_000 }).then(
        (release) => release().then(() => 'acquired'),
        (e: unknown) => e,
      );
      expect(isHookpmError(held, 'E_LOCKED')).toBe(true);
      expect(await readFile(lock, 'utf8')).toBe(text);
      const elevenAgo = (Date.now() - 11_000) / 1000;
      await utimes(lock, elevenAgo, elevenAgo);
      const release = await acquireLock(lock, { waitMs: 300, staleMs: 1_000 });
      expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ pid: process.pid });
      await release();
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it("D3: a record without a start time (an older hookpm) and a live pid keeps today's rule: E_LOCKED, the lock file byte-identical", async () => {
    const { lock } = await newCase('older');
    const sleeper = startSleeper();
    try {
      const text = await plant(lock, { pid: sleeper.pid });
      expect(isHookpmError(await lockedFor(lock), 'E_LOCKED')).toBe(true);
      expect(await readFile(lock, 'utf8')).toBe(text);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});

describe('the lock-wait notice', () => {
  it('a wait past one second tells the listener once who holds the lock, with its command; a shorter one says nothing', async () => {
    const heard: LockWait[] = [];
    setLockWaitListener((wait) => heard.push(wait));
    try {
      const { lock, log } = await newCase('notice');
      const long = startHolder({ lock, log, holdMs: 2_500, waitMs: 1_000 });
      await long.waitForLine((l) => l === 'locked');
      const started = Date.now();
      const release = await acquireLock(lock, { waitMs: 20_000 });
      expect(Date.now() - started).toBeGreaterThan(1_000);
      await release();
      await resultOf(long);
      expect(heard).toHaveLength(1);
      expect(heard[0]).toMatchObject({ lockPath: lock, holder: { pid: long.proc.pid } });
      expect(heard[0]?.holder?.command).toMatch(/^lock-holder /);
      expect(heard[0]?.waitedMs).toBeGreaterThanOrEqual(1_000);
      const short = startHolder({ lock, log, holdMs: 200, waitMs: 1_000 });
      await short.waitForLine((l) => l === 'locked');
      await (
        await acquireLock(lock, { waitMs: 20_000 })
      )();
      await resultOf(short);
      expect(heard).toHaveLength(1);
    } finally {
      setLockWaitListener(undefined);
    }
  }, 30_000);
});
