/**
 * docs/reference/rules/registry.md N5 with the built binary: an index registry reached with a user
 * and password in its URL (a loopback server that answers 401 without them). They are sent, and
 * they are never printed, never left readable by other users, and never written to the files a
 * project commits: each teammate's own registry of that name gives theirs.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin, type BinRun } from '../helpers/built-bin.js';
import {
  publishPlugin,
  startPluginRegistry,
  type ServedRegistry,
} from '../helpers/plugin-registry.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

const ALICE = 'alice:S3CRET-a1';
const BOB = 'bob:S3CRET-b2';
const SECRETS = ['S3CRET', Buffer.from(ALICE).toString('base64')];

let acme: ServedRegistry;
let homes: { alice: TempHome; bob: TempHome };
let work: string;
let project: string;

/** Serves what the registry holds only to a request with Alice's or Bob's Basic auth. */
function privately(registry: ServedRegistry, path: string): void {
  registry.handlers.set(path, (req: IncomingMessage, res: ServerResponse) => {
    const allowed = [ALICE, BOB].map((u) => `Basic ${Buffer.from(u).toString('base64')}`);
    if (!allowed.includes(req.headers.authorization ?? '')) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="acme"' });
      return res.end();
    }
    const body = path === '/index.json' ? JSON.stringify(registry.index) : registry.files.get(path);
    res.end(body);
  });
}

beforeAll(async () => {
  ensureBuilt();
  acme = await startPluginRegistry('acme');
  await publishPlugin(acme, 'team-guard', '1.1.0', { PreToolUse: ['true'] });
  for (const path of ['/index.json', ...acme.files.keys()]) privately(acme, path);
}, 120_000);
afterAll(() => acme.close());

beforeEach(async () => {
  homes = { alice: await makeTempHome('hookpm-alice-'), bob: await makeTempHome('hookpm-bob-') };
  work = await mkdtemp(join(tmpdir(), 'hookpm-credentials-'));
  project = join(work, 'repo');
  await mkdir(join(project, '.git'), { recursive: true });
});
afterEach(async () => {
  for (const home of Object.values(homes)) await home.cleanup();
  await rm(work, { recursive: true, force: true });
});

/** The registry's URL with `user` (`name:password`) in it. */
const withUser = (user: string): string => acme.url.replace('http://', `http://${user}@`);

async function ok(home: TempHome, ...args: string[]): Promise<BinRun> {
  const run = await runBin(args, { env: home.env, cwd: project });
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run;
}

function expectNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) expect(text, where).not.toContain(secret);
}

/** Every file under `dir` whose bytes hold a secret, with its permission bits. */
async function filesHoldingSecrets(dir: string): Promise<{ file: string; mode: number }[]> {
  const found: { file: string; mode: number }[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const text = await readFile(file, 'latin1');
    if (SECRETS.some((s) => text.includes(s)))
      found.push({ file, mode: (await stat(file)).mode & 0o777 });
  }
  return found;
}

describe('a registry URL holding a user and password (N5)', () => {
  it('N5: info shows the tarball without the password, and only the owner can read a file that holds it', async () => {
    const { alice } = homes;
    await ok(alice, 'registry', 'add', 'acme', withUser(ALICE));
    const shown = await ok(alice, 'info', 'team-guard@acme');
    const json = await ok(alice, 'info', 'team-guard@acme', '--json');
    expectNoSecret(shown.stdout + shown.stderr + json.stdout + json.stderr, 'info');
    expect(shown.stdout).toContain('tarballs/team-guard-1.1.0.tgz');
    await ok(alice, 'install', 'team-guard@acme', '--yes');
    const holding = await filesHoldingSecrets(alice.dir);
    // The state keeps the registry's URL, as the user gave it; the cached index names it too.
    expect(holding.length).toBeGreaterThanOrEqual(2);
    for (const { file, mode } of holding) expect(mode.toString(8), file).toBe('600');
  });

  it("N5: install --project writes neither hookpm.json nor hookpm.lock with Alice's credentials; Bob installs the lock with his own", async () => {
    const { alice, bob } = homes;
    await ok(alice, 'registry', 'add', 'acme', withUser(ALICE));
    await ok(alice, 'install', '--project', 'team-guard@acme', '--yes');
    const manifest = await readFile(join(project, 'hookpm.json'), 'utf8');
    const lock = await readFile(join(project, 'hookpm.lock'), 'utf8');
    expectNoSecret(manifest + lock, 'project files');
    expect(manifest).not.toContain('alice');
    expect(lock).not.toContain('alice');
    expect(JSON.parse(manifest).registries).toEqual({ acme: acme.url });
    expect(JSON.parse(lock).plugins['team-guard@acme'].resolved).toBe(
      `${acme.url}tarballs/team-guard-1.1.0.tgz`,
    );
    // Alice's own lock still installs for her (her registry's URL holds her credentials).
    await ok(alice, 'ci');
    // Bob's registry of the same name holds his: the lock names the same tarball.
    await ok(bob, 'registry', 'add', 'acme', withUser(BOB));
    await ok(bob, 'ci', '--yes');
    const listed = await ok(bob, 'list', '--project', '--json');
    expect(listed.stdout).toContain('team-guard@acme');
    expect(await readFile(join(project, 'hookpm.lock'), 'utf8')).toBe(lock);
  });

  it('N5: a location with a query is refused at registry add, its token not printed', async () => {
    const { alice } = homes;
    const run = await runBin(['registry', 'add', 'acme', `${acme.url}?access_token=tok-S3CRET`], {
      env: alice.env,
      cwd: project,
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('error[E_USAGE]');
    expect(run.stderr).toContain('query');
    expectNoSecret(run.stdout + run.stderr, 'registry add');
  });
});
