import { execFileSync } from 'node:child_process';
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isHookpmError, type HookpmError } from '../../src/errors.js';
import {
  grantTrust,
  readTrust,
  revokeTrust,
  trustStorePath,
} from '../../src/workspace/trust-store.js';

let dir: string;
let home: string;
let repo: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'hookpm-trust-store-')));
  home = join(dir, 'home');
  repo = join(dir, 'repo');
  await mkdir(join(repo, '.git'), { recursive: true });
  await mkdir(join(repo, 'src', 'deep'), { recursive: true });
  await mkdir(home, { recursive: true });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const store = (): string => trustStorePath(home);
const clock = (): Date => new Date('2026-01-02T03:04:05.678Z');

async function putStore(text: string): Promise<void> {
  await mkdir(join(store(), '..'), { recursive: true });
  await writeFile(store(), text);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('trust store', () => {
  it('T1: grantTrust writes {"version":1,"projects":{root:{trusted_at}}} at ~/.deepagents/.state/hooks_trust.json', async () => {
    const change = await grantTrust(home, repo, { clock });
    expect(store()).toBe(join(home, '.deepagents', '.state', 'hooks_trust.json'));
    expect(change).toEqual({
      root: repo,
      trusted: true,
      changed: true,
      trustedAt: '2026-01-02T03:04:05.678Z',
      storeFile: store(),
    });
    expect(JSON.parse(await readFile(store(), 'utf8'))).toEqual({
      version: 1,
      projects: { [repo]: { trusted_at: '2026-01-02T03:04:05.678Z' } },
    });
    expect(await readTrust(home, repo)).toMatchObject({
      root: repo,
      trusted: true,
      diagnostics: [],
    });
  });

  it('T1: the store is mode 0600 in a 0700 directory, and no lock or temporary file is left behind', async () => {
    await mkdir(join(home, '.deepagents', '.state'), { recursive: true, mode: 0o755 });
    await chmod(join(home, '.deepagents', '.state'), 0o755);
    await grantTrust(home, repo);
    expect((await stat(store())).mode & 0o777).toBe(0o600);
    expect((await stat(join(store(), '..'))).mode & 0o777).toBe(0o700);
    expect(await readdir(join(store(), '..'))).toEqual(['hooks_trust.json']);
  });

  it('T1: concurrent grants of different roots from one process all end up in the store (the lock serialises them)', async () => {
    const roots = await Promise.all(
      [0, 1, 2, 3, 4].map(async (i) => {
        const root = join(dir, `p${i}`);
        await mkdir(root);
        return root;
      }),
    );
    await Promise.all(roots.map((root) => grantTrust(home, root)));
    const saved = JSON.parse(await readFile(store(), 'utf8')) as {
      projects: Record<string, unknown>;
    };
    expect(Object.keys(saved.projects).sort()).toEqual(roots);
  });

  it('T1: granting an already trusted root keeps its trusted_at and does not rewrite the store', async () => {
    await grantTrust(home, repo, { clock });
    const before = await stat(store());
    const again = await grantTrust(home, repo, { clock: () => new Date('2030-01-01T00:00:00Z') });
    expect(again).toMatchObject({
      trusted: true,
      changed: false,
      trustedAt: '2026-01-02T03:04:05.678Z',
    });
    expect((await stat(store())).ino).toBe(before.ino);
  });

  it('T2: trusting a symlinked path trusts its target, under the real path', async () => {
    const link = join(dir, 'link');
    await symlink(repo, link);
    const change = await grantTrust(home, link);
    expect(change.root).toBe(repo);
    expect((await readTrust(home, repo)).trusted).toBe(true);
    expect((await readTrust(home, link)).trusted).toBe(true);
    const saved = JSON.parse(await readFile(store(), 'utf8')) as {
      projects: Record<string, unknown>;
    };
    expect(Object.keys(saved.projects)).toEqual([repo]);
  });

  it('T2: a subdirectory resolves to its project root, both when trusting and when reading', async () => {
    const change = await grantTrust(home, join(repo, 'src', 'deep'));
    expect(change.root).toBe(repo);
    expect(await readTrust(home, join(repo, 'src'))).toMatchObject({ root: repo, trusted: true });
  });

  it('T2: distinct roots are independent: trusting one does not trust the other, and revoking one keeps the other', async () => {
    const other = join(dir, 'other');
    await mkdir(join(other, '.git'), { recursive: true });
    await grantTrust(home, repo);
    expect((await readTrust(home, other)).trusted).toBe(false);
    await grantTrust(home, other);
    const revoked = await revokeTrust(home, join(repo, 'src'));
    expect(revoked).toMatchObject({ root: repo, trusted: false, changed: true });
    expect((await readTrust(home, repo)).trusted).toBe(false);
    expect((await readTrust(home, other)).trusted).toBe(true);
    expect(await revokeTrust(home, repo)).toMatchObject({ trusted: false, changed: false });
  });

  it('T3: a missing store (a new home) means untrusted, with an info diagnostic, not a warning', async () => {
    const check = await readTrust(home, repo);
    expect(check.trusted).toBe(false);
    expect(check.diagnostics).toEqual([
      expect.objectContaining({ code: 'trust_store_missing', severity: 'info', path: store() }),
    ]);
  });

  it.each([
    ['invalid JSON', () => '{"version":1,"projects":{', 'invalid JSON at 1:'],
    [
      'a wrong version',
      (root: string) => JSON.stringify({ version: 2, projects: { [root]: { trusted_at: 'x' } } }),
      'version 2, expected version 1',
    ],
    [
      'no version',
      (root: string) => JSON.stringify({ projects: { [root]: { trusted_at: 'x' } } }),
      'no version, expected version 1',
    ],
    [
      'an entry of the wrong shape',
      (root: string) => JSON.stringify({ version: 1, projects: { [root]: true } }),
      'projects.',
    ],
    [
      'duplicate keys',
      (root: string) =>
        `{"version":1,"version":1,"projects":{${JSON.stringify(root)}:{"trusted_at":"x"}}}`,
      'duplicate key "version"',
    ],
    ['invalid UTF-8', () => Buffer.from([0x7b, 0xff, 0x7d]), 'not valid UTF-8'],
  ])(
    'T3: a store with %s means untrusted (with a warning) and is never overwritten',
    async (_name, content, reason) => {
      const bytes = Buffer.from(content(repo));
      await mkdir(join(store(), '..'), { recursive: true });
      await writeFile(store(), bytes);
      const check = await readTrust(home, repo);
      expect(check.trusted).toBe(false);
      expect(check.diagnostics).toEqual([
        expect.objectContaining({
          message: expect.stringContaining(reason),
          code: 'trust_store_invalid',
          severity: 'warning',
          path: store(),
        }),
      ]);
      for (const write of [() => grantTrust(home, repo), () => revokeTrust(home, repo)]) {
        const error = await rejection(write());
        expect(isHookpmError(error, 'E_TRUST_STORE')).toBe(true);
        expect((error as Error).message).toContain(store());
        expect((error as { hint?: string }).hint).toContain(store());
      }
      expect(Buffer.compare(await readFile(store()), bytes)).toBe(0);
    },
  );

  it('T3: an unreadable store (here a directory) means untrusted and is not replaced', async () => {
    await mkdir(store(), { recursive: true });
    const check = await readTrust(home, repo);
    expect(check).toMatchObject({
      trusted: false,
      diagnostics: [expect.objectContaining({ code: 'trust_store_invalid' })],
    });
    expect(isHookpmError(await rejection(grantTrust(home, repo)), 'E_TRUST_STORE')).toBe(true);
    expect((await stat(store())).isDirectory()).toBe(true);
  });

  it('T1: a valid store written by another tool keeps its unknown fields when an entry is added', async () => {
    await putStore(
      JSON.stringify({
        version: 1,
        owner: 'dcode',
        projects: { '/elsewhere': { trusted_at: '2025-01-01T00:00:00Z', note: 'kept' } },
      }),
    );
    await grantTrust(home, repo, { clock });
    expect(JSON.parse(await readFile(store(), 'utf8'))).toEqual({
      version: 1,
      owner: 'dcode',
      projects: {
        '/elsewhere': { trusted_at: '2025-01-01T00:00:00Z', note: 'kept' },
        [repo]: { trusted_at: '2026-01-02T03:04:05.678Z' },
      },
    });
  });

  it.each([
    ['its directory', () => join(store(), '..')],
    ['the store file', () => store()],
  ])(
    'T1: a trust store in a place that cannot be written (%s immutable, even for root) is E_IO naming it, never a read-only hookpm store',
    async (_, immutable) => {
      await putStore('{"version":1,"projects":{}}');
      await chmod(join(store(), '..'), 0o700);
      const target = immutable();
      execFileSync('chattr', ['+i', target]);
      try {
        const error = await rejection(grantTrust(home, repo));
        expect(isHookpmError(error, 'E_IO')).toBe(true);
        const { message, hint } = error as HookpmError;
        expect(message).toBe(
          `cannot ${_ === 'its directory' ? 'create' : 'write'} ${target}: operation not permitted (EPERM)`,
        );
        expect(`${message} ${hint}`).not.toMatch(/store is read-only|HOOKPM_HOME/);
      } finally {
        execFileSync('chattr', ['-i', target]);
      }
      expect(await readFile(store(), 'utf8')).toBe('{"version":1,"projects":{}}');
    },
  );

  it('T2: a directory that does not exist is a usage error, and nothing is written', async () => {
    const error = await rejection(grantTrust(home, join(dir, 'nope')));
    expect(isHookpmError(error, 'E_USAGE')).toBe(true);
    await expect(stat(store())).rejects.toThrow();
  });
});
