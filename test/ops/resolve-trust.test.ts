import { mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isHookpmError } from '../../src/errors.js';
import { sha256Hex } from '../../src/json/canonical-json.js';
import type { SourceDocument } from '../../src/hooks/types.js';
import {
  loadTrustedSnapshot,
  type LoadTrustedSnapshotOptions,
} from '../../src/ops/run/load-trusted-snapshot.js';
import { summarizeProjectHooks } from '../../src/ops/run/project-hooks-summary.js';
import { resolveTrust, type AskTrust, type TrustAnswer } from '../../src/ops/run/resolve-trust.js';
import { readHookSources } from '../../src/workspace/read-hook-sources.js';
import { grantTrust, trustStorePath } from '../../src/workspace/trust-store.js';

let dir: string;
let home: string;
let repo: string;

const doc = (command: string): string =>
  JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } });
const projectFile = (): string => join(repo, '.deepagents', 'hooks.json');
const userFile = (): string => join(home, '.deepagents', 'hooks.json');

async function put(file: string, content: string): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, content);
}

/** An AskTrust that records the files it was asked about and gives `answer`, after `before` runs. */
function asker(answer: TrustAnswer, before?: () => Promise<void>): AskTrust & { asked: string[] } {
  const asked: string[] = [];
  const ask = async (file: string): Promise<TrustAnswer> => {
    asked.push(file);
    await before?.();
    return answer;
  };
  return Object.assign(ask, { asked });
}

const neverAsk: AskTrust = (file) =>
  Promise.reject(new Error(`asked about ${file}, which T4 forbids here`));

const plugin: SourceDocument = {
  origin: 'plugin',
  file: '/plugins/guard/hooks/hooks.json',
  config: { Stop: [{ matcher: null, hooks: [{ type: 'command', command: 'plugin' }] }] },
  plugin: { id: 'guard@examples', root: '/plugins/guard', data: '/data/guard' },
};

async function load(options: Partial<LoadTrustedSnapshotOptions>) {
  const loaded = await loadTrustedSnapshot({
    cwd: repo,
    home,
    flag: false,
    plugins: { sources: [plugin], diagnostics: [] },
    ...options,
  });
  return { ...loaded, commands: loaded.snapshot.handlers.map((h) => `${h.origin}:${h.command}`) };
}

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'hookpm-resolve-trust-')));
  home = join(dir, 'home');
  repo = join(dir, 'repo');
  await mkdir(join(repo, '.git'), { recursive: true });
  await mkdir(join(repo, 'src'), { recursive: true });
  await put(userFile(), doc('user'));
  await put(projectFile(), doc('project'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('resolveTrust and loadTrustedSnapshot', () => {
  it('T4: without a project file nothing is asked', async () => {
    await rm(projectFile());
    const { trust, commands } = await load({ askTrust: neverAsk });
    expect(trust).toMatchObject({ trusted: false, reason: 'no-project-file', root: repo });
    expect(commands).toEqual(['user:user', 'plugin:plugin']);
  });

  it('T4, S4: a project file that is the user file is not asked about and is read once, as the user file', async () => {
    await rm(projectFile());
    await symlink(userFile(), projectFile());
    const { trust, commands } = await load({ askTrust: neverAsk });
    expect(trust.reason).toBe('same-as-user-file');
    expect(commands).toEqual(['user:user', 'plugin:plugin']);
  });

  it('T4: --trust-project-hooks trusts without asking, and the project file loads first (S3)', async () => {
    const { trust, commands } = await load({ askTrust: neverAsk, flag: true });
    expect(trust).toMatchObject({
      trusted: true,
      reason: 'flag',
      sha256: sha256Hex(await readFile(projectFile())),
    });
    expect(commands).toEqual(['project:project', 'user:user', 'plugin:plugin']);
  });

  it('T4, T2: a stored trust of the project root trusts without asking, from a subdirectory too', async () => {
    await grantTrust(home, repo);
    const { trust, commands } = await load({ askTrust: neverAsk, cwd: join(repo, 'src') });
    expect(trust).toMatchObject({ trusted: true, reason: 'stored', root: repo });
    expect(commands).toEqual(['project:project', 'user:user', 'plugin:plugin']);
  });

  it('T4: otherwise the prompt is shown the project file, and Allow once loads it without storing anything', async () => {
    const ask = asker('once');
    const { trust, commands } = await load({ askTrust: ask });
    expect(ask.asked).toEqual([projectFile()]);
    expect(trust).toMatchObject({
      trusted: true,
      reason: 'allowed-once',
      onceSha256: sha256Hex(await readFile(projectFile())),
    });
    expect(commands).toEqual(['project:project', 'user:user', 'plugin:plugin']);
    await expect(stat(trustStorePath(home))).rejects.toThrow();
  });

  it('T4: an askTrust answer that is none of the four rejects with E_USAGE naming it; nothing is trusted', async () => {
    for (const answer of ['yes', undefined, 1]) {
      const ask = asker(answer as TrustAnswer);
      const error = await load({ askTrust: ask }).catch((e: unknown) => e);
      expect(isHookpmError(error, 'E_USAGE')).toBe(true);
      expect((error as Error).message).toMatch(/^askTrust answered .*; expected "once"/);
    }
    await expect(stat(trustStorePath(home))).rejects.toThrow();
  });

  it('T4, R4: an Allow once grant holds on re-resolution while the bytes are the same, and an edit revokes it', async () => {
    const first = await resolveTrust({ cwd: repo, home, flag: false, askTrust: asker('once') });
    const again = await resolveTrust({
      cwd: repo,
      home,
      flag: false,
      askTrust: neverAsk,
      onceSha256: first.onceSha256,
    });
    expect(again).toMatchObject({
      trusted: true,
      reason: 'granted-once',
      onceSha256: first.onceSha256,
    });
    await writeFile(projectFile(), doc('edited'));
    const ask = asker('deny');
    const { trust, commands } = await load({ askTrust: ask, onceSha256: first.onceSha256 });
    expect(ask.asked).toEqual([projectFile()]);
    expect(trust).toMatchObject({ trusted: false, reason: 'denied', onceSha256: null });
    expect(commands).toEqual(['user:user', 'plugin:plugin']);
  });

  it('T4: Always allow stores the canonical root, so the next interactive start does not ask', async () => {
    const clock = (): Date => new Date('2026-05-06T07:08:09.000Z');
    const { trust } = await load({ askTrust: asker('always'), clock });
    expect(trust).toMatchObject({ trusted: true, reason: 'always-allowed', onceSha256: null });
    expect(JSON.parse(await readFile(trustStorePath(home), 'utf8'))).toEqual({
      version: 1,
      projects: { [repo]: { trusted_at: '2026-05-06T07:08:09.000Z' } },
    });
    expect((await load({ askTrust: neverAsk })).trust.reason).toBe('stored');
  });

  it('T4, T7: Deny skips the project hooks while user and plugin hooks still load', async () => {
    const { trust, commands, snapshot } = await load({ askTrust: asker('deny') });
    expect(trust).toMatchObject({ trusted: false, reason: 'denied' });
    expect(commands).toEqual(['user:user', 'plugin:plugin']);
    expect(snapshot.diagnostics.map((d) => d.code)).toEqual([
      'trust_store_missing',
      'project_untrusted',
    ]);
    expect(snapshot.diagnostics[1]).toMatchObject({ path: projectFile(), severity: 'info' });
  });

  it('T4: Cancel aborts with E_CANCELLED naming the file', async () => {
    const error = await load({ askTrust: asker('cancel') }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isHookpmError(error, 'E_CANCELLED')).toBe(true);
    expect((error as Error).message).toContain(projectFile());
  });

  it('T3: a corrupt store is read as untrusted with a warning, and Always allow then trusts this session only without overwriting it', async () => {
    await put(trustStorePath(home), '{"version":1,"projects":{"x":');
    const before = await readFile(trustStorePath(home));
    const ask = asker('always');
    const { trust, commands, snapshot } = await load({ askTrust: ask });
    expect(ask.asked).toEqual([projectFile()]);
    expect(trust).toMatchObject({
      trusted: true,
      reason: 'always-allowed',
      onceSha256: sha256Hex(await readFile(projectFile())),
    });
    expect(commands).toEqual(['project:project', 'user:user', 'plugin:plugin']);
    expect(snapshot.diagnostics.map((d) => d.code)).toEqual([
      'trust_store_invalid',
      'trust_not_stored',
    ]);
    expect(Buffer.compare(await readFile(trustStorePath(home)), before)).toBe(0);
  });

  it('T5: headless use ignores a stored trust: without the flag the project hooks do not load', async () => {
    await grantTrust(home, repo);
    const { trust, commands, snapshot } = await load({});
    expect(trust).toMatchObject({ trusted: false, reason: 'headless' });
    expect(commands).toEqual(['user:user', 'plugin:plugin']);
    expect(snapshot.diagnostics).toEqual([
      expect.objectContaining({ code: 'project_untrusted', severity: 'info' }),
    ]);
  });

  it('T5: headless use with --trust-project-hooks loads the project hooks and never reads the store', async () => {
    await put(trustStorePath(home), 'not json');
    const { trust, commands, snapshot } = await load({ flag: true });
    expect(trust).toMatchObject({ trusted: true, reason: 'flag' });
    expect(commands).toEqual(['project:project', 'user:user', 'plugin:plugin']);
    expect(snapshot.diagnostics).toEqual([]);
  });

  it('T6: a project file edited between the trust check and loading is not loaded, and a diagnostic says why', async () => {
    const ask = asker('once', () => writeFile(projectFile(), doc('swapped')));
    const { trust, commands, snapshot, workspace } = await load({ askTrust: ask });
    expect(trust.trusted).toBe(true);
    expect(commands).toEqual(['user:user', 'plugin:plugin']);
    expect(workspace.projectFile.status).toBe('changed');
    expect(snapshot.diagnostics.map((d) => d.code)).toEqual([
      'trust_store_missing',
      'project_changed',
    ]);
    expect(snapshot.diagnostics[1]).toMatchObject({
      origin: 'project',
      path: projectFile(),
      severity: 'warning',
    });
  });

  it('T4: the question shows the bytes the answer binds to, never the file read again after it changed', async () => {
    await writeFile(projectFile(), doc('on disk now'));
    const shown = summarizeProjectHooks({
      path: projectFile(),
      bytes: Buffer.from(doc('hashed')),
    });
    expect(shown).toEqual({
      status: 'read',
      hooks: [{ event: 'Stop', matcher: null, command: 'hashed' }],
    });
    const fifo = summarizeProjectHooks({ path: projectFile(), bytes: null, unreadable: 'why' });
    expect(fifo).toEqual({ status: 'unreadable', reason: 'why' });
  });

  it('T6: readHookSources checks the bytes it actually loads against the expected SHA-256', async () => {
    const bytes = await readFile(projectFile());
    const same = await readHookSources({
      cwd: repo,
      home,
      trustProject: true,
      expectedProjectSha256: sha256Hex(bytes),
    });
    expect(same.projectFile.status).toBe('loaded');
    const other = await readHookSources({
      cwd: repo,
      home,
      trustProject: true,
      expectedProjectSha256: sha256Hex('other'),
    });
    expect(other.projectFile.status).toBe('changed');
    expect(other.sources.map((s) => s.origin)).toEqual(['user']);
    const appeared = await readHookSources({
      cwd: repo,
      home,
      trustProject: true,
      expectedProjectSha256: null,
    });
    expect(appeared.projectFile.status).toBe('changed');
  });

  it('T7: trust never gates plugins: with no workspace trust at all, plugin hooks load', async () => {
    for (const options of [{}, { askTrust: asker('deny') }]) {
      const { commands } = await load(options);
      expect(commands).toContain('plugin:plugin');
    }
  });

  it('T2: a symlink to the project shares its trust and loads from the real root', async () => {
    const link = join(dir, 'link');
    await symlink(repo, link);
    await grantTrust(home, link);
    const { trust, workspace } = await load({ askTrust: neverAsk, cwd: link });
    expect(trust).toMatchObject({ trusted: true, reason: 'stored', root: repo });
    expect(workspace.projectDir).toBe(repo);
  });
});
