/**
 * registry.md J14 end to end with the built binary: a marketplace read over the network (a
 * marketplace.json on a loopback HTTP server, a git repository on a loopback smart-HTTP server)
 * may not name plugin sources on this machine: an npm source whose `registry` is a `file:` URL, a
 * git source whose `url` is a `file:` URL or an absolute path. Each is left out at `registry add`
 * and `install` is E_INSECURE_URL naming the entry, nothing read at that location (its content is
 * never printed), nothing installed, the store byte-identical. The same entries in a catalog on
 * this machine (a directory) install as before.
 */
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { integrityOf } from '../../src/registry/integrity.js';
import { createTarGz } from '../../src/store/tar/tar-write.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import { ensureBuilt, runBin, type BinRun } from '../helpers/built-bin.js';
import { marketplaceCatalog } from '../helpers/claude-plugin.js';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.js';
import { git, gitTestEnv, makeRepo, requireGit, writeFiles } from '../helpers/git-repo.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { INSTALL_TIMEOUT_MS } from '../helpers/system-package.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/** Text of local files a remote catalog points at; it must never reach hookpm's output. */
const SECRET = 'TOPSECRET-token-abc123 this is not a package document';

/** A plugin named `name` with one Stop hook, as a tree of files. */
function pluginFiles(name: string): Record<string, string> {
  return {
    '.claude-plugin/plugin.json': JSON.stringify({ name, version: '1.0.0' }),
    'hooks/hooks.json': JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
    }),
  };
}

/**
 * An npm registry of files at `dir` (read through a `file:` URL): `npm-local`'s package document
 * (`<dir>/npm-local`) and tarball, and `secret`, a file that is no package document.
 */
async function writeFileRegistry(dir: string): Promise<void> {
  const files = { 'package.json': '{"name":"npm-local","version":"1.0.0"}' };
  const entries = Object.entries({ ...files, ...pluginFiles('npm-local') }).map(([p, text]) => ({
    path: `package/${p}`,
    mode: 0o644,
    data: Buffer.from(text),
  }));
  const tarball = createTarGz(entries);
  await mkdir(join(dir, 'tarballs'), { recursive: true });
  await writeFile(join(dir, 'tarballs', 'npm-local-1.0.0.tgz'), tarball);
  const dist = {
    tarball: pathToFileURL(join(dir, 'tarballs', 'npm-local-1.0.0.tgz')).href,
    integrity: integrityOf(tarball),
  };
  const document = {
    name: 'npm-local',
    'dist-tags': { latest: '1.0.0' },
    versions: { '1.0.0': { name: 'npm-local', version: '1.0.0', dist } },
  };
  await writeFile(join(dir, 'npm-local'), JSON.stringify(document));
  await writeFile(join(dir, 'secret'), `${SECRET}\n`);
}

let scratch: string;
let registryUrl: string;
let entries: Record<string, unknown>[];
let catalogText: string;
let web: Server;
let webUrl: string;
/** What the server answers at SWAP_PATH: changed by a test between `registry add` and `install`. */
let swapText = '';
const SWAP_PATH = '/swap/.claude-plugin/marketplace.json';
let gitServer: GitHttpServer;
let home: TempHome;

beforeAll(async () => {
  const gitPath = await requireGit();
  ensureBuilt();
  scratch = await mkdtemp(join(tmpdir(), 'hookpm-mkt-remote-'));
  const env = gitTestEnv(scratch);
  const npmDir = join(scratch, 'npm');
  await mkdir(npmDir, { recursive: true });
  await writeFileRegistry(npmDir);
  registryUrl = `${pathToFileURL(npmDir).href}/`;
  const repoDir = join(scratch, 'git-local');
  await makeRepo(repoDir, env, pluginFiles('git-local'));
  const pathRepo = join(scratch, 'git-path');
  await makeRepo(pathRepo, env, pluginFiles('git-path'));
  entries = [
    { name: 'npm-local', source: { source: 'npm', package: 'npm-local', registry: registryUrl } },
    { name: 'npm-secret', source: { source: 'npm', package: 'secret', registry: registryUrl } },
    { name: 'git-local', source: { source: 'url', url: pathToFileURL(repoDir).href } },
    { name: 'git-path', source: { source: 'url', url: pathRepo } },
  ];
  catalogText = JSON.stringify(marketplaceCatalog('remote', entries));
  await writeFiles(join(scratch, 'local-market'), {
    '.claude-plugin/marketplace.json': catalogText,
  });
  web = createServer((req, res) => {
    const body = { '/.claude-plugin/marketplace.json': catalogText, [SWAP_PATH]: swapText };
    const text = Object.hasOwn(body, req.url ?? '') ? body[req.url ?? ''] : undefined;
    if (text === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(text);
  });
  await new Promise<void>((done) => web.listen(0, '127.0.0.1', done));
  webUrl = `http://127.0.0.1:${(web.address() as { port: number }).port}/.claude-plugin/marketplace.json`;
  const work = join(scratch, 'market-work');
  await makeRepo(work, env, { '.claude-plugin/marketplace.json': catalogText });
  const served = join(scratch, 'srv');
  await mkdir(served, { recursive: true });
  git(scratch, env, 'clone', '-q', '--bare', work, join(served, 'market.git'));
  gitServer = await startGitHttpServer(served, gitPath, () => true);
}, INSTALL_TIMEOUT_MS);
afterAll(async () => {
  await new Promise<void>((done) => web?.close(() => done()));
  await gitServer?.close();
  await rm(scratch, { recursive: true, force: true });
});
beforeEach(async () => {
  home = await makeTempHome('hookpm-mkt-remote-home-');
});
afterEach(() => home.cleanup());

function hookpm(args: string[]): Promise<BinRun> {
  return runBin(args, { env: home.env, cwd: home.dir });
}

interface Failed {
  error: { code: string; message: string; hint?: string };
}

/** `registry add` of `location` as `r`: every entry is left out, each warning naming it (J14). */
async function addRefusingAll(location: string): Promise<void> {
  const run = await hookpm(['registry', 'add', 'r', location, '--json']);
  expect(run.code, run.stderr).toBe(0);
  const added = (JSON.parse(run.stdout) as { added: { plugins: number; warnings: string[] } })
    .added;
  expect(added.plugins).toBe(0);
  expect(added.warnings).toHaveLength(entries.length);
  for (const [i, entry] of entries.entries())
    expect(added.warnings[i]).toContain(`plugins[${i}] ("${String(entry['name'])}")`);
  expect(run.stdout + run.stderr).not.toContain('TOPSECRET');
}

/** Installing `name@r` is E_INSECURE_URL naming the entry; nothing is written, nothing leaks. */
async function expectRefused(name: string, field: 'registry' | 'url'): Promise<void> {
  const paths = resolveStorePaths({ HOOKPM_HOME: home.env.HOOKPM_HOME });
  const before = await hashStore(paths);
  const run = await hookpm(['install', `${name}@r`, '--yes', '--json']);
  expect(run.code).toBe(1);
  const { error } = JSON.parse(run.stdout) as Failed;
  expect(error.code).toBe('E_INSECURE_URL');
  expect(error.message).toContain(`("${name}")`);
  expect(error.message).toContain(`source.${field}`);
  expect(error.message).toContain('on this machine');
  expect(error.hint).toMatch(/marketplace on this machine/);
  expect(run.stdout + run.stderr).not.toContain('TOPSECRET');
  expect(await hashStore(paths)).toEqual(before);
}

async function listed(): Promise<string[]> {
  const run = await hookpm(['list', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { plugins: Array<{ id: string }> }).plugins.map((p) => p.id);
}

describe('J14: a remote marketplace may not name plugin sources on this machine', () => {
  it('J14: a marketplace.json over loopback http naming a file: npm registry, a file: git URL or an absolute path: each install is E_INSECURE_URL, nothing installed, the store byte-identical, no local file quoted', async () => {
    await addRefusingAll(webUrl);
    await expectRefused('npm-local', 'registry');
    await expectRefused('npm-secret', 'registry');
    await expectRefused('git-local', 'url');
    await expectRefused('git-path', 'url');
    expect(await listed()).toEqual([]);
    expect(await readFile(join(scratch, 'npm', 'secret'), 'utf8')).toContain(SECRET);
  });

  it('J14: a git marketplace cloned over loopback http is remote too: the same entries are E_INSECURE_URL and nothing is installed', async () => {
    await addRefusingAll(`${gitServer.origin}/market.git`);
    await expectRefused('npm-secret', 'registry');
    await expectRefused('git-path', 'url');
    expect(await listed()).toEqual([]);
  });

  it('J14: an entry that turns into a file: npm registry after `registry add` is E_INSECURE_URL at install, though the cached catalog still lists it', async () => {
    const secret = (registry: string) =>
      JSON.stringify(
        marketplaceCatalog('remote', [
          { name: 'npm-secret', source: { source: 'npm', package: 'secret', registry } },
        ]),
      );
    swapText = secret('https://npm.example.invalid/');
    const location = new URL(SWAP_PATH, webUrl).href;
    const add = await hookpm(['registry', 'add', 'r', location, '--json']);
    expect(add.code, add.stderr).toBe(0);
    expect((JSON.parse(add.stdout) as { added: { plugins: number } }).added.plugins).toBe(1);
    swapText = secret(registryUrl);
    await expectRefused('npm-secret', 'registry');
    expect(await listed()).toEqual([]);
  });

  it('J14: the same entries in a marketplace directory on this machine install from the file: npm registry and the local git repository', async () => {
    const add = await hookpm(['registry', 'add', 'r', join(scratch, 'local-market'), '--json']);
    expect(add.code, add.stderr).toBe(0);
    const run = await hookpm(['install', 'npm-local@r', 'git-local@r', 'git-path@r', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect((await listed()).sort()).toEqual(['git-local@r', 'git-path@r', 'npm-local@r']);
  });
});
