/**
 * docs/reference/rules/registry.md J13 with the built binary: a project's marketplace (a directory
 * of the project) whose entries name their own git repositories (`url`, `git-subdir`); hookpm.lock
 * records each entry's repository URL and the commit it was cloned at, so `ci` from another HOME
 * gets the same bytes after the repository moved on, and the lock is held to that commit. One
 * world for the whole file: the repositories and the project are made once.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built-bin.js';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.js';
import { commitFiles, git, gitTestEnv, requireGit } from '../helpers/git-repo.js';
import { projectCli, type LockDoc } from '../helpers/project-cli.js';
import { INSTALL_TIMEOUT_MS } from '../helpers/system-package.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { REPO } from '../corpus/corpus-plugins.js';

/** Two plugins of the corpus layouts: codex-guard is a repository of its own, cursor-guard a subdirectory. */
const LAYOUTS = join(REPO, 'test/corpus/layouts/agents-catalog');
const GUARD = 'scripts/guard.mjs';
const ID = 'codex-guard@mkt';

const homes: TempHome[] = [];
let work: string;
let project: string;
const { hookpm, ok, refused, store, readLock, denyReason } = projectCli(() => project);
/** codex-guard's working repository; `bare` is the remote its entry names. */
let source: string;
let bare: string;
/** The monorepo served over loopback HTTP, holding cursor-guard in plugins/cursor-guard. */
let server: GitHttpServer;
let gitEnv: Record<string, string>;
let lockAfterInstall: string;
let author: TempHome;

async function home(): Promise<TempHome> {
  const made = await makeTempHome('hookpm-entry-');
  homes.push(made);
  return made;
}

beforeAll(async () => {
  ensureBuilt();
  const gitPath = await requireGit();
  work = await mkdtemp(join(tmpdir(), 'hookpm-entrysrc-'));
  gitEnv = gitTestEnv(work);
  source = join(work, 'guard');
  await cp(join(LAYOUTS, 'plugins/codex-guard'), source, { recursive: true });
  git(work, gitEnv, 'init', '-q', '-b', 'main', source);
  await commitFiles(source, gitEnv, {}, 'guard');
  bare = join(work, 'srv', 'guard.git');
  git(work, gitEnv, 'clone', '-q', '--bare', source, bare);
  const mono = join(work, 'mono');
  await cp(LAYOUTS, mono, { recursive: true });
  git(work, gitEnv, 'init', '-q', '-b', 'main', mono);
  await commitFiles(mono, gitEnv, {}, 'mono');
  git(work, gitEnv, 'clone', '-q', '--bare', mono, join(work, 'srv', 'mono.git'));
  server = await startGitHttpServer(join(work, 'srv'), gitPath, () => true);

  project = join(work, 'project');
  await mkdir(join(project, '.git'), { recursive: true });
  const catalog = {
    name: 'mkt',
    owner: { name: 'Fixtures' },
    plugins: [
      { name: 'codex-guard', source: { source: 'url', url: pathToFileURL(bare).href } },
      {
        name: 'cursor-guard',
        source: {
          source: 'git-subdir',
          url: `${server.origin}/mono.git`,
          path: 'plugins/cursor-guard',
        },
      },
      { name: 'npm-guard', source: { source: 'npm', package: 'hookpm-npm-guard' } },
    ],
  };
  await mkdir(join(project, 'vendor/mkt/.claude-plugin'), { recursive: true });
  await writeFile(
    join(project, 'vendor/mkt/.claude-plugin/marketplace.json'),
    `${JSON.stringify(catalog, null, 2)}\n`,
  );
}, INSTALL_TIMEOUT_MS);
afterAll(async () => {
  await server?.close();
  await Promise.all(homes.map((h) => h.cleanup()));
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

async function withLock(edit: (lock: LockDoc) => void, run: () => Promise<void>): Promise<void> {
  const lock = JSON.parse(lockAfterInstall) as LockDoc;
  edit(lock);
  await writeFile(join(project, 'hookpm.lock'), `${JSON.stringify(lock, null, 2)}\n`);
  try {
    await run();
  } finally {
    await writeFile(join(project, 'hookpm.lock'), lockAfterInstall);
  }
}

describe('marketplace entries whose source is a git repository, in a project (J13)', () => {
  it('J13: install --project locks the entry repository URL and commit; ci from another HOME gets the same bytes after the repository moved on', async () => {
    author = await home();
    const head = git(bare, gitEnv, 'rev-parse', 'HEAD');
    await ok(author, 'registry', 'add', 'mkt', './vendor/mkt');
    await ok(author, 'install', '--project', ID, 'cursor-guard@mkt', '--yes');
    lockAfterInstall = await readFile(join(project, 'hookpm.lock'), 'utf8');
    const lock = await readLock();
    expect(lock.plugins[ID]).toMatchObject({ resolved: pathToFileURL(bare).href, commit: head });
    expect(lock.plugins[ID]!.integrity).toMatch(/^sha512-/);
    expect(lock.plugins['cursor-guard@mkt']).toMatchObject({
      resolved: `${server.origin}/mono.git#plugins/cursor-guard`,
      commit: git(join(work, 'srv', 'mono.git'), gitEnv, 'rev-parse', 'HEAD'),
    });

    const script = await readFile(join(source, GUARD), 'utf8');
    await commitFiles(source, gitEnv, { [GUARD]: script.replace('is refused', 'moved on') }, 'on');
    git(source, gitEnv, 'push', '-q', bare, 'HEAD:main');
    const teammate = await home();
    await ok(teammate, 'ci', '--yes');
    expect(await readFile(join(project, 'hookpm.lock'), 'utf8')).toBe(lockAfterInstall);
    expect(await denyReason(teammate)).toBe('codex-guard: rm -rf is refused');
    const state = await readFile(join(teammate.env.HOOKPM_HOME!, 'data', 'state.json'), 'utf8');
    expect(state).toContain(lock.plugins[ID]!.integrity);
    expect(state).toContain(lock.plugins['cursor-guard@mkt']!.integrity);
  });

  it('J13, J11: a lock naming another commit of the entry repository whose tree differs is E_INTEGRITY naming the repository and commit; the store is untouched', async () => {
    const other = git(bare, gitEnv, 'rev-parse', 'HEAD');
    const teammate = await home();
    await withLock(
      (lock) => {
        lock.plugins[ID]!.commit = other;
      },
      async () => {
        const before = await store(teammate);
        const run = await refused(teammate, 'E_INTEGRITY', 'ci', '--yes');
        expect(run.stderr).toContain(
          `entry the repository ${pathToFileURL(bare).href} at commit ${other}`,
        );
        expect(await store(teammate)).toEqual(before);
      },
    );
  });

  it('J13: a locked entry commit the repository does not have is E_GIT naming it', async () => {
    const gone = 'b'.repeat(40);
    await withLock(
      (lock) => {
        lock.plugins[ID]!.commit = gone;
      },
      async () => {
        const run = await refused(await home(), 'E_GIT', 'ci', '--yes');
        expect(run.stderr).toContain(`at the commit ${gone} hookpm.lock pins`);
      },
    );
  });

  it('J13: a lock whose entry repository differs from the catalog, or that names no commit, is E_LOCK_MISMATCH (a file: one without a commit is E_PROJECT_FILE)', async () => {
    await withLock(
      (lock) => {
        lock.plugins[ID]!.resolved = 'https://example.invalid/other.git';
      },
      async () => {
        await refused(await home(), 'E_LOCK_MISMATCH', 'ci', '--yes');
      },
    );
    await withLock(
      (lock) => {
        delete lock.plugins['cursor-guard@mkt']!.commit;
      },
      async () => {
        const run = await refused(await home(), 'E_LOCK_MISMATCH', 'ci', '--yes');
        expect(run.stderr).toContain('its entry in mkt is a git repository');
      },
    );
    await withLock(
      (lock) => {
        delete lock.plugins[ID]!.commit;
      },
      async () => {
        await refused(await home(), 'E_PROJECT_FILE', 'ci', '--yes');
      },
    );
  });

  it('J13: an entry whose source is npm stays E_USAGE in a project', async () => {
    const run = await refused(
      await home(),
      'E_USAGE',
      'install',
      '--project',
      'npm-guard@mkt',
      '--yes',
    );
    expect(run.stderr).toContain('a project cannot hold this plugin: its source is npm');
  });

  it('J13: update --project locks the commit the entry repository moved on to, and ci then installs that', async () => {
    const manifest = '.codex-plugin/plugin.json';
    const doc = (await readFile(join(source, manifest), 'utf8')).replace('"1.0.0"', '"1.0.1"');
    const next = await commitFiles(source, gitEnv, { [manifest]: doc }, 'bump');
    git(source, gitEnv, 'push', '-q', bare, 'HEAD:main');
    await ok(author, 'update', '--project', '--yes');
    expect((await readLock()).plugins[ID]).toMatchObject({ version: '1.0.1', commit: next });
    const teammate = await home();
    await ok(teammate, 'ci', '--yes');
    expect(await denyReason(teammate)).toBe('codex-guard: rm -rf moved on');
  });
});
