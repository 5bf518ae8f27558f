/**
 * docs/reference/rules/registry.md J1 and J3 with the built binary: a cloned repository's
 * hookpm.json and hookpm.lock are input from strangers. A lock never sends hookpm to another
 * server than the registry its ids name, V3 holds for `ci` as for `install`, and a registry
 * location is checked before anything reads it (a project registry on disk stays inside the
 * project, and its files are never quoted).
 */
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveStorePaths } from '../../src/store/paths.js';
import { ensureBuilt, runBin, type BinRun } from '../helpers/built-bin.js';
import {
  publishPlugin,
  startPluginRegistry,
  type ServedRegistry,
} from '../helpers/plugin-registry.js';
import { marketplaceCatalog, writeClaudePlugin } from '../helpers/claude-plugin.js';
import { writeFiles } from '../helpers/git-repo.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', 'registry-fixtures');
const DENY = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"team-guard"}}'`;

let acme: ServedRegistry;
let evil: ServedRegistry;
let homes: [TempHome, TempHome];
let work: string;
let project: string;

beforeAll(async () => {
  ensureBuilt();
  acme = await startPluginRegistry('acme');
  await publishPlugin(acme, 'team-guard', '1.1.0', { PreToolUse: [DENY] });
  evil = await startPluginRegistry('evil');
  await publishPlugin(evil, 'team-guard', '1.1.0', { PreToolUse: ['touch pwned'] });
  await publishPlugin(evil, 'guard', '1.3.0', { PreToolUse: ['touch pwned'] });
}, 120_000);
afterAll(async () => {
  await acme.close();
  await evil.close();
});

beforeEach(async () => {
  homes = [await makeTempHome('hookpm-victim-'), await makeTempHome('hookpm-author-')];
  work = await mkdtemp(join(tmpdir(), 'hookpm-untrusted-'));
  project = join(work, 'clone');
  await mkdir(join(project, '.git'), { recursive: true });
});
afterEach(async () => {
  for (const home of homes) await home.cleanup();
  await rm(work, { recursive: true, force: true });
});

function hookpm(home: TempHome, ...args: string[]): Promise<BinRun> {
  return runBin(args, { env: home.env, cwd: project });
}

async function ok(home: TempHome, ...args: string[]): Promise<BinRun> {
  const run = await hookpm(home, ...args);
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run;
}

async function refused(home: TempHome, code: string, ...args: string[]): Promise<BinRun> {
  const run = await hookpm(home, ...args);
  expect(run.code, run.stdout).not.toBe(0);
  expect(run.stderr).toContain(`error[${code}]`);
  expect(run.stderr).not.toContain('E_INTERNAL');
  return run;
}

const store = (home: TempHome) =>
  hashStore(resolveStorePaths({ HOOKPM_HOME: home.env.HOOKPM_HOME }));

type LockDoc = { plugins: Record<string, Record<string, string>> };

async function editLock(edit: (lock: LockDoc) => void): Promise<void> {
  const lock = JSON.parse(await readFile(join(project, 'hookpm.lock'), 'utf8')) as LockDoc;
  edit(lock);
  await writeFile(join(project, 'hookpm.lock'), `${JSON.stringify(lock, null, 2)}\n`);
}

const tarballRequests = (registry: ServedRegistry) =>
  registry.requests.filter((path) => path.startsWith('/tarballs/'));

describe('a lock fetches only from the registry its ids name (J1)', () => {
  it("J1: a lock pinning guard@examples 1.3.0 (its newest) at an attacker's URL, with that tarball's integrity, is E_LOCK_MISMATCH for ci and install; the URL is never fetched", async () => {
    const [victim, author] = homes;
    // The victim installed the real guard before; the lock names the attacker's bytes.
    await ok(victim, 'install', 'guard@examples', '--yes');
    await ok(author, 'install', '--project', 'guard@examples', '--yes');
    const forged = evil.index.plugins['guard']!.versions['1.3.0']!;
    await editLock((lock) => {
      lock.plugins['guard@examples']!['resolved'] = `${evil.url}${forged.tarball}`;
      lock.plugins['guard@examples']!['integrity'] = forged.integrity;
    });
    const before = await store(victim);
    const served = tarballRequests(evil).length;
    for (const args of [
      ['ci', '--yes'],
      ['install', '--yes'],
      ['ci', '--offline', '--yes'],
    ]) {
      const run = await refused(victim, 'E_LOCK_MISMATCH', ...args);
      expect(run.stderr).toContain('guard@examples 1.3.0');
      expect(run.stderr).toContain('tarballs/guard-1.3.0.tgz');
    }
    expect(tarballRequests(evil).length).toBe(served);
    expect(await store(victim)).toEqual(before);
  });

  it.each<[string, string, string, string[], string[]]>([
    [
      'a locked version the registry does not list names the command that locks another (`update --project --allow-downgrade`), not `install`, which fails the same way',
      'version',
      '1.9.9',
      ['--allow-downgrade'],
      ['guard@examples 1.9.9', '`hookpm update --project guard@examples --allow-downgrade`'],
    ],
    [
      'a resolved other than where the registry serves the version names `update --project`, not `install`, which reads the lock as it is and fails the same way',
      'resolved',
      'tarballs/moved/guard-1.3.0.tgz',
      [],
      ['`hookpm update --project guard@examples`'],
    ],
  ])('J1: %s', async (_what, field, value, fix, shown) => {
    const [victim, author] = homes;
    await ok(author, 'install', '--project', 'guard@examples', '--yes');
    await editLock((lock) => {
      lock.plugins['guard@examples']![field] = value;
    });
    for (const args of [
      ['ci', '--yes'],
      ['install', '--yes'],
    ]) {
      const run = await refused(victim, 'E_LOCK_MISMATCH', ...args);
      for (const text of shown) expect(run.stderr).toContain(text);
    }
    await ok(victim, 'update', '--project', 'guard@examples', ...fix, '--yes');
    await ok(victim, 'ci', '--yes');
  });

  it("J1: a lock whose resolved is another server's copy of an http registry's plugin is E_LOCK_MISMATCH; the registry's own URL installs", async () => {
    const [victim, author] = homes;
    await ok(author, 'registry', 'add', 'acme', acme.url);
    await ok(author, 'install', '--project', 'team-guard@acme', '--yes');
    const real = await readFile(join(project, 'hookpm.lock'), 'utf8');
    const forged = evil.index.plugins['team-guard']!.versions['1.1.0']!;
    await editLock((lock) => {
      lock.plugins['team-guard@acme']!['resolved'] = `${evil.url}${forged.tarball}`;
      lock.plugins['team-guard@acme']!['integrity'] = forged.integrity;
    });
    const served = tarballRequests(evil).length;
    const run = await refused(victim, 'E_LOCK_MISMATCH', 'ci', '--yes');
    expect(run.stderr).toContain(`${acme.url}tarballs/team-guard-1.1.0.tgz`);
    expect(tarballRequests(evil).length).toBe(served);
    await writeFile(join(project, 'hookpm.lock'), real);
    await ok(victim, 'ci', '--yes');
  });

  it("J1: a lock naming the registry's URL with other bytes' integrity is E_INTEGRITY before any tarball is read (a tarball cache holding those bytes is not used)", async () => {
    const [victim, author] = homes;
    await ok(author, 'registry', 'add', 'acme', acme.url);
    await ok(author, 'install', '--project', 'team-guard@acme', '--yes');
    // The victim's tarball cache (D5, keyed by integrity) holds the attacker's bytes.
    await ok(victim, 'registry', 'add', 'evil', evil.url);
    await ok(victim, 'install', 'team-guard@evil', '--yes');
    const forged = evil.index.plugins['team-guard']!.versions['1.1.0']!;
    await editLock((lock) => {
      lock.plugins['team-guard@acme']!['integrity'] = forged.integrity;
    });
    const before = await store(victim);
    const run = await refused(victim, 'E_INTEGRITY', 'ci', '--yes');
    expect(run.stderr).toContain("differs from the registry's");
    expect(await store(victim)).toEqual(before);
  });

  it('J1: a lock whose resolved looks like an http URL but is none (`http://[::1`) is E_PROJECT_FILE for ci and install, never E_INTERNAL; nothing changes', async () => {
    const [victim, author] = homes;
    await ok(author, 'install', '--project', 'guard@examples', '--yes');
    const before = await store(victim);
    for (const resolved of ['http://[::1', 'http://%zz/']) {
      await editLock((lock) => {
        lock.plugins['guard@examples']!['resolved'] = resolved;
      });
      for (const args of [
        ['ci', '--yes'],
        ['install', '--yes'],
      ]) {
        const run = await refused(victim, 'E_PROJECT_FILE', ...args);
        expect(run.stderr).toContain('plugins.guard@examples.resolved');
      }
    }
    expect(await store(victim)).toEqual(before);
  });

  it('J1, V3: a version this user installed with other bytes is E_INTEGRITY_CHANGED for ci and install, as for a user-wide install; nothing changes', async () => {
    const [victim, author] = homes;
    const registry = await startPluginRegistry('acme');
    try {
      await publishPlugin(registry, 'lint', '1.0.0', { PreToolUse: ['echo lint'] });
      await ok(victim, 'registry', 'add', 'acme', registry.url);
      await ok(victim, 'install', 'lint@acme', '--yes');
      await ok(victim, 'uninstall', 'lint@acme');
      // The registry now serves other bytes for 1.0.0, and a teammate locks them.
      await publishPlugin(registry, 'lint', '1.0.0', { PreToolUse: ['echo changed'] });
      await ok(author, 'registry', 'add', 'acme', registry.url);
      await ok(author, 'install', '--project', 'lint@acme', '--yes');
      const before = await store(victim);
      await refused(victim, 'E_INTEGRITY_CHANGED', 'ci', '--yes');
      await refused(victim, 'E_INTEGRITY_CHANGED', 'install', '--yes');
      expect(await store(victim)).toEqual(before);
    } finally {
      await registry.close();
    }
  });
});

describe('registry locations in hookpm.json are checked before use (J3)', () => {
  it("policy.md A21, J3: a required plugin is never brought in from a registry hookpm.json names: ci installs nothing from it, unasked; the user's own registry of that name provides it", async () => {
    const [victim] = homes;
    const policy = join(work, 'policy.json');
    await writeFile(policy, JSON.stringify({ required: ['team-guard@corp'] }));
    const env = { ...victim.env, HOOKPM_POLICY_FILE: policy };
    await writeFile(
      join(project, 'hookpm.json'),
      JSON.stringify({ plugins: {}, registries: { corp: evil.url } }),
    );
    await writeFile(
      join(project, 'hookpm.lock'),
      JSON.stringify({ lockfileVersion: 1, plugins: {} }),
    );
    const served = evil.requests.length;
    for (const args of [['ci'], ['install']]) {
      const run = await runBin(args, { env, cwd: project });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('requires team-guard@corp, which could not be installed');
    }
    expect(evil.requests.length).toBe(served);
    expect((await runBin(['list', '--json'], { env, cwd: project })).stdout).not.toContain(
      'team-guard',
    );
    await ok(victim, 'registry', 'add', 'corp', acme.url);
    const run = await runBin(['ci'], { env, cwd: project });
    expect(run.stderr).toContain('team-guard@corp 1.1.0 was installed and enabled');
  });

  it('J3: unknown schemes and git option forms are E_REGISTRY_LOCATION, never E_INTERNAL, and run nothing', async () => {
    const [victim] = homes;
    const marker = join(work, 'pwned');
    const odd = [
      `ext::sh -c touch% ${marker}`,
      'javascript:alert(1)',
      'data:application/json,{"formatVersion":1}',
      `--upload-pack=touch ${marker}`,
      `-oProxyCommand=touch ${marker}`,
      `ssh://-oProxyCommand=touch%20${marker}/repo`,
      'git@example.com:team/plugins.git',
      'git+https://example.com/team/plugins.git',
      'ftp://example.com/registry/',
      'file://example.com/registry/',
    ];
    for (const location of odd) {
      await writeFile(
        join(project, 'hookpm.json'),
        JSON.stringify({ plugins: { 'p@odd': '^1.0.0' }, registries: { odd: location } }),
      );
      const run = await refused(victim, 'E_REGISTRY_LOCATION', 'install', '--yes');
      expect(run.stderr).toContain('the registry odd');
    }
    await expect(readFile(marker)).rejects.toThrow();
  });

  it('J3: a project registry on disk inside the project installs (relative to the root); one whose index.json, directory or tarballs lead outside is E_REGISTRY_LOCATION, and no error prints that file', async () => {
    const [victim] = homes;
    await cp(join(EXAMPLES, 'index.json'), join(project, 'reg', 'index.json'));
    await cp(join(EXAMPLES, 'tarballs'), join(project, 'reg', 'tarballs'), { recursive: true });
    const manifest = { plugins: { 'guard@team': '^1.1.0' }, registries: { team: 'reg' } };
    await writeFile(join(project, 'hookpm.json'), JSON.stringify(manifest));
    await mkdir(join(project, 'src'));
    const installed = await runBin(['install', '--yes'], {
      env: victim.env,
      cwd: join(project, 'src'),
    });
    expect(installed.code, installed.stderr).toBe(0);
    const lock = JSON.parse(await readFile(join(project, 'hookpm.lock'), 'utf8')) as LockDoc;
    expect(lock.plugins['guard@team']?.['resolved']).toBe('tarballs/guard-1.3.0.tgz');

    // The tarballs moved outside, behind a symlink.
    const outside = join(work, 'outside');
    await cp(join(project, 'reg', 'tarballs'), join(outside, 'tarballs'), { recursive: true });
    await rm(join(project, 'reg', 'tarballs'), { recursive: true });
    await symlink(join(outside, 'tarballs'), join(project, 'reg', 'tarballs'));
    const other = homes[1];
    let run = await refused(other, 'E_REGISTRY_LOCATION', 'ci', '--yes');
    expect(run.stderr).toContain('names a tarball outside the project');

    // index.json a symlink to a file outside: refused before it is read.
    const secret = join(work, 'secret.txt');
    await writeFile(secret, 'TOP-SECRET-CONTENT of another file\n');
    await rm(join(project, 'reg', 'index.json'));
    await symlink(secret, join(project, 'reg', 'index.json'));
    for (const args of [
      ['ci', '--yes'],
      ['install', '--yes'],
      ['outdated', '--project'],
    ]) {
      run = await refused(other, 'E_REGISTRY_LOCATION', ...args);
      expect(`${run.stdout}${run.stderr}`).not.toContain('TOP-SECRET');
      expect(run.stderr).toContain('leads outside the project');
    }

    // A directory outside the project, by an absolute path, `..` or a file: URL.
    for (const location of [outside, '../outside', `file://${outside}/`]) {
      manifest.registries.team = location;
      await writeFile(join(project, 'hookpm.json'), JSON.stringify(manifest));
      await refused(other, 'E_REGISTRY_LOCATION', 'ci', '--yes');
    }
  });

  // cli-json.md "list --project": the rows come from hookpm.json, hookpm.lock and the state; no
  // registry is read, so J3 (a location checked before it is read) has nothing to refuse, as
  // `npm ls` lists a project whatever registry its .npmrc names.
  it('J3: list --project reads no registry, so a location ci refuses does not stop it, and no registry file is read', async () => {
    const [victim] = homes;
    const outside = join(work, 'outside');
    await cp(join(EXAMPLES, 'index.json'), join(outside, 'index.json'));
    await cp(join(EXAMPLES, 'tarballs'), join(outside, 'tarballs'), { recursive: true });
    const secret = join(work, 'secret.txt');
    await writeFile(secret, 'TOP-SECRET-CONTENT of another file\n');
    await mkdir(join(project, 'reg'));
    await symlink(secret, join(project, 'reg', 'index.json'));
    for (const location of [outside, `file://${outside}/`, 'reg', 'javascript:alert(1)']) {
      const manifest = { plugins: { 'guard@team': '^1.1.0' }, registries: { team: location } };
      await writeFile(join(project, 'hookpm.json'), JSON.stringify(manifest));
      await refused(victim, 'E_REGISTRY_LOCATION', 'ci', '--yes');
      const run = await ok(victim, 'list', '--project', '--json');
      expect(run.stdout).not.toContain('TOP-SECRET');
      expect(JSON.parse(run.stdout).plugins).toEqual([
        {
          id: 'guard@team',
          wanted: '^1.1.0',
          locked: null,
          installed: null,
          enabled: false,
          active: false,
        },
      ]);
    }
  });

  it('J3: a file: URL ending in .git that names a directory outside the project and no git repository (read in place, not cloned) is E_REGISTRY_LOCATION; nothing of it is read or printed', async () => {
    const [victim] = homes;
    const outside = join(work, 'private.git');
    await writeClaudePlugin(join(outside, 'plugins', 'g'), 'g', {
      PreToolUse: [{ hooks: [{ type: 'command', command: 'echo PRIVATE' }] }],
    });
    await writeFiles(outside, {
      '.claude-plugin/marketplace.json': JSON.stringify(
        marketplaceCatalog('PRIVATE', [{ name: 'g', source: './plugins/g', version: '1.0.0' }]),
      ),
    });
    await writeFile(
      join(project, 'hookpm.json'),
      JSON.stringify({ plugins: { 'g@odd': '^1.0.0' }, registries: { odd: `file://${outside}` } }),
    );
    const before = await store(victim);
    for (const args of [
      ['info', '--project', 'g@odd'],
      ['install', '--yes'],
      ['outdated', '--project'],
    ]) {
      const run = await refused(victim, 'E_REGISTRY_LOCATION', ...args);
      expect(run.stderr).toContain('leads outside the project');
      expect(`${run.stdout}${run.stderr}`).not.toContain('PRIVATE');
    }
    expect(await store(victim)).toEqual(before);
  });

  it('J3: `install --project` from a registry the user added inside the project writes its location relative to the root, and a teammate installs from it with `ci`', async () => {
    const [author, teammate] = homes;
    await cp(join(EXAMPLES, 'index.json'), join(project, 'tools', 'reg', 'index.json'));
    await cp(join(EXAMPLES, 'tarballs'), join(project, 'tools', 'reg', 'tarballs'), {
      recursive: true,
    });
    await ok(author, 'registry', 'add', 'team', join(project, 'tools', 'reg'));
    await ok(author, 'install', '--project', 'guard@team', '--yes');
    const manifest = JSON.parse(await readFile(join(project, 'hookpm.json'), 'utf8')) as {
      registries: Record<string, string>;
    };
    expect(manifest.registries).toEqual({ team: join('tools', 'reg') });
    await ok(teammate, 'ci', '--yes');
  });

  it("projects: `install --project` keeps the location hookpm.json gives a registry when the user's own of that name is elsewhere: no machine's path is written", async () => {
    const [author, teammate] = homes;
    for (const dir of [join(project, 'tools', 'reg'), join(work, 'mine')]) {
      await cp(join(EXAMPLES, 'index.json'), join(dir, 'index.json'));
      await cp(join(EXAMPLES, 'tarballs'), join(dir, 'tarballs'), { recursive: true });
    }
    await ok(author, 'registry', 'add', 'team', join(project, 'tools', 'reg'));
    await ok(author, 'install', '--project', 'guard@team', '--yes');
    const before = await readFile(join(project, 'hookpm.json'), 'utf8');
    // The teammate's own `team` (their copy, outside the project) is used, not written.
    await ok(teammate, 'registry', 'add', 'team', join(work, 'mine'));
    await ok(teammate, 'install', '--project', 'audit-log@examples', '--yes');
    const manifest = JSON.parse(await readFile(join(project, 'hookpm.json'), 'utf8')) as {
      plugins: Record<string, string>;
      registries: Record<string, string>;
    };
    expect(manifest.registries).toEqual(JSON.parse(before).registries);
    expect(Object.keys(manifest.plugins)).toEqual(['audit-log@examples', 'guard@team']);
    await ok(author, 'ci', '--yes');
  });

  it("J3: an index.json inside the project that is not JSON is E_REGISTRY_SCHEMA without quoting it; the user's own registry of that name takes precedence over the project's", async () => {
    const [victim] = homes;
    await mkdir(join(project, 'reg'));
    await writeFile(join(project, 'reg', 'index.json'), 'PRIVATE-BYTES not json');
    await writeFile(
      join(project, 'hookpm.json'),
      JSON.stringify({ plugins: { 'team-guard@acme': '^1.1.0' }, registries: { acme: 'reg' } }),
    );
    const run = await refused(victim, 'E_REGISTRY_SCHEMA', 'install', '--yes');
    expect(run.stderr).not.toContain('PRIVATE-BYTES');
    // With the user's own `acme`, the project's location is not used (nor checked).
    await writeFile(
      join(project, 'hookpm.json'),
      JSON.stringify({
        plugins: { 'team-guard@acme': '^1.1.0' },
        registries: { acme: 'javascript:alert(1)' },
      }),
    );
    await ok(victim, 'registry', 'add', 'acme', acme.url);
    await ok(victim, 'install', '--yes');
  });
});
