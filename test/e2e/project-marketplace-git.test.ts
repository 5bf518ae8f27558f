/**
 * docs/reference/rules/registry.md J12 with the built binary: a project holds a plugin of a git
 * marketplace (a `file://` bare repository, and the same over the loopback smart-HTTP server);
 * hookpm.json lists the repository's URL and hookpm.lock the commit read, so `ci` from another
 * HOME installs the same bytes whatever the remote does next, and the lock is held to that commit.
 */
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built-bin.js';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.js';
import { commitFiles, git, gitTestEnv, requireGit } from '../helpers/git-repo.js';
import { projectCli, type LockDoc } from '../helpers/project-cli.js';
import { INSTALL_TIMEOUT_MS } from '../helpers/system-package.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { REPO } from '../corpus/corpus-plugins.js';

/** The corpus-style `.agents/plugins` marketplace of this repository (plugins.md G10, G13). */
const LAYOUTS = join(REPO, 'test/corpus/layouts/agents-catalog');
const GUARD = 'plugins/codex-guard/scripts/guard.mjs';
const ID = 'codex-guard@mkt';

let author: TempHome;
let teammate: TempHome;
let work: string;
let project: string;
const { hookpm, ok, refused, store, readLock, denyReason } = projectCli(() => project);
/** The marketplace's working repository; `bare` is the remote hookpm clones from. */
let source: string;
let bare: string;
let gitEnv: Record<string, string>;
let server: GitHttpServer | undefined;
let gitPath: string;

beforeAll(async () => {
  ensureBuilt();
  gitPath = await requireGit();
}, INSTALL_TIMEOUT_MS);
beforeEach(async () => {
  author = await makeTempHome('hookpm-gitmkt-author-');
  teammate = await makeTempHome('hookpm-gitmkt-teammate-');
  work = await mkdtemp(join(tmpdir(), 'hookpm-gitmkt-'));
  project = join(work, 'project');
  await mkdir(join(project, '.git'), { recursive: true });
  gitEnv = gitTestEnv(work);
  source = join(work, 'src');
  await cp(LAYOUTS, source, { recursive: true });
  git(work, gitEnv, 'init', '-q', '-b', 'main', source);
  await commitFiles(source, gitEnv, {}, 'marketplace');
  bare = join(work, 'srv', 'mkt.git');
  git(work, gitEnv, 'clone', '-q', '--bare', source, bare);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await author.cleanup();
  await teammate.cleanup();
  await rm(work, { recursive: true, force: true });
});

async function writeLock(lock: LockDoc): Promise<void> {
  const doc = { lockfileVersion: 1, ...lock };
  await writeFile(join(project, 'hookpm.lock'), `${JSON.stringify(doc, null, 2)}\n`);
}

/** A new commit of the marketplace, pushed to the remote; returns its id. */
async function remoteMovesOn(files: Record<string, string>): Promise<string> {
  const commit = await commitFiles(source, gitEnv, files, 'moves on');
  git(source, gitEnv, 'push', '-q', bare, 'HEAD:main');
  return commit;
}

const fileUrl = (): string => `${pathToFileURL(bare).href}/`;

/** hookpm.json and hookpm.lock as a teammate's clone would hold them, `commit` locked. */
async function writeProjectFiles(commit: string, location = fileUrl()): Promise<void> {
  const manifest = { plugins: { [ID]: '^1.0.0' }, registries: { mkt: location } };
  await writeFile(join(project, 'hookpm.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const entry = {
    commit,
    fingerprint: 'sha256-AAAA',
    integrity: 'sha512-AAAA',
    resolved: 'plugins/codex-guard',
    surfaceHash: 'abc',
    version: '1.0.0',
  };
  await writeLock({ plugins: { [ID]: entry } });
}

async function authorInstalls(location = fileUrl()): Promise<void> {
  await ok(author, 'registry', 'add', 'mkt', location);
  await ok(author, 'install', '--project', ID, '--yes');
}

describe('git marketplaces in hookpm.json and hookpm.lock (J12)', () => {
  it('J12: install --project from a file:// git marketplace locks the commit; ci from another HOME gets the same bytes, even after the remote moves on', async () => {
    const head = git(bare, gitEnv, 'rev-parse', 'HEAD');
    await authorInstalls();
    const manifest = JSON.parse(await readFile(join(project, 'hookpm.json'), 'utf8')) as unknown;
    expect(manifest).toEqual({ plugins: { [ID]: '^1.0.0' }, registries: { mkt: fileUrl() } });
    const locked = (await readLock()).plugins[ID]!;
    expect(locked).toMatchObject({
      version: '1.0.0',
      resolved: 'plugins/codex-guard',
      commit: head,
    });
    expect(locked.integrity).toMatch(/^sha512-/);

    const script = await readFile(join(source, GUARD), 'utf8');
    await remoteMovesOn({ [GUARD]: script.replace('rm -rf is refused', 'moved on') });
    const lockBefore = await readFile(join(project, 'hookpm.lock'), 'utf8');
    await ok(teammate, 'ci', '--yes');
    expect(await readFile(join(project, 'hookpm.lock'), 'utf8')).toBe(lockBefore);
    expect(await denyReason(teammate)).toBe('codex-guard: rm -rf is refused');
    const state = await readFile(join(teammate.env.HOOKPM_HOME!, 'data', 'state.json'), 'utf8');
    expect(state).toContain(locked.integrity!);
  });

  it('J12: update --project locks the commit the remote moved on to, and ci then installs that', async () => {
    await authorInstalls();
    const manifest = 'plugins/codex-guard/.codex-plugin/plugin.json';
    const script = await readFile(join(source, GUARD), 'utf8');
    const next = await remoteMovesOn({
      [manifest]: (await readFile(join(source, manifest), 'utf8')).replace('"1.0.0"', '"1.0.1"'),
      [GUARD]: script.replace('rm -rf is refused', 'rm -rf is still refused'),
    });
    await ok(author, 'update', '--project', '--yes');
    expect((await readLock()).plugins[ID]).toMatchObject({ version: '1.0.1', commit: next });
    await ok(teammate, 'ci', '--yes');
    expect(await denyReason(teammate)).toBe('codex-guard: rm -rf is still refused');
  });

  it('J12, D5: install --project and ci through the loopback smart-HTTP git server; ci --offline requests nothing', async () => {
    server = await startGitHttpServer(join(work, 'srv'), gitPath, () => true);
    const url = `${server.origin}/mkt.git`;
    await authorInstalls(url);
    const manifest = JSON.parse(await readFile(join(project, 'hookpm.json'), 'utf8')) as {
      registries: Record<string, string>;
    };
    expect(manifest.registries).toEqual({ mkt: url });
    expect((await readLock()).plugins[ID]!.commit).toBe(git(bare, gitEnv, 'rev-parse', 'HEAD'));
    const requests = server.requests.length;
    await refused(teammate, 'E_OFFLINE', 'ci', '--offline', '--yes');
    expect(server.requests.length).toBe(requests);
    await ok(teammate, 'ci', '--yes');
    expect(await denyReason(teammate)).toBe('codex-guard: rm -rf is refused');
  });

  it('J12, J11: a lock naming another commit of the repository whose tree differs is E_INTEGRITY, and the store is untouched', async () => {
    await authorInstalls();
    const script = await readFile(join(source, GUARD), 'utf8');
    const other = await remoteMovesOn({ [GUARD]: `${script}\n// changed\n` });
    const lock = await readLock();
    lock.plugins[ID]!.commit = other;
    await writeLock(lock);
    const before = await store(teammate);
    const run = await refused(teammate, 'E_INTEGRITY', 'ci', '--yes');
    expect(run.stderr).toContain(`plugins/codex-guard of ${fileUrl()} at commit ${other}`);
    expect(await store(teammate)).toEqual(before);
  });

  it('J12: a locked commit the remote does not have is a clear E_GIT naming it', async () => {
    const gone = 'a'.repeat(40);
    await writeProjectFiles(gone);
    const run = await refused(teammate, 'E_GIT', 'ci', '--yes');
    expect(run.stderr).toContain(`at the commit ${gone} hookpm.lock pins`);
  });

  it('J12: a lock whose commit is not 40 hex digits is refused at parse (E_PROJECT_FILE)', async () => {
    for (const bad of ['HEAD', '--upload-pack=x']) {
      await writeProjectFiles(bad);
      const run = await refused(teammate, 'E_PROJECT_FILE', 'ci', '--yes');
      expect(run.stderr).toContain(`plugins.${ID}.commit is not a full commit id`);
    }
  });

  it('J12: a git marketplace URL holding credentials is refused (E_USAGE); hookpm.json and hookpm.lock stay byte-identical', async () => {
    await writeProjectFiles(git(bare, gitEnv, 'rev-parse', 'HEAD'));
    const files = ['hookpm.json', 'hookpm.lock'].map((f) => join(project, f));
    const before = await Promise.all(files.map((f) => readFile(f, 'utf8')));
    server = await startGitHttpServer(join(work, 'srv'), gitPath, () => true);
    const url = `http://someone:s3cret@${server.host}/mkt.git`;
    await ok(author, 'registry', 'add', 'priv', url);
    const run = await refused(
      author,
      'E_USAGE',
      'install',
      '--project',
      'codex-guard@priv',
      '--yes',
    );
    expect(run.stderr).toContain('holds credentials');
    expect(run.stderr + run.stdout).not.toContain('s3cret');
    expect(await Promise.all(files.map((f) => readFile(f, 'utf8')))).toEqual(before);

    // In hookpm.json (a committed token), the location is refused before anything reads it (J3).
    const manifest = JSON.parse(before[0]!) as { registries: Record<string, string> };
    manifest.registries.mkt = url;
    await writeFile(files[0]!, JSON.stringify(manifest));
    const ci = await refused(teammate, 'E_REGISTRY_LOCATION', 'ci', '--yes');
    expect(ci.stderr + ci.stdout).not.toContain('s3cret');
  });

  it('J12: a symlink out of the plugin tree in the repository is refused; nothing is installed', async () => {
    await symlink('/etc/passwd', join(source, 'plugins/codex-guard/scripts/leak'));
    git(source, gitEnv, 'add', '-A');
    git(source, gitEnv, 'commit', '-q', '-m', 'leak');
    git(source, gitEnv, 'push', '-q', bare, 'HEAD:main');
    await ok(author, 'registry', 'add', 'mkt', fileUrl());
    const before = await store(author);
    const run = await hookpm(author, ['install', '--project', ID, '--yes']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).not.toContain('E_INTERNAL');
    expect(run.stderr).toContain('error[E_REGISTRY_SCHEMA]');
    expect(run.stderr).toContain(
      'symlink scripts/leak: it resolves to /etc/passwd, outside the plugin directory',
    );
    await expect(readFile(join(project, 'hookpm.json'))).rejects.toThrow();
    expect(await store(author)).toEqual(before);
  });

  it('J12: an entry of a git marketplace whose own source is a git repository stays E_USAGE in a project', async () => {
    const catalog = join(source, '.agents/plugins/marketplace.json');
    const doc = JSON.parse(await readFile(catalog, 'utf8')) as {
      plugins: { name: string; source: unknown }[];
    };
    doc.plugins[1]!.source = { source: 'url', url: pathToFileURL(bare).href };
    await remoteMovesOn({ '.agents/plugins/marketplace.json': JSON.stringify(doc) });
    await ok(author, 'registry', 'add', 'mkt', fileUrl());
    const run = await refused(
      author,
      'E_USAGE',
      'install',
      '--project',
      'cursor-guard@mkt',
      '--yes',
    );
    expect(run.stderr).toContain('a project cannot hold this plugin: its source is git');
  });
});
